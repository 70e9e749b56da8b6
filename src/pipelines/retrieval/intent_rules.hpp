// IntentRules are the data of intent detection and the reasoning structure, read from
// assets/retrieval/intents.yaml: per intent its weighted keywords and phrases, its
// hypothesis and the intents it depends on; the entity vocabulary (project markers, date phrases,
// status and provider words, how people are named); the fallback intent when nothing matches.
// Immutable after load().
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/asset_store.hpp"
#include "core/result.hpp"
#include "pipelines/retrieval/reasoning.hpp"
#include "pipelines/retrieval/word_match.hpp"

namespace planfirst::retrieval {

inline constexpr std::string_view kIntentRulesAsset = "retrieval/intents.yaml";

struct WeightedPhrase {
  Words words;  // as written in the rules: lower case, "*" for any word
  double weight = 0.0;
};

struct IntentRule {
  std::string type;
  std::string hypothesis;
  std::vector<std::string> depends_on;  // intent types
  std::vector<WeightedPhrase> phrases;  // keywords are one-word phrases
};

// How a question names the people of one role: "assigned to alice", "alice's issues".
struct PersonRole {
  std::string filter;                   // the Entities filter the names go to: "assignees", "authors"
  std::vector<Words> markers;           // the word after one is a name: "assigned to", "by"
  std::vector<Words> possessive_nouns;  // "alice's <noun>" names alice: "issues", "merge requests"
};

struct PeopleRules {
  std::vector<PersonRole> roles;       // in file order; markers do not overlap, the first to start wins
  std::vector<std::string> skip;       // words that are never a name: "me", "priority", ...
  std::vector<std::string> not_after;  // a marker after one of these names nobody: "sorted by"
};

struct EntityRules {
  std::vector<std::string> project_markers;
  std::vector<std::string> project_skip;
  std::vector<Words> dates;                                    // "#" for a number
  std::vector<std::pair<Words, std::string>> statuses;         // words -> normalized status
  std::vector<std::pair<std::string, std::string>> providers;  // word -> provider
  PeopleRules people;
};

struct IntentRules {
  double max_confidence = 0.95;
  Intent fallback;  // stands when no rule matches
  std::string synthesis_hypothesis;
  std::string unknown_intent_hypothesis;  // for intent types the rules do not know
  std::vector<IntentRule> intents;        // in file order, which breaks confidence ties
  EntityRules entities;

  const IntentRule* find(std::string_view type) const;  // nullptr when unknown

  // kNotFound without the asset; kInvalidArgument at the file and line of a malformed rule.
  static core::Result<IntentRules> load(const core::AssetStore& assets,
                                        std::string_view path = kIntentRulesAsset);
};

}  // namespace planfirst::retrieval
