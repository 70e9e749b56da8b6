// PlanAdapter is seed 002 §5: the requirements, the narrowed tools and the intent's template become a
// plan whose every step cites the requirements it satisfies. Strategies: rules
// (rule_plan_adapter.hpp), which build the plan directly, and a model under the plan_adaptation
// contract (llm_plan_adapter.hpp), whose changes are applied to the template plan and must pass the
// coverage check, else the rules answer. Both return the same value type, saying which strategy
// produced it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "data/schema_profile.hpp"
#include "pipelines/autoviz/plan.hpp"
#include "pipelines/autoviz/requirements.hpp"
#include "pipelines/autoviz/strategy_record.hpp"
#include "pipelines/autoviz/understand/template_registry.hpp"

namespace planfirst::autoviz {

struct PlanRequest {  // borrows everything; lives for one adapt() call
  std::string_view question;
  const Requirements& requirements;
  const data::SchemaProfile& profile;
  const PlanTemplate& base;                       // the intent's template
  const std::vector<std::string>& allowed_tools;  // the narrowed set; empty: any tool
  std::string_view coverage_feedback;             // the last coverage check's retry payload; "" at first
};

struct AdaptedPlan {
  Plan plan;
  std::optional<PlanAdaptation> adaptation;  // the model's changes to the template plan; none from the rules
  StrategyRecord strategy;                   // which strategy planned
  std::vector<std::string>
      discovered;  // tools outside the request's set the plan needed (seed §4's discovery)
};

class PlanAdapter {
 public:
  virtual ~PlanAdapter() = default;
  // A plan uses only `allowed_tools` and the tools it names in `discovered`.
  virtual core::Result<AdaptedPlan> adapt(const PlanRequest& request) const = 0;
};

}  // namespace planfirst::autoviz
