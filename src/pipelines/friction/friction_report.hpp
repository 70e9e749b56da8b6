// The friction analysis's artifacts, written into the run's output folder by the reporting node:
// drivers.csv (every ranked driver with its counts, rates, impact, ease and Impact x Ease; full
// precision, fixed decimals), one Vega-Lite spec per chart under charts/ (drivers by Impact x
// Ease, contacts per lens, contacts per month and lens) with its SVG when the renderer can draw it,
// and friction_report.html: the ranked drivers, the formula, the lens shares, the preparation's
// counts, the charts inline (SVG, or the spec when no SVG) and the critique's verdict, every text
// HTML-escaped (Mustache template assets/friction/report.html, style sheet shared with autoviz's
// report). Same input, same bytes.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/asset_store.hpp"
#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/autoviz/report/svg_renderer.hpp"
#include "pipelines/friction/contact_queries.hpp"
#include "pipelines/friction/driver_figures.hpp"

namespace planfirst::friction {

struct ReportInput {
  std::string dataset_path;
  std::int64_t total_contacts = 0;     // prepared contacts, the denominator of every share
  std::vector<DriverFigures> drivers;  // ranked
  core::Json dataset;                  // state "dataset"
  core::Json prep;                     // state "prep"
  core::Json synthesis;                // state "synthesis"
  std::vector<MonthCount> months;
  std::string critique;  // the critique's verdict; empty when it did not run
};

struct ReportFiles {
  std::filesystem::path report;               // friction_report.html
  std::filesystem::path drivers;              // drivers.csv
  std::vector<std::filesystem::path> charts;  // *.vl.json and the SVGs drawn
  std::vector<std::string> notices;           // "SVG skipped: node not found on PATH"
};

inline constexpr const char* kReportTemplateAsset = "friction/report.html";
inline constexpr const char* kReportStyleAsset = "autoviz/report/report.css";

// The drivers CSV as bytes (header + one row per ranked driver).
std::string drivers_csv(const std::vector<DriverFigures>& drivers, std::int64_t total);

// Writes every file into `output_dir` (created when missing). `renderer` may be null: no SVGs.
// kInvalidArgument naming a file that cannot be written; kNotFound for a missing template asset.
core::Result<ReportFiles> write_report(const std::filesystem::path& output_dir, const ReportInput& input,
                                       const core::AssetStore& assets, const autoviz::SvgRenderer* renderer);

}  // namespace planfirst::friction
