#include "pipelines/retrieval/retrieval_planner.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

namespace planfirst::retrieval {
namespace {

RetrievalPlan make_plan(const PlanRule& rule, const Entities& entities, std::size_t index) {
  RetrievalPlan plan;
  plan.id = "plan" + std::to_string(index);
  plan.description = rule.description;
  plan.sources = rule.sources;
  plan.priority = rule.priority;
  plan.filters.reserve(rule.filters.size() + rule.fixed.size());
  for (const std::string& name : rule.filters) {
    const std::vector<std::string>* values = entities.values(name);
    if (values != nullptr && !values->empty()) plan.filters.push_back({name, *values});
  }
  for (const Filter& fixed : rule.fixed) plan.filters.push_back(fixed);
  plan.filters = normalized_filters(std::move(plan.filters));
  return plan;
}

bool same_plan(const RetrievalPlan& a, const RetrievalPlan& b) {
  return a.description == b.description && a.sources == b.sources && a.filters == b.filters &&
         a.priority == b.priority;
}

}  // namespace

core::Json to_json(const PlannerCapabilities& capabilities) {
  return core::Json{{"agent_id", capabilities.agent_id},
                    {"version", capabilities.version},
                    {"type", capabilities.type},
                    {"dependencies", {capabilities.dependencies[0], capabilities.dependencies[1]}},
                    {"supports_parallel_execution", capabilities.supports_parallel_execution},
                    {"supports_retry", capabilities.supports_retry},
                    {"requires_llm", capabilities.requires_llm},
                    {"is_deterministic", capabilities.is_deterministic},
                    {"estimated_duration_ms", capabilities.estimated_duration_ms}};
}

core::Result<PlannerOutput> RetrievalPlanner::plan(const Reasoning& reasoning) const {
  if (reasoning.intents.empty())
    return core::failed_precondition("No intents found in context", "reasoning.intents");
  if (reasoning.hypotheses.empty()) {
    return core::failed_precondition("No hypotheses found in context", "reasoning.hypotheses");
  }
  PlannerOutput output;
  std::size_t made = 0;
  auto add = [&](const PlanRule& rule) {
    RetrievalPlan plan = make_plan(rule, reasoning.entities, made);
    const bool repeat = std::any_of(output.plans.begin(), output.plans.end(),
                                    [&](const RetrievalPlan& earlier) { return same_plan(earlier, plan); });
    if (repeat) return;
    output.plans.push_back(std::move(plan));
    ++made;
  };
  for (const Intent& intent : reasoning.intents) {
    if (intent.confidence < kConfidenceThreshold) {
      output.skipped.push_back(intent);
      continue;
    }
    if (const std::vector<PlanRule>* rules = rules_.plans_for(intent.type); rules != nullptr) {
      for (const PlanRule& rule : *rules) add(rule);
    } else {
      add(rules_.fallback);
    }
  }
  std::stable_sort(output.plans.begin(), output.plans.end(),
                   [](const RetrievalPlan& a, const RetrievalPlan& b) { return a.priority > b.priority; });
  output.queries = queries_for(output.plans);
  return output;
}

}  // namespace planfirst::retrieval
