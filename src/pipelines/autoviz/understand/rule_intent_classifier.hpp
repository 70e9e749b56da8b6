// RuleIntentClassifier chooses an intent from weighted phrases in assets/autoviz/intents.yaml:
// question and phrases are tokenized and stemmed, each phrase found as a run of the question's
// tokens adds its intent's weight once, the highest score wins and the earlier rule breaks a tie;
// with no match the file's default intent stands. Confidence is 0.5 + 0.4 x the winner's margin
// over the runner-up (0.9 when alone), rounded to 0.01; the default gets the file's
// default_confidence. Deterministic. Immutable after load(); threads may share one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/asset_store.hpp"
#include "core/result.hpp"
#include "pipelines/autoviz/understand/intent_classifier.hpp"

namespace planfirst::autoviz {
class TemplateRegistry;

class RuleIntentClassifier final : public IntentClassifier {
 public:
  static constexpr std::string_view kPath = "autoviz/intents.yaml";

  // Reads kPath and the intent contract. kInvalidArgument with "<origin>:<line>" when a rule or the
  // default names an intent outside the contract's closed set, or an intent has no template in
  // `templates`. REQUIRES: `templates` outlives the classifier.
  static core::Result<RuleIntentClassifier> load(const core::AssetStore& assets,
                                                 const TemplateRegistry& templates);

  // Never fails; reads only the question.
  core::Result<IntentChoice> classify(std::string_view question,
                                      const data::SchemaProfile& profile) const override;

 private:
  struct Phrase {
    std::string text;                // as written, reported as evidence
    std::vector<std::string> stems;  // tokenized and stemmed
  };
  struct Rule {
    std::string intent;
    int weight = 1;
    std::vector<Phrase> phrases;
  };

  explicit RuleIntentClassifier(const TemplateRegistry& templates) : templates_(&templates) {}

  const TemplateRegistry* templates_;  // never null
  std::vector<Rule> rules_;            // file order: earlier wins ties
  std::string default_intent_;
  double default_confidence_ = 0;
};

}  // namespace planfirst::autoviz
