#include "pipelines/autoviz/understand/llm_intent_classifier.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "pipelines/autoviz/understand/template_registry.hpp"

namespace planfirst::autoviz {

core::Result<IntentChoice> LlmIntentClassifier::classify(std::string_view question,
                                                         const data::SchemaProfile& profile) const {
  const llm::ReplyCheck has_template = [this](const core::Json& reply) {
    std::vector<contracts::Violation> faults;
    const core::Json primary = reply.value("primary", core::Json());
    if (!primary.is_string() || templates_.for_intent(primary.get<std::string>()) == nullptr) {
      faults.push_back(
          {"/primary", "template", "no plan template is registered for intent " + primary.dump()});
    }
    return faults;
  };
  StageModel::Answer answer = model_.ask(
      kPrompt, {{"question", std::string(question)}, {"dataset_schema", dataset_schema_text(profile)}},
      has_template);
  if (!answer.json) {
    core::Result<IntentChoice> choice = rules_.classify(question, profile);
    if (choice) choice->strategy = std::move(answer.record);
    return choice;
  }
  IntentChoice choice;
  choice.intent = (*answer.json)["primary"].get<std::string>();
  choice.confidence = answer.json->value("confidence", 0.0);
  choice.template_name = templates_.for_intent(choice.intent)->name;
  choice.strategy = std::move(answer.record);
  return choice;
}

}  // namespace planfirst::autoviz
