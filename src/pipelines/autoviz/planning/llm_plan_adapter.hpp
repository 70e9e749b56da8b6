// LlmPlanAdapter is the model strategy of seed 002 §5: prompt D (assets/prompts/adapt_plan.md) with
// the requirements, the candidate tools (name, description, params schema), the template's plan and
// the last coverage feedback, answered under the plan_adaptation contract. The changes are applied
// to the template plan, and the plan is accepted only when every step uses a candidate tool with
// params execution would accept (StepExecutor::check_params), aggregation or segmentation precedes
// the first chart when group_by or time is asked, and the coverage check passes; otherwise the
// faults are sent back as a re-ask.
// When the guard gives up the rules plan, and the result records why. Immutable; threads may share
// one. Borrows the model, the registries, the executor and the rules: they outlive it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "contracts/validation_report.hpp"
#include "pipelines/autoviz/planning/plan_adapter.hpp"
#include "pipelines/autoviz/stage_model.hpp"

namespace planfirst::autoviz {
class CapabilityMap;
class StepExecutor;
class ToolRegistry;

class LlmPlanAdapter final : public PlanAdapter {
 public:
  static constexpr std::string_view kPrompt = "adapt_plan";

  LlmPlanAdapter(const StageModel& model, const ToolRegistry& tools, const CapabilityMap& capabilities,
                 const StepExecutor& executor, const PlanAdapter& rules)
      : model_(model), tools_(tools), capabilities_(capabilities), executor_(executor), rules_(rules) {}

  // The rules' error, when they answer and fail.
  core::Result<AdaptedPlan> adapt(const PlanRequest& request) const override;

  // Why `plan`, the template adapted by `adaptation`, cannot run as asked: tools outside the
  // request's set, params execution would refuse, a chart before the aggregation, missing coverage.
  // Each fault at the pointer of the change that made the step ("/changes/2/params/agg_func"), or ""
  // for the plan as a whole. Empty: the plan is accepted.
  std::vector<contracts::Violation> faults(const PlanRequest& request, const PlanAdaptation& adaptation,
                                           const Plan& plan) const;

 private:
  std::string candidate_tools(const std::vector<std::string>& allowed) const;  // the prompt's tool list
  bool has_capability(std::string_view tool, std::string_view capability) const;

  const StageModel& model_;
  const ToolRegistry& tools_;
  const CapabilityMap& capabilities_;
  const StepExecutor& executor_;
  const PlanAdapter& rules_;
};

}  // namespace planfirst::autoviz
