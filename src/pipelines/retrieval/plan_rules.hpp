// PlanRules are seed 001's plans per intent type (sources, priority, filters, description) and the
// generic fallback for unknown intents, plus the execution settings, read from
// assets/retrieval/plans.yaml. Immutable after load(); threads may share one.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/asset_store.hpp"
#include "core/result.hpp"
#include "pipelines/retrieval/execution_settings.hpp"
#include "pipelines/retrieval/retrieval_plan.hpp"

namespace planfirst::retrieval {

inline constexpr std::string_view kPlanRulesAsset = "retrieval/plans.yaml";

// One plan of the table: what RetrievalPlanner turns into a RetrievalPlan for a question.
struct PlanRule {
  std::string description;
  std::vector<std::string> sources;
  int priority = 0;
  std::string kind;                  // the SourceQuery kind: "commits", "issues", "metrics", ...
  std::vector<std::string> filters;  // entity filters the plan takes from the question
  std::vector<Filter> fixed;         // the seed's set filter values (query_status)
};

struct PlanRules {
  std::map<std::string, std::vector<PlanRule>, std::less<>> plans;  // intent type -> plans
  PlanRule fallback;
  ExecutionSettings execution;

  // The plans of `intent`, or nullptr when it has none (the fallback applies).
  const std::vector<PlanRule>* plans_for(std::string_view intent) const;
  // The record kind of a plan with this description asking `source`: its template's, else the
  // source's default.
  std::string kind_of(std::string_view description, std::string_view source) const;

  // kNotFound without the asset; kInvalidArgument at the file and line of a malformed rule.
  static core::Result<PlanRules> load(const core::AssetStore& assets,
                                      std::string_view path = kPlanRulesAsset);
};

}  // namespace planfirst::retrieval
