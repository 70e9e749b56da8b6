// The run's two reports, report.md and report.html, from the autoviz state after execute and what
// RunArtifacts wrote for each step. Both lead with the answer (answer.hpp): its headline, every
// chart (with a note when its marks are a sample), and the first kReportRows rows of the answer's
// table, numbers rounded for display (display_table.hpp; the CSV keeps full precision). Then what
// seed 002's walkthrough shows, collapsed in report.html: the requirements, the tools considered
// with their scores, the coverage verdict and its lines, how execution ended (with any semantic
// repair sent back to planning), then each step with what it satisfies, the first rows of its table,
// its files and repairs. report.html is self-contained: each chart inline as SVG (or, when the SVG
// was skipped, its Vega-Lite spec in a collapsed block), tables in a wrapper that scrolls sideways
// when wider than the page, the style sheet inline (assets/autoviz/report/), every text
// HTML-escaped. Pure: same input, same bytes.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/asset_store.hpp"
#include "core/json.hpp"
#include "core/result.hpp"
#include "data/query_result.hpp"
#include "pipelines/autoviz/planning/coverage_checker.hpp"
#include "pipelines/autoviz/requirements.hpp"

namespace planfirst::autoviz {

inline constexpr std::size_t kReportRows = 20;  // rows of a table the reports show; its files hold all

struct StepArtifacts {               // what was written for one step, names relative to the output folder
  std::string chart_file;            // "plot_line.vl.json"; empty without a chart
  std::string svg_file;              // "plot_line.svg"; empty without an SVG
  std::string svg;                   // the SVG document, for report.html
  std::string spec;                  // the chart's Vega-Lite spec, for report.html without an SVG
  std::vector<std::string> notices;  // "SVG skipped: node not found on PATH"
  std::optional<data::QueryResult> table;  // the step's table as the state holds it
  std::vector<std::string> table_files;    // "aggregate.csv", "aggregate.md"
  std::vector<std::string> files;          // written by the step itself (save_table)
};

// The page and style sheet report.html is made from, read once from the assets.
struct ReportTemplates {
  static constexpr std::string_view kPage = "autoviz/report/report.html";
  static constexpr std::string_view kStyle = "autoviz/report/report.css";
  std::string page;  // Mustache
  std::string css;
  // kNotFound naming the asset that is missing.
  static core::Result<ReportTemplates> load(const core::AssetStore& assets);
};

struct ReportContent {
  const core::Json& state;  // the autoviz state after execute
  Requirements requirements;
  CoverageReport coverage;
  std::vector<std::string> tools;    // "aggregate (template, score 0.467)"
  std::vector<StepArtifacts> steps;  // one per step of state["execution"]["steps"], same order
};

// "metrics: revenue", "group_by: region, product_category", "time: date (grain unknown)", ...
std::vector<std::string> requirement_lines(const Requirements& requirements);
// "Coverage: complete" or "Coverage: incomplete".
std::string coverage_verdict(const CoverageReport& coverage);
// "Execution: every step ran; 2 safe repairs changed the plan's params." or "Execution: stopped at
// step 'totals' (aggregate): ..." for the state's "execution".
std::string execution_verdict(const core::Json& execution);
// A repair as the execution logged it: "metrics: `Revenue` -> `revenue` (column-name casing)".
std::string describe_repair(const core::Json& repair);
// A semantic repair sent back to planning: "totals.metrics = profit (metric): column 'profit' ...".
std::string describe_replan(const core::Json& request);

std::string report_markdown(const ReportContent& content);
// kInternal when the page does not render.
core::Result<std::string> report_html(const ReportContent& content, const ReportTemplates& templates);

}  // namespace planfirst::autoviz
