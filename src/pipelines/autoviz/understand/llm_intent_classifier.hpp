// LlmIntentClassifier is the model strategy of seed 002 §1: prompt A (assets/prompts/intent.md) with
// the question and the dataset's columns, answered under the intent contract; the intent selects its
// template from the registry. When the guard gives up (no valid answer after the re-asks, or no
// server) the rules choose, and the choice records why. Immutable; threads may share one. Borrows
// the model, the templates and the rules: they outlive it.
#pragma once

#include <string_view>

#include "pipelines/autoviz/stage_model.hpp"
#include "pipelines/autoviz/understand/intent_classifier.hpp"

namespace planfirst::autoviz {
class TemplateRegistry;

class LlmIntentClassifier final : public IntentClassifier {
 public:
  static constexpr std::string_view kPrompt = "intent";

  LlmIntentClassifier(const StageModel& model, const TemplateRegistry& templates,
                      const IntentClassifier& rules)
      : model_(model), templates_(templates), rules_(rules) {}

  // The rules' error, when they answer and fail.
  core::Result<IntentChoice> classify(std::string_view question,
                                      const data::SchemaProfile& profile) const override;

 private:
  const StageModel& model_;
  const TemplateRegistry& templates_;
  const IntentClassifier& rules_;
};

}  // namespace planfirst::autoviz
