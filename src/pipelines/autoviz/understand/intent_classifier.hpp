// IntentClassifier is seed 002 §1's first stage: the primary analysis type of a question, one of
// the intent contract's closed set, and the base template it selects. Strategies: rules
// (rule_intent_classifier.hpp) and a model under the intent contract (llm_intent_classifier.hpp),
// which falls back to the rules; both return the same value, saying which strategy produced it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "data/schema_profile.hpp"
#include "pipelines/autoviz/strategy_record.hpp"

namespace planfirst::autoviz {

struct IntentChoice {
  std::string intent;                 // e.g. "time_series_investigation"
  double confidence = 0;              // 0..1
  std::string template_name;          // e.g. "time_series_grouped"
  std::vector<std::string> evidence;  // the rule phrases that matched, in rule order; none from a model
  StrategyRecord strategy;            // which strategy chose it
  core::Json to_json() const;         // {"primary", "confidence"}: the intent contract's shape
};

class IntentClassifier {
 public:
  virtual ~IntentClassifier() = default;
  // `profile` describes the data the question is about (the rules do not read it).
  virtual core::Result<IntentChoice> classify(std::string_view question,
                                              const data::SchemaProfile& profile) const = 0;
};

}  // namespace planfirst::autoviz
