// The run's two reports, report.md and report.html, from a RunRecord and what RunArtifacts wrote
// for each step. Both show what seed 002's walkthrough shows: the question and dataset, the
// requirements, the tools considered with their scores, the coverage verdict and its lines, then
// each step with what it satisfies, its chart, table, files and repairs. report.html is
// self-contained: the charts inline as SVG, the tables as HTML tables, the style sheet inline
// (assets/report/), every text HTML-escaped. Pure: same input, same bytes.
#pragma once

#include <string>
#include <vector>

#include "core/asset_store.hpp"
#include "core/result.hpp"
#include "pipelines/autoviz/run_artifacts.hpp"

namespace planfirst::autoviz {

struct StepArtifacts {  // what was written for one step, names relative to the output folder
  std::string chart_file;                // "plot_1.vl.json"; empty without a chart
  std::string svg_file;                  // "plot_1.svg"; empty without an SVG
  std::string svg;                       // the SVG document, for report.html
  std::vector<std::string> notices;      // "SVG skipped: node not found on PATH"
  std::vector<std::string> table_files;  // "aggregate_1.csv", "aggregate_1.md"
  std::vector<std::string> files;        // written by the step itself (save_table)
};

struct ReportContent {
  const RunRecord& record;
  std::vector<std::string> tools;    // "aggregate (score 0.82; capability, retrieval)"
  std::vector<StepArtifacts> steps;  // one per record.steps, same order
};

// "metrics: revenue", "group_by: region, product_category", "time: date (grain unknown)", ...
std::vector<std::string> requirement_lines(const Requirements& requirements);
// "Coverage: complete" or "Coverage: incomplete".
std::string coverage_verdict(const CoverageReport& coverage);
// "metrics: `Revenue` -> `revenue` (column-name casing)"
std::string describe_repair(const ToolRepair& repair);

std::string report_markdown(const ReportContent& content);
// kNotFound when a template is missing from `assets`; kInternal when it does not render.
core::Result<std::string> report_html(const ReportContent& content, const core::AssetStore& assets);

}  // namespace planfirst::autoviz
