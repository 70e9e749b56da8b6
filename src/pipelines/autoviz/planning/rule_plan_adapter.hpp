// RulePlanAdapter is the offline strategy of seed 002 §5: requirements become plan steps, each with
// a tool from the narrowed set, its params and the requirements it satisfies. Filters come first,
// then date parsing and bucketing (an explicit grain wins; otherwise "auto", resolved by span at
// execution), aggregation (function from the question's words, assets/autoviz/plan_adapter_rules.yaml),
// sort and limit, the requested chart (or a line over time, a scatter per number, else bars) and a saved
// table; nothing the requirements do not ask for. It also answers when the model strategy gives up.
// Deterministic. Immutable after load(); threads may share one.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/asset_store.hpp"
#include "core/result.hpp"
#include "data/schema_profile.hpp"
#include "pipelines/autoviz/plan.hpp"
#include "pipelines/autoviz/planning/plan_adapter.hpp"
#include "pipelines/autoviz/requirements.hpp"

namespace planfirst::autoviz {

class RulePlanAdapter final : public PlanAdapter {
 public:
  static constexpr std::string_view kPath = "autoviz/plan_adapter_rules.yaml";
  // `sort_magnitudes`: the requirement rules' sort.magnitude phrases ("from highest to lowest"),
  // as RuleRequirementExtractor::sort_magnitudes() gives them; load(assets) loads those rules for them.
  static core::Result<RulePlanAdapter> load(const core::AssetStore& assets);
  static core::Result<RulePlanAdapter> load(const core::AssetStore& assets,
                                            std::vector<std::vector<std::string>> sort_magnitudes);

  // plan() of the request's question, requirements, profile and tools; the tools it needs that the
  // request left out join the set as `discovered` (seed §4's discovery). The template and the
  // coverage feedback are not read.
  core::Result<AdaptedPlan> adapt(const PlanRequest& request) const override;

  // kFailedPrecondition naming the tool when a step needs a tool outside `allowed_tools`.
  core::Result<Plan> plan(std::string_view question, const Requirements& requirements,
                          const data::SchemaProfile& profile,
                          const std::vector<std::string>& allowed_tools) const;

 private:
  using Phrases = std::vector<std::vector<std::string>>;
  std::vector<std::pair<std::string, Phrases>> charts_;          // plot tool -> phrases, file order
  std::vector<std::pair<std::string, Phrases>> aggregations_;    // agg_func -> phrases, file order
  std::vector<std::pair<std::string, Phrases>> cyclic_grains_;   // time_bucket grain -> phrases
  std::vector<std::pair<std::string, Phrases>> period_changes_;  // compare_periods grain -> phrases
  std::vector<std::pair<std::string, Phrases>>
      measure_aggregations_;      // agg_func -> phrases right before a column
  Phrases ranking_superlatives_;  // words that order ranked keys or rows, not aggregate them
  Phrases row_superlatives_;      // "the most expensive product": rows ranked as they are
  Phrases sort_magnitudes_;  // "from highest to lowest" orders; it takes no maximum (requirement_rules' sort)
  std::vector<std::pair<std::string, Phrases>> amount_aggregations_;
  std::vector<std::pair<std::string, Phrases>>
      measure_counts_;                           // agg_func -> "number of" before a measure's words
  std::vector<std::string> count_column_words_;  // a measure named with one holds counts (Number_Deaths)  //
                                                 // agg_func -> "how many hours" and the like
};

}  // namespace planfirst::autoviz
