#include "pipelines/autoviz/planning/llm_plan_adapter.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "core/join.hpp"
#include "pipelines/autoviz/planning/capability_map.hpp"
#include "pipelines/autoviz/planning/coverage_checker.hpp"
#include "pipelines/autoviz/planning/tool_registry.hpp"
#include "pipelines/autoviz/tools/step_executor.hpp"

namespace planfirst::autoviz {
namespace {

// "/changes/<i>" of the last change that made or modified `step_id`; "" for an untouched template step.
std::string change_pointer(const PlanAdaptation& adaptation, std::string_view step_id) {
  for (std::size_t i = adaptation.changes.size(); i-- > 0;) {
    if (adaptation.changes[i].step_id == step_id) return "/changes/" + std::to_string(i);
  }
  return "";
}

std::string template_steps(const PlanTemplate& base) {
  std::string text;
  const core::Json plan = plan_from_template(base).to_json();
  for (const core::Json& step : plan["steps"]) text += step.dump() + "\n";
  return text;
}

}  // namespace

bool LlmPlanAdapter::has_capability(std::string_view tool, std::string_view capability) const {
  const ToolSpec* spec = tools_.find(tool);
  if (spec == nullptr) return false;
  return std::any_of(spec->capabilities.begin(), spec->capabilities.end(), [&](const std::string& declared) {
    return capabilities_.canonical(declared).value_or(declared) == capability;
  });
}

std::string LlmPlanAdapter::candidate_tools(const std::vector<std::string>& allowed) const {
  std::string text;
  for (const ToolSpec& tool : tools_.tools()) {
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), tool.name) == allowed.end()) continue;
    text += "- " + tool.name + ": " + tool.description + " Params: " + tool.params_schema + "\n";
  }
  return text;
}

std::vector<contracts::Violation> LlmPlanAdapter::faults(const PlanRequest& request,
                                                         const PlanAdaptation& adaptation,
                                                         const Plan& plan) const {
  std::vector<contracts::Violation> out;
  std::optional<std::size_t> first_chart;
  std::optional<std::size_t> first_aggregation;
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    const PlanStep& step = plan.steps[i];
    const std::string at = change_pointer(adaptation, step.step_id);
    const std::vector<std::string>& allowed = request.allowed_tools;
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), step.tool) == allowed.end()) {
      out.push_back({at + "/tool", "candidate_tools",
                     "step '" + step.step_id + "' uses " + step.tool +
                         ", which is not a candidate tool: " + core::join(allowed)});
      continue;
    }
    if (std::optional<core::Error> refused = executor_.check_params(step, i, request.requirements)) {
      // "/steps/<i>/params/agg_func" as the change that wrote those params says it
      const std::string plan_params = "/steps/" + std::to_string(i) + "/params";
      std::string pointer = refused->where;
      if (!at.empty() && pointer.starts_with(plan_params))
        pointer = at + "/params" + pointer.substr(plan_params.size());
      out.push_back({std::move(pointer), "params", refused->message});
    }
    if (!first_chart && has_capability(step.tool, "plot")) first_chart = i;
    if (!first_aggregation &&
        (has_capability(step.tool, "aggregate") || has_capability(step.tool, "segment"))) {
      first_aggregation = i;
    }
  }
  const bool grouped = !request.requirements.group_by.empty() || request.requirements.time.column.has_value();
  if (grouped && first_chart && first_aggregation && *first_chart < *first_aggregation) {
    out.push_back(
        {"", "order",
         "step '" + plan.steps[*first_chart].step_id + "' draws a chart before step '" +
             plan.steps[*first_aggregation].step_id +
             "' aggregates: with group_by or time, aggregate or segment first (an added step goes last; "
             "remove the chart and add it again after the aggregation)"});
  }
  const CoverageReport coverage = CoverageChecker(capabilities_, tools_).check(request.requirements, plan);
  const std::string payload = coverage.retry_payload();
  for (std::size_t start = 0; start < payload.size();) {
    const std::size_t end = std::min(payload.find('\n', start), payload.size());
    out.push_back({"", "coverage", payload.substr(start, end - start)});
    start = end + 1;
  }
  return out;
}

core::Result<AdaptedPlan> LlmPlanAdapter::adapt(const PlanRequest& request) const {
  const Plan base = plan_from_template(request.base);
  std::optional<AdaptedPlan> accepted;
  const llm::ReplyCheck runs_as_asked = [&](const core::Json& reply) {
    core::Result<PlanAdaptation> adaptation = PlanAdaptation::from_json(reply);
    if (!adaptation) {
      return std::vector<contracts::Violation>{
          {adaptation.error().where, "plan_adaptation", adaptation.error().message}};
    }
    core::Result<Plan> plan = apply_adaptation(base, *adaptation);
    if (!plan) return std::vector<contracts::Violation>{{plan.error().where, "apply", plan.error().message}};
    std::vector<contracts::Violation> found = faults(request, *adaptation, *plan);
    if (found.empty()) accepted = AdaptedPlan{std::move(*plan), std::move(*adaptation), StrategyRecord{}, {}};
    return found;
  };
  StageModel::Answer answer = model_.ask(kPrompt,
                                         {{"requirements", request.requirements.to_json().dump()},
                                          {"tools", candidate_tools(request.allowed_tools)},
                                          {"template_plan", template_steps(request.base)},
                                          {"coverage_feedback", std::string(request.coverage_feedback)}},
                                         runs_as_asked);
  if (answer.json && accepted) {
    accepted->strategy = std::move(answer.record);
    return std::move(*accepted);
  }
  core::Result<AdaptedPlan> planned = rules_.adapt(request);
  if (planned) planned->strategy = std::move(answer.record);
  return planned;
}

}  // namespace planfirst::autoviz
