#include "pipelines/analyst/rule_analyst.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "pipelines/analyst/router_rules.hpp"
#include "pipelines/analyst/source_policy.hpp"

namespace planfirst::analyst {

core::Result<RuleAnalyst> RuleAnalyst::load(const core::AssetStore& assets) {
  core::Result<std::string> text = assets.read(kAnalystRulesAsset);
  if (!text) return text.error();
  const std::string origin = assets.origin(kAnalystRulesAsset);
  const core::Json json = core::Json::parse(*text, nullptr, false);
  if (json.is_discarded() || !json.is_object()) return core::invalid_argument("not a JSON object", origin);
  RuleAnalyst rules;
  const core::Json prefixes = json.value("intent_prefixes", core::Json::object());
  for (const auto& [name, prefix] : prefixes.items()) {
    std::optional<RequestType> type = parse_request_type(name);
    if (!type || !prefix.is_string())
      return core::invalid_argument("bad intent prefix " + name, origin + "#/intent_prefixes");
    rules.prefixes_[*type] = prefix.get<std::string>();
  }
  for (const core::Json& word : json.value("intent_stopwords", core::Json::array())) {
    if (word.is_string()) rules.stopwords_.insert(word.get<std::string>());
  }
  rules.max_words_ = json.value("intent_max_words", std::size_t{4});
  const core::Json clarifications = json.value("clarifications", core::Json::object());
  for (const auto& [name, rule] : clarifications.items()) {
    std::optional<RequestType> type = parse_request_type(name);
    const std::string where = origin + "#/clarifications/" + name;
    if (!type || !rule.is_object() || !rule.contains("question") || !rule["question"].is_string()) {
      return core::invalid_argument("a clarification needs a known request type and a question", where);
    }
    Clarification clarification;
    clarification.question = rule["question"].get<std::string>();
    for (const core::Json& word : rule.value("unless_any", core::Json::array())) {
      if (word.is_string()) clarification.unless_any.insert(word.get<std::string>());
    }
    rules.clarifications_[*type] = std::move(clarification);
  }
  return rules;
}

std::string RuleAnalyst::intent_label(const std::vector<std::string>& words, RequestType type) const {
  auto prefix = prefixes_.find(type);
  std::string label = prefix != prefixes_.end() ? prefix->second : "answer";
  std::size_t kept = 0;
  for (const std::string& word : words) {
    if (kept == max_words_) break;
    if (stopwords_.count(word) != 0 || label == word || label.ends_with("_" + word) ||
        std::find_if(word.begin(), word.end(), [](char c) {
          return !(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9');
        }) != word.end()) {
      continue;
    }
    label += "_" + word;
    ++kept;
  }
  return label;
}

AnalystPlan RuleAnalyst::plan(std::string_view user_query, RequestType type, Track track,
                              bool may_ask) const {
  AnalystPlan plan;
  const std::vector<std::string> words = question_words(user_query);
  plan.intent = intent_label(words, type);
  plan.request_type = type;
  plan.track = track;
  plan.required_sources = planned_sources_by_type(type);
  plan.expected_output_schema = std::string(expected_output_schema_for(type));
  auto clarification = clarifications_.find(type);
  if (may_ask && clarification != clarifications_.end()) {
    const bool named = std::any_of(words.begin(), words.end(), [&](const std::string& word) {
      return clarification->second.unless_any.count(word) != 0;
    });
    if (!named) {
      plan.missing_info_questions = {clarification->second.question};
      plan.track = Track::kQuality;  // the analyst promotes a plan that must ask
      plan.expected_output_schema = "clarification_v1";
    }
  }
  return plan;
}

}  // namespace planfirst::analyst
