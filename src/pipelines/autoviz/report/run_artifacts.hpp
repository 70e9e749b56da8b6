// RunArtifacts writes one autoviz run into its output folder from the graph's state after execute
// (seed 002, "Output a user gets"): plan.json (question, dataset, table, intent, requirements,
// tools considered, plan, coverage, outcome, which strategy answered each stage and the model's
// plan changes when a model was asked, and the execution: per step its status, params as
// run, repairs with their provenance, files, notices and error, table rows and chart specs left
// out; then every repair, every notice and the semantic repairs sent back to planning), each chart
// as <step>.vl.json and <step>.svg, each whole table as <step>.csv and <step>.md unless the step
// or a later one (save_table) already wrote it, report.md and a self-contained report.html
// (report_writer.hpp); a truncated table is shown in the reports, never filed as complete. Every
// file is written to a temporary name and renamed, so a reader sees the old file or the new one.
// Same state, same bytes. When the SvgRenderer is unavailable or fails, the SVG is skipped with a
// notice ("SVG skipped: ...") in plan.json, both reports and the result, never an error.
// Immutable; threads may share one writer for different folders.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/autoviz/report/report_writer.hpp"
#include "pipelines/autoviz/report/svg_renderer.hpp"

namespace planfirst::autoviz {

struct RunFiles {
  std::vector<std::filesystem::path> files;  // the steps' own files, then those written here, in order
  std::vector<std::string> notices;          // "plot_line: SVG skipped: node not found on PATH"
};

// Files what each executed step produced into `output_dir` as write() would: its chart as
// <step>.vl.json, and its whole table as <step>.csv and <step>.md by the rule above (not a step that
// wrote files itself, nor one whose relation a later step saved, nor a truncated one). Then leaves in
// `execution` only what the graph's state, and so its checkpoints, hold: a chart's "chart_file" and
// "chart_points" instead of its spec; a table's first kReportRows rows, its "row_count" (when known)
// and the "table_files" written for it. write() reads the spec back and files nothing again.
// Returns the files written, in order.
core::Result<std::vector<std::filesystem::path>> file_outputs(const std::filesystem::path& output_dir,
                                                              core::Json& execution);

// The tables' previews for a run that writes no files ("table_files" empty, nothing written); its
// charts stay inline, since no file holds them.
void keep_table_previews(core::Json& execution);

class RunArtifacts {
 public:
  RunArtifacts(SvgRenderer renderer, ReportTemplates templates)
      : renderer_(std::move(renderer)), templates_(std::move(templates)) {}

  // Creates `output_dir` when needed and writes every file, then the folder's run record listing
  // them with the files file_outputs wrote (run_manifest.hpp). kInvalidArgument naming the file that
  // could not be written, or the JSON pointer of the state's field at fault ("/requirements").
  core::Result<RunFiles> write(const std::filesystem::path& output_dir, const core::Json& state) const;

  // For a run that will write its files: starts the SVG renderer's child now (SvgRenderer::warm_up).
  void prepare() const { renderer_.warm_up(); }
  // Starts rendering `chart`, a step's Vega-Lite spec as the tool gave it (compact JSON text, the
  // text write() renders for that chart in the state), so write() finds the SVG ready (or on its
  // way) instead of rendering it after the tables and the report.
  void start_chart(std::string_view chart) const;

 private:
  SvgRenderer renderer_;
  ReportTemplates templates_;
};

}  // namespace planfirst::autoviz
