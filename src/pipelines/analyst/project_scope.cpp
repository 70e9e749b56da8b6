#include "pipelines/analyst/project_scope.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/json.hpp"
#include "core/json_member.hpp"
#include "core/stemmer.hpp"
#include "pipelines/analyst/router_rules.hpp"

namespace planfirst::analyst {
namespace {

// A word that can name nothing by itself: a bare number or a single letter.
bool names_nothing(const std::string& word) {
  return word.size() < 2 ||
         std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Calls `use` with each text of the list at `key`; kInvalidArgument naming the list or the item.
template <typename Use>
core::Result<void> for_each_text(const core::Json& json, const char* key, const std::string& origin,
                                 Use use) {
  const core::Json& list = core::member_or_null(json, key);
  if (!list.is_array()) return core::invalid_argument("expected a list of texts", origin + "#/" + key);
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!list[i].is_string())
      return core::invalid_argument("expected a text", origin + "#/" + key + "/" + std::to_string(i));
    use(list[i].get<std::string>());
  }
  return core::ok();
}

}  // namespace

core::Result<ProjectScope> ProjectScope::load(const core::AssetStore& assets,
                                              const LabeledQuestions& questions) {
  core::Result<std::string> text = assets.read(kProjectScopeAsset);
  if (!text) return text.error();
  return parse(*text, assets.origin(kProjectScopeAsset), questions.train);
}

core::Result<ProjectScope> ProjectScope::parse(std::string_view json_text, std::string_view origin,
                                               const std::vector<LabeledQuestion>& training) {
  const std::string where(origin);
  const core::Json json = core::Json::parse(json_text, nullptr, false);
  if (json.is_discarded() || !json.is_object()) return core::invalid_argument("not a JSON object", where);
  if (!json.contains("answer") || !json["answer"].is_string() || json["answer"].get<std::string>().empty())
    return core::invalid_argument("expected the out-of-scope answer as text", where + "#/answer");
  ProjectScope scope;
  scope.answer_ = json["answer"].get<std::string>();
  core::Result<void> generic = for_each_text(json, "generic_words", where, [&](const std::string& text) {
    for (std::string& word : question_words(text)) scope.generic_.insert(std::move(word));
  });
  if (!generic) return generic.error();
  core::Stemmer stemmer;
  auto add = [&](std::string_view text) {
    for (const std::string& word : question_words(text)) {
      if (!names_nothing(word) && scope.generic_.count(word) == 0) scope.stems_.insert(stemmer.stem(word));
    }
  };
  core::Result<void> terms = for_each_text(json, "terms", where, add);
  if (!terms) return terms.error();
  for (const LabeledQuestion& question : training) {
    if (question.type != RequestType::kCasual) add(question.question);
  }
  return scope;
}

std::vector<std::string> ProjectScope::project_words(const std::vector<std::string>& words) const {
  core::Stemmer stemmer;  // one per call: a Stemmer is not thread-safe, a scope is shared
  std::vector<std::string> named;
  for (const std::string& word : words) {
    if (names_nothing(word) || generic_.count(word) != 0) continue;
    if (stems_.count(stemmer.stem(word)) != 0) named.push_back(word);
  }
  return named;
}

Answer ProjectScope::out_of_scope_answer() const {
  return Answer{"answer_v1_markdown", "markdown", answer_, {}, "rules", ""};
}

}  // namespace planfirst::analyst
