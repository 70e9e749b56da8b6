// build_hypotheses is seed 001's reasoning structure: one hypothesis per detected intent, in intent
// order ("h0", "h1", ...), described by IntentRules, depending on the hypotheses of the intents its
// rule lists under depends_on when those were detected too; then one synthesis hypothesis that
// depends on all of them. A pure function.
#pragma once

#include <vector>

#include "pipelines/retrieval/intent_rules.hpp"
#include "pipelines/retrieval/reasoning.hpp"

namespace planfirst::retrieval {

std::vector<Hypothesis> build_hypotheses(const std::vector<Intent>& intents, const IntentRules& rules);

}  // namespace planfirst::retrieval
