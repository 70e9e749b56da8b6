// EntityExtractor reads the entities seed 001's filters use from a question's words: projects
// (after or before a marker word, or a group/name path), dates (relative phrases kept as written,
// ISO dates), statuses (normalized) and providers. Values keep their order of appearance, without
// repeats; projects keep their case. Immutable; threads may share one.
#pragma once

#include "pipelines/retrieval/intent_rules.hpp"
#include "pipelines/retrieval/reasoning.hpp"
#include "pipelines/retrieval/word_match.hpp"

namespace planfirst::retrieval {

class EntityExtractor {
 public:
  // REQUIRES: `rules` outlives the extractor.
  explicit EntityExtractor(const EntityRules& rules) : rules_(rules) {}

  Entities extract(const QuestionWords& words) const;

 private:
  const EntityRules& rules_;
};

}  // namespace planfirst::retrieval
