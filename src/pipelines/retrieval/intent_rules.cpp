#include "pipelines/retrieval/intent_rules.hpp"

#include "core/registry_yaml.hpp"

namespace planfirst::retrieval {
namespace {

core::Result<std::vector<WeightedPhrase>> weighted(const core::RegistryYaml& yaml, const YAML::Node& node,
                                                   std::string_view what) {
  core::Result<std::vector<std::pair<std::string, std::string>>> entries = yaml.pairs(node, what);
  if (!entries) return entries.error();
  std::vector<WeightedPhrase> phrases;
  for (const auto& entry : node) {
    core::Result<double> weight = yaml.number(entry.second, std::string(what) + " " + entry.first.Scalar());
    if (!weight) return weight.error();
    if (*weight <= 0.0 || *weight > 1.0)
      return yaml.fault(entry.second, std::string(what) + " weights must be in (0, 1]");
    phrases.push_back({split_phrase(entry.first.Scalar()), *weight});
  }
  return phrases;
}

core::Result<IntentRule> intent_rule(const core::RegistryYaml& yaml, const YAML::Node& node) {
  IntentRule rule;
  core::Result<std::string> type = yaml.text(core::yaml_child(node, "type"), "intent type");
  if (!type) return type.error();
  core::Result<std::string> hypothesis =
      yaml.text(core::yaml_child(node, "hypothesis"), "intent " + *type + " hypothesis");
  if (!hypothesis) return hypothesis.error();
  core::Result<std::vector<std::string>> depends =
      yaml.texts(core::yaml_child(node, "depends_on"), "depends_on");
  if (!depends) return depends.error();
  for (const char* key : {"keywords", "phrases"}) {
    core::Result<std::vector<WeightedPhrase>> phrases =
        weighted(yaml, core::yaml_child(node, key), "intent " + *type + " " + key);
    if (!phrases) return phrases.error();
    rule.phrases.insert(rule.phrases.end(), phrases->begin(), phrases->end());
  }
  rule.type = std::move(*type);
  rule.hypothesis = std::move(*hypothesis);
  rule.depends_on = std::move(*depends);
  return rule;
}

core::Result<std::vector<Words>> phrases(const core::RegistryYaml& yaml, const YAML::Node& node,
                                         const std::string& what) {
  core::Result<std::vector<std::string>> texts = yaml.texts(node, what);
  if (!texts) return texts.error();
  std::vector<Words> words;
  for (const std::string& text : *texts) words.push_back(split_phrase(text));
  return words;
}

core::Result<PersonRole> person_role(const core::RegistryYaml& yaml, const YAML::Node& node) {
  core::Result<std::string> filter = yaml.text(core::yaml_child(node, "filter"), "people role filter");
  if (!filter) return filter.error();
  if (Entities{}.values(*filter) == nullptr) {
    return yaml.fault(node,
                      "people role filter " + *filter + " is no entity filter (assignees, authors, ...)");
  }
  const std::string what = "people role " + *filter;
  core::Result<std::vector<Words>> markers =
      phrases(yaml, core::yaml_child(node, "markers"), what + " markers");
  if (!markers) return markers.error();
  core::Result<std::vector<Words>> nouns =
      phrases(yaml, core::yaml_child(node, "possessive_nouns"), what + " possessive_nouns");
  if (!nouns) return nouns.error();
  return PersonRole{std::move(*filter), std::move(*markers), std::move(*nouns)};
}

core::Result<PeopleRules> people_rules(const core::RegistryYaml& yaml, const YAML::Node& node) {
  PeopleRules rules;
  const YAML::Node roles = core::yaml_child(node, "roles");
  if (roles.IsDefined() && !roles.IsNull() && !roles.IsSequence()) {
    return yaml.fault(roles, "people roles must be a list");
  }
  if (roles.IsSequence()) {
    for (const YAML::Node& role : roles) {
      core::Result<PersonRole> read = person_role(yaml, role);
      if (!read) return read.error();
      rules.roles.push_back(std::move(*read));
    }
  }
  core::Result<std::vector<std::string>> skip = yaml.texts(core::yaml_child(node, "skip"), "people skip");
  if (!skip) return skip.error();
  core::Result<std::vector<std::string>> not_after =
      yaml.texts(core::yaml_child(node, "not_after"), "people not_after");
  if (!not_after) return not_after.error();
  rules.skip = std::move(*skip);
  rules.not_after = std::move(*not_after);
  return rules;
}

core::Result<EntityRules> entity_rules(const core::RegistryYaml& yaml, const YAML::Node& node) {
  EntityRules rules;
  core::Result<std::vector<std::string>> markers =
      yaml.texts(core::yaml_child(node, "project_markers"), "project_markers");
  if (!markers) return markers.error();
  core::Result<std::vector<std::string>> skip =
      yaml.texts(core::yaml_child(node, "project_skip"), "project_skip");
  if (!skip) return skip.error();
  core::Result<std::vector<Words>> dates = phrases(yaml, core::yaml_child(node, "dates"), "dates");
  if (!dates) return dates.error();
  core::Result<std::vector<std::pair<std::string, std::string>>> statuses =
      yaml.pairs(core::yaml_child(node, "statuses"), "statuses");
  if (!statuses) return statuses.error();
  core::Result<std::vector<std::pair<std::string, std::string>>> providers =
      yaml.pairs(core::yaml_child(node, "providers"), "providers");
  if (!providers) return providers.error();
  core::Result<PeopleRules> people = people_rules(yaml, core::yaml_child(node, "people"));
  if (!people) return people.error();
  rules.project_markers = std::move(*markers);
  rules.project_skip = std::move(*skip);
  rules.dates = std::move(*dates);
  for (auto& [words, status] : *statuses) rules.statuses.emplace_back(split_phrase(words), std::move(status));
  rules.providers = std::move(*providers);
  rules.people = std::move(*people);
  return rules;
}

core::Result<IntentRules> read_rules(const core::RegistryYaml& yaml) {
  const YAML::Node& root = yaml.root();
  IntentRules rules;
  core::Result<double> cap = yaml.number(core::yaml_child(root, "max_confidence"), "max_confidence");
  if (!cap) return cap.error();
  const YAML::Node fallback = core::yaml_child(root, "fallback");
  core::Result<std::string> fallback_type =
      yaml.text(core::yaml_child(fallback, "intent"), "fallback intent");
  if (!fallback_type) return fallback_type.error();
  core::Result<double> fallback_confidence =
      yaml.number(core::yaml_child(fallback, "confidence"), "fallback confidence");
  if (!fallback_confidence) return fallback_confidence.error();
  core::Result<std::string> synthesis =
      yaml.text(core::yaml_child(root, "synthesis_hypothesis"), "synthesis_hypothesis");
  if (!synthesis) return synthesis.error();
  core::Result<std::string> unknown =
      yaml.text(core::yaml_child(root, "unknown_intent_hypothesis"), "unknown_intent_hypothesis");
  if (!unknown) return unknown.error();
  const YAML::Node intents = core::yaml_child(root, "intents");
  if (!intents.IsSequence()) return yaml.fault(intents, "intents must be a list");
  for (const YAML::Node& node : intents) {
    core::Result<IntentRule> rule = intent_rule(yaml, node);
    if (!rule) return rule.error();
    if (rules.find(rule->type) != nullptr)
      return yaml.fault(node, "intent " + rule->type + " is listed twice");
    rules.intents.push_back(std::move(*rule));
  }
  core::Result<EntityRules> entities = entity_rules(yaml, core::yaml_child(root, "entities"));
  if (!entities) return entities.error();
  rules.max_confidence = *cap;
  rules.fallback = Intent{std::move(*fallback_type), *fallback_confidence};
  rules.synthesis_hypothesis = std::move(*synthesis);
  rules.unknown_intent_hypothesis = std::move(*unknown);
  rules.entities = std::move(*entities);
  return rules;
}

}  // namespace

const IntentRule* IntentRules::find(std::string_view type) const {
  for (const IntentRule& rule : intents) {
    if (rule.type == type) return &rule;
  }
  return nullptr;
}

core::Result<IntentRules> IntentRules::load(const core::AssetStore& assets, std::string_view path) {
  core::Result<core::RegistryYaml> yaml = core::RegistryYaml::load(assets, path);
  if (!yaml) return yaml.error();
  return yaml->guarded<IntentRules>([&] { return read_rules(*yaml); });
}

}  // namespace planfirst::retrieval
