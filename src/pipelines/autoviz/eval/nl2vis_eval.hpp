// Nl2visEval runs the autoviz graph on NL2VIS benchmark cases and keeps the scores: per component,
// exact and execution match (nl2vis_score.hpp), and seed 002's planning metrics read from each
// run's state (requirement coverage, unjustified steps, tool retrieval misses, plan repairs).
// Each case runs as its own thread, writing its files under the scratch folder. The task asks
// for a chart, so every run's input wants the chart output ("List the codes and their counts").
#pragma once

#include <cstddef>
#include <filesystem>

#include "core/json.hpp"
#include "graph/runner.hpp"
#include "pipelines/autoviz/eval/nl2vis_case.hpp"
#include "pipelines/autoviz/eval/nl2vis_score.hpp"

namespace planfirst::autoviz {

// Seed 002's planning metrics, summed over autoviz states.
class PlanningMetrics {
 public:
  void add(const core::Json& state);
  // {"runs_planned", "runs_failed", "requirement_coverage_rate", "unjustified_step_rate",
  //  "tool_retrieval_miss_rate", "plan_repair_rate", "plan_tools", "plan_tool_recall",
  //  "retrieval_recall"}: of the distinct tools each final plan uses, the share the narrowed set held
  // (template, safety or retrieval; the rest the planner had to discover), and the share retrieval
  // found of those neither template nor safety set gave: the embedder's part.
  core::Json to_json() const;

 private:
  void add_tool_recall(const core::Json& plan, const core::Json& tools);

  int planned_ = 0, failed_ = 0, requirement_lines_ = 0, covered_lines_ = 0, steps_ = 0, unjustified_ = 0;
  int retrieval_misses_ = 0, executed_ = 0, repaired_ = 0;
  int plan_tools_ = 0, given_tools_ = 0, retrieved_tools_ = 0;
};

class Nl2visEval {
 public:
  // REQUIRES: `runner` runs the autoviz graph and outlives the eval.
  Nl2visEval(graph::Runner& runner, std::filesystem::path scratch)
      : runner_(runner), scratch_(std::move(scratch)) {}

  // Runs case `index` and counts it. Returns {"id", "db_id", "half", "question", "predicted", "target",
  // "missed", "execution", "why"?}: the planned and target charts, the components missed, and why execution
  // did not match when the run drew nothing to compare.
  core::Json run_case(const Nl2visCase& c, std::size_t index);
  // Nl2visTally::to_json by hardness, chart and half (Nl2visCase::half), plus "planning":
  // PlanningMetrics::to_json.
  core::Json summary() const;

 private:
  graph::Runner& runner_;
  std::filesystem::path scratch_;
  Nl2visTally tally_;
  PlanningMetrics planning_;
};

}  // namespace planfirst::autoviz
