#include "pipelines/retrieval/reasoning_structure.hpp"

#include <algorithm>
#include <string>

namespace planfirst::retrieval {

std::vector<Hypothesis> build_hypotheses(const std::vector<Intent>& intents, const IntentRules& rules) {
  std::vector<Hypothesis> hypotheses;
  if (intents.empty()) return hypotheses;
  hypotheses.reserve(intents.size() + 1);
  for (std::size_t i = 0; i < intents.size(); ++i) {
    const IntentRule* rule = rules.find(intents[i].type);
    Hypothesis hypothesis{
        "h" + std::to_string(i), rule != nullptr ? rule->hypothesis : rules.unknown_intent_hypothesis, {}};
    if (rule != nullptr) {
      for (std::size_t j = 0; j < intents.size(); ++j) {
        const bool needed = std::find(rule->depends_on.begin(), rule->depends_on.end(), intents[j].type) !=
                            rule->depends_on.end();
        if (j != i && needed) hypothesis.dependencies.push_back("h" + std::to_string(j));
      }
    }
    hypotheses.push_back(std::move(hypothesis));
  }
  Hypothesis synthesis{"h" + std::to_string(intents.size()), rules.synthesis_hypothesis, {}};
  for (const Hypothesis& hypothesis : hypotheses) synthesis.dependencies.push_back(hypothesis.id);
  hypotheses.push_back(std::move(synthesis));
  return hypotheses;
}

}  // namespace planfirst::retrieval
