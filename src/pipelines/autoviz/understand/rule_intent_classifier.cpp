#include "pipelines/autoviz/understand/rule_intent_classifier.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/registry_yaml.hpp"
#include "core/stems.hpp"
#include "pipelines/autoviz/contract_labels.hpp"
#include "pipelines/autoviz/understand/template_registry.hpp"

namespace planfirst::autoviz {
namespace {

bool contains_run(const std::vector<std::string>& tokens, const std::vector<std::string>& run) {
  return !run.empty() && std::search(tokens.begin(), tokens.end(), run.begin(), run.end()) != tokens.end();
}

double rounded(double value) {
  return std::round(value * 100) / 100;
}

}  // namespace

core::Json IntentChoice::to_json() const {
  return {{"primary", intent}, {"confidence", confidence}};
}

core::Result<RuleIntentClassifier> RuleIntentClassifier::load(const core::AssetStore& assets,
                                                              const TemplateRegistry& templates) {
  core::Result<std::vector<std::string>> known = contract_labels(assets, kIntentContract, kIntentPointer);
  if (!known) return known.error();
  core::Result<core::RegistryYaml> file = core::RegistryYaml::load(assets, kPath);
  if (!file) return file.error();
  auto check_intent = [&](const YAML::Node& node, const std::string& intent) -> core::Result<void> {
    if (std::ranges::find(*known, intent) == known->end()) {
      return file->fault(node, "intent " + intent, "is not in the intent contract's closed set");
    }
    if (templates.for_intent(intent) == nullptr)
      return file->fault(node, "intent " + intent, "has no template");
    return core::ok();
  };
  return file->guarded<RuleIntentClassifier>([&]() -> core::Result<RuleIntentClassifier> {
    RuleIntentClassifier classifier(templates);
    if (core::Result<int> version = file->version(); !version) return version.error();
    core::Result<std::string> default_intent = file->scalar(file->root(), "default", "registry");
    if (!default_intent) return default_intent.error();
    if (core::Result<void> ok = check_intent(core::yaml_child(file->root(), "default"), *default_intent); !ok)
      return ok.error();
    classifier.default_intent_ = std::move(*default_intent);
    core::Result<std::string> confidence = file->scalar(file->root(), "default_confidence", "registry");
    if (!confidence) return confidence.error();
    const char* end = confidence->data() + confidence->size();
    if (auto [ptr, ec] = std::from_chars(confidence->data(), end, classifier.default_confidence_);
        ec != std::errc() || ptr != end || classifier.default_confidence_ < 0 ||
        classifier.default_confidence_ > 1) {
      return file->fault(core::yaml_child(file->root(), "default_confidence"), "registry",
                         "'default_confidence' must be a number in 0..1");
    }

    core::Result<YAML::Node> rules = file->sequence(file->root(), "rules", "registry");
    if (!rules) return rules.error();
    core::Stemmer stemmer;
    for (const YAML::Node& node : *rules) {
      core::Result<std::string> intent = file->scalar(node, "intent", "rule");
      if (!intent) return intent.error();
      const std::string context = "rule " + *intent;
      if (core::Result<void> ok = check_intent(node, *intent); !ok) return ok.error();
      Rule rule;
      rule.intent = std::move(*intent);
      core::Result<std::string> weight = file->scalar(node, "weight", context);
      if (!weight) return weight.error();
      const char* weight_end = weight->data() + weight->size();
      if (auto [ptr, ec] = std::from_chars(weight->data(), weight_end, rule.weight);
          ec != std::errc() || ptr != weight_end || rule.weight < 1) {
        return file->fault(core::yaml_child(node, "weight"), context, "'weight' must be a positive integer");
      }
      core::Result<std::vector<std::string>> phrases = file->names(node, "phrases", context);
      if (!phrases) return phrases.error();
      for (std::string& text : *phrases) {
        std::vector<std::string> stems = core::stems_of_text(text, stemmer);
        if (stems.empty())
          return file->fault(core::yaml_child(node, "phrases"), context,
                             "phrase '" + text + "' has no words");
        rule.phrases.push_back({std::move(text), std::move(stems)});
      }
      classifier.rules_.push_back(std::move(rule));
    }
    return classifier;
  });
}

core::Result<IntentChoice> RuleIntentClassifier::classify(std::string_view question,
                                                          const data::SchemaProfile&) const {
  core::Stemmer stemmer;  // not thread-safe, so one per call
  const std::vector<std::string> tokens = core::stems_of_text(question, stemmer);
  IntentChoice choice;
  int best = 0;
  int runner_up = 0;
  for (const Rule& rule : rules_) {
    int score = 0;
    std::vector<std::string> evidence;
    for (const Phrase& phrase : rule.phrases) {
      if (!contains_run(tokens, phrase.stems)) continue;
      score += rule.weight;
      evidence.push_back(phrase.text);
    }
    if (score > best) {
      runner_up = best;
      best = score;
      choice.intent = rule.intent;
      choice.evidence = std::move(evidence);
    } else if (score > runner_up) {
      runner_up = score;
    }
  }
  if (best == 0) {
    choice.intent = default_intent_;
    choice.confidence = default_confidence_;
  } else {
    choice.confidence = rounded(0.5 + 0.4 * static_cast<double>(best - runner_up) / best);
  }
  choice.template_name = templates_->for_intent(choice.intent)->name;
  return choice;
}

}  // namespace planfirst::autoviz
