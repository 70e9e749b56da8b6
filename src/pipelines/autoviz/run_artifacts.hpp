// RunArtifacts writes one autoviz run (seed 002, issue 5 "Output a user gets") into its output
// folder: plan.json (question, dataset, requirements, tools considered, plan, coverage, and per
// step its status, outputs, repairs with their provenance and error; table rows left out), each
// chart as <step>.vl.json and <step>.svg, each table as <step>.csv and <step>.md unless the step
// wrote its own files, report.md and a self-contained report.html. Every file is written to a
// temporary name and renamed, so a reader sees the old file or the new one. Same record, same
// bytes. When the SvgRenderer is unavailable or fails, the SVG is skipped with a notice ("SVG
// skipped: ...") in plan.json and both reports, never an error. The writer borrows the renderer
// and the asset store; threads may share one writer for different folders.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/asset_store.hpp"
#include "core/result.hpp"
#include "pipelines/autoviz/coverage_checker.hpp"
#include "pipelines/autoviz/plan.hpp"
#include "pipelines/autoviz/requirements.hpp"
#include "pipelines/autoviz/tool_context.hpp"
#include "pipelines/autoviz/tool_output.hpp"

namespace planfirst::autoviz {
class SvgRenderer;

enum class StepStatus { kOk, kFailed, kSkipped };
std::string_view to_string(StepStatus status);  // "ok", "failed", "skipped"

struct StepRecord {  // one executed (or skipped) plan step
  std::string step_id;
  std::string tool;
  std::vector<std::string> satisfies;
  StepStatus status = StepStatus::kOk;
  ToolOutput output;
  std::vector<ToolRepair> repairs;  // made while running this step, in order
  std::string error;                // why it failed; empty when ok
};

struct RunRecord {
  std::string question;
  std::string dataset;  // the data file's path as the user gave it
  Requirements requirements;
  // JSON array text, as the narrower reports it: [{"tool": "aggregate", "score": 0.82,
  // "sources": ["capability", "retrieval"]}, ...]; empty: none recorded.
  std::string considered_tools;
  Plan plan;
  CoverageReport coverage;
  std::vector<StepRecord> steps;  // run order
};

class RunArtifacts {
 public:
  // REQUIRES: `renderer` and `assets` outlive the writer.
  RunArtifacts(const SvgRenderer& renderer, const core::AssetStore& assets) : renderer_(renderer), assets_(assets) {}

  // Creates `output_dir` when needed and writes every file; returns their paths in writing order.
  // kInvalidArgument naming the file that could not be written, or "considered_tools" when it is
  // not a JSON array; kNotFound when a report template is missing from the assets.
  core::Result<std::vector<std::filesystem::path>> write(const std::filesystem::path& output_dir,
                                                         const RunRecord& record) const;

 private:
  const SvgRenderer& renderer_;
  const core::AssetStore& assets_;
};

}  // namespace planfirst::autoviz
