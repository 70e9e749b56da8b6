// IntentDetector is seed 001's intent detection by rules: it scores each intent of IntentRules by
// the keywords and phrases a question contains (on Snowball stems), keeps those that scored, highest
// first (ties in rule order), with a primary score (the best) and an overall score (their mean),
// and reads the question's entities. No model, no I/O: same question, same result. Immutable after
// construction; threads may share one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "pipelines/retrieval/entity_extractor.hpp"
#include "pipelines/retrieval/intent_rules.hpp"
#include "pipelines/retrieval/reasoning.hpp"

namespace planfirst::retrieval {

struct DetectedIntents {
  std::vector<Intent> intents;  // never empty: IntentRules::fallback when no rule matched
  double primary_score = 0.0;
  double overall_score = 0.0;
  Entities entities;
};

class IntentDetector {
 public:
  explicit IntentDetector(IntentRules rules);
  IntentDetector(const IntentDetector&) = delete;  // the index points into rules_
  IntentDetector& operator=(const IntentDetector&) = delete;

  DetectedIntents detect(std::string_view question) const;
  const IntentRules& rules() const { return rules_; }

 private:
  struct Match {
    std::size_t intent;  // index into rules_.intents
    std::size_t phrase;  // index over every phrase of every intent, so each counts once
    double weight;
  };
  struct StemmedPhrase {
    std::vector<std::string> stems;  // "*" kept
    Match match;
  };

  IntentRules rules_;
  EntityExtractor entities_;
  std::unordered_map<std::string, std::vector<Match>> keywords_;  // stem -> one-word phrases
  std::vector<StemmedPhrase> phrases_;                            // phrases of two words or more
  std::size_t phrase_count_ = 0;
};

// Rounds a confidence to two decimals, so sums of weights print as written (0.6 + 0.3 -> 0.9).
double round_confidence(double value);

}  // namespace planfirst::retrieval
