#include "pipelines/autoviz/eval/nl2vis_eval.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "pipelines/autoviz/eval/chart_spec.hpp"
#include "pipelines/autoviz/plan.hpp"

namespace planfirst::autoviz {
namespace {

using core::Json;

// The rows of the last chart the run drew; null when it drew none, with `why` set unless it was.
Json drawn_chart_rows(const Json& state, std::string& why) {
  const Json steps = state.value("execution", Json::object()).value("steps", Json::array());
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
    if (!it->contains("chart")) continue;
    core::Result<Json> rows = drawn_rows((*it)["chart"]);
    if (rows) return *rows;
    if (why.empty()) why = rows.error().message;
    return Json();
  }
  if (!why.empty()) return Json();
  why = steps.empty() ? "nothing executed" : "no chart drawn";
  for (const Json& step : steps) {
    if (step.contains("error")) why = step.value("step_id", "") + ": " + step.value("error", "");
  }
  return Json();
}

}  // namespace

void PlanningMetrics::add(const Json& state) {
  const Json plan = state.value("plan", Json());
  if (!plan.is_object()) {
    ++failed_;
    return;
  }
  ++planned_;
  steps_ += static_cast<int>(plan.value("steps", Json::array()).size());
  const Json coverage = state.value("coverage", Json::object());
  for (const Json& line : coverage.value("lines", Json::array())) {
    ++requirement_lines_;
    covered_lines_ += line.value("covered", false) ? 1 : 0;
  }
  unjustified_ += static_cast<int>(coverage.value("unjustified", Json::array()).size());
  const Json tools = state.value("tools", Json::array());
  retrieval_misses_ += std::any_of(tools.begin(), tools.end(),
                                   [](const Json& tool) { return tool.value("source", "") == "discovery"; });
  add_tool_recall(plan, tools);
  const Json executed = state.value("execution", Json::object()).value("steps", Json::array());
  if (executed.empty()) return;
  ++executed_;
  repaired_ += std::any_of(executed.begin(), executed.end(),
                           [](const Json& step) { return !step.value("repairs", Json::array()).empty(); });
}

void PlanningMetrics::add_tool_recall(const Json& plan, const Json& tools) {
  std::map<std::string, std::string> source;  // tool -> how the narrowed set got it
  for (const Json& tool : tools) source.emplace(tool.value("tool", ""), tool.value("source", ""));
  std::set<std::string> used;
  for (const Json& step : plan.value("steps", Json::array())) {
    const std::string tool = step.value("tool", "");
    if (!tool.empty()) used.insert(tool);
  }
  for (const std::string& tool : used) {
    ++plan_tools_;
    const auto it = source.find(tool);
    const std::string how = it == source.end() ? "" : it->second;
    given_tools_ += how == "template" || how == "safety";
    retrieved_tools_ += how == "retrieval";
  }
}

Json PlanningMetrics::to_json() const {
  return {{"runs_planned", planned_},
          {"runs_failed", failed_},
          {"requirement_coverage_rate", rounded_rate(covered_lines_, requirement_lines_)},
          {"unjustified_step_rate", rounded_rate(unjustified_, steps_)},
          {"tool_retrieval_miss_rate", rounded_rate(retrieval_misses_, planned_)},
          {"plan_repair_rate", rounded_rate(repaired_, executed_)},
          {"plan_tools", plan_tools_},
          {"plan_tool_recall", rounded_rate(given_tools_ + retrieved_tools_, plan_tools_)},
          {"retrieval_recall", rounded_rate(retrieved_tools_, plan_tools_ - given_tools_)}};
}

Json Nl2visEval::run_case(const Nl2visCase& c, std::size_t index) {
  const Json input{{"question", c.question},
                   {"dataset", c.table_csv.string()},
                   {"out_dir", (scratch_ / std::to_string(index)).string()},
                   {"confirm", false},
                   {"plan_only", false},
                   {"write_files", false},
                   {"outputs", {"chart"}}};
  core::Result<graph::RunResult> result =
      runner_.run("eval-" + std::to_string(index), graph::JsonValue(input));
  const Json state = result ? result->state.json() : Json::object();
  std::string why;
  if (!result) {
    why = result.error().describe();
  } else if (result->status == graph::RunStatus::kFailed && result->error) {
    why = result->error->describe();
  }
  planning_.add(state);
  core::Result<Plan> plan = Plan::from_json(state.value("plan", Json()));
  const ChartSpec predicted = plan ? chart_spec_of(*plan) : ChartSpec{};
  const std::map<std::string, bool> components = score_components(predicted, c);
  const Json drawn = drawn_chart_rows(state, why);
  const bool execution = drawn.is_array() && rows_match(drawn, c);
  tally_.add({c.hardness, c.nvbench_chart, c.half}, components, execution);
  Json misses = Json::array();
  for (const auto& [name, ok] : components) {
    if (!ok) misses.push_back(name);
  }
  Json line{{"id", c.id},
            {"db_id", c.db_id},
            {"half", c.half},
            {"question", c.question},
            {"predicted", predicted.to_json()},
            {"target", c.target.to_json()},
            {"missed", misses},
            {"execution", execution}};
  if (!execution && !why.empty()) line["why"] = why;
  return line;
}

Json Nl2visEval::summary() const {
  Json out = tally_.to_json({"hardness", "chart", "half"});
  out["planning"] = planning_.to_json();
  return out;
}

}  // namespace planfirst::autoviz
