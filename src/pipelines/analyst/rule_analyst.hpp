// RuleAnalyst is the offline strategy of the analyst plan (seed 000 §2-§3): the router's request type
// and track, the type's planned sources (REQUIRED_SOURCES_BY_TYPE plus additional_sources_by_type),
// an intent label made from the question's words, the output schema of the type, and at most one
// clarifying question from assets/analyst/analyst_rules.json (asking promotes the plan to QUALITY).
// Its output goes through the same output guard as a model's. Immutable after load(); threads may
// share one.
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/asset_store.hpp"
#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/analyst/analyst_plan.hpp"

namespace planfirst::analyst {

inline constexpr std::string_view kAnalystRulesAsset = "analyst/analyst_rules.json";

class RuleAnalyst {
 public:
  // kInvalidArgument naming the asset and the key at fault.
  static core::Result<RuleAnalyst> load(const core::AssetStore& assets);

  // `may_ask` is false once the thread has had its clarification round.
  AnalystPlan plan(std::string_view user_query, RequestType type, Track track, bool may_ask) const;

 private:
  // "<prefix>_<words>" from the question's words, e.g. "query_sprint_completion_rate".
  std::string intent_label(const std::vector<std::string>& words, RequestType type) const;

  struct Clarification {
    std::set<std::string, std::less<>> unless_any;
    std::string question;
  };
  std::map<RequestType, std::string> prefixes_;
  std::set<std::string, std::less<>> stopwords_;
  std::size_t max_words_ = 4;
  std::map<RequestType, Clarification> clarifications_;
};

}  // namespace planfirst::analyst
