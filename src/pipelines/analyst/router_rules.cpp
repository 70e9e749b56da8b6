#include "pipelines/analyst/router_rules.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/json.hpp"
#include "core/tokenizer.hpp"

namespace planfirst::analyst {
namespace {

constexpr std::size_t kMaxGap = 4;

bool matches_at(const std::vector<RouterRules::Word>& pattern, std::size_t p,
                const std::vector<std::string>& words, std::size_t w) {
  using Kind = RouterRules::Word::Kind;
  if (p == pattern.size()) return true;
  const RouterRules::Word& word = pattern[p];
  if (word.kind == Kind::kGap) {
    for (std::size_t skip = 0; skip <= kMaxGap && w + skip <= words.size(); ++skip) {
      if (matches_at(pattern, p + 1, words, w + skip)) return true;
    }
    return false;
  }
  if (w >= words.size()) return false;
  const bool ok = word.kind == Kind::kAny || (word.kind == Kind::kLiteral && words[w] == word.text) ||
                  (word.kind == Kind::kPrefix && words[w].rfind(word.text, 0) == 0);
  return ok && matches_at(pattern, p + 1, words, w + 1);
}

bool phrase_matches(const RouterRules::Phrase& phrase, const std::vector<std::string>& words) {
  for (std::size_t start = 0; start < words.size(); ++start) {
    if (matches_at(phrase.words, 0, words, start)) return true;
  }
  return false;
}

core::Result<RouterRules::Phrase> parse_phrase(const std::string& text, const std::string& where) {
  using Kind = RouterRules::Word::Kind;
  RouterRules::Phrase phrase;
  phrase.text = text;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find(' ', begin);
    if (end == std::string::npos) end = text.size();
    const std::string piece = text.substr(begin, end - begin);
    begin = end + 1;
    if (piece.empty()) continue;
    if (piece == "?") {
      phrase.words.push_back({Kind::kAny, ""});
    } else if (piece == "...") {
      phrase.words.push_back({Kind::kGap, ""});
    } else if (piece.back() == '*') {
      std::vector<std::string> stem = core::tokenize(piece.substr(0, piece.size() - 1));
      if (stem.size() != 1)
        return core::invalid_argument("a prefix word must be one word: \"" + piece + "\"", where);
      phrase.words.push_back({Kind::kPrefix, stem.front()});
      ++phrase.literal_count;
    } else {
      for (std::string& word : core::tokenize(piece)) {
        phrase.words.push_back({Kind::kLiteral, std::move(word)});
        ++phrase.literal_count;
      }
    }
  }
  if (phrase.literal_count == 0) return core::invalid_argument("phrase \"" + text + "\" has no word", where);
  return phrase;
}

}  // namespace

std::vector<std::string> question_words(std::string_view question) {
  return core::tokenize(question);
}

core::Result<RouterRules> RouterRules::load(const core::AssetStore& assets) {
  core::Result<std::string> text = assets.read(kRouterRulesAsset);
  if (!text) return text.error();
  return parse(*text, assets.origin(kRouterRulesAsset));
}

core::Result<RouterRules> RouterRules::parse(std::string_view json_text, std::string_view origin) {
  const core::Json json = core::Json::parse(json_text, nullptr, false);
  const std::string where(origin);
  if (json.is_discarded() || !json.is_object()) return core::invalid_argument("not a JSON object", where);
  if (!json.contains("types") || !json["types"].is_object())
    return core::invalid_argument("missing \"types\"", where);
  RouterRules rules;
  for (const auto& [name, phrases] : json["types"].items()) {
    std::optional<RequestType> type = parse_request_type(name);
    if (!type) return core::invalid_argument("unknown request type \"" + name + "\"", where + "#/types");
    if (!phrases.is_array())
      return core::invalid_argument("phrases must be a list", where + "#/types/" + name);
    for (const core::Json& phrase : phrases) {
      if (!phrase.is_string())
        return core::invalid_argument("a phrase must be a string", where + "#/types/" + name);
      core::Result<Phrase> parsed = parse_phrase(phrase.get<std::string>(), where + "#/types/" + name);
      if (!parsed) return parsed.error();
      rules.phrases_[static_cast<std::size_t>(*type)].push_back(std::move(*parsed));
    }
  }
  const core::Json fast = json.value("fast_track", core::Json::object());
  for (const core::Json& name : fast.value("types", core::Json::array())) {
    std::optional<RequestType> type =
        name.is_string() ? parse_request_type(name.get<std::string>()) : std::nullopt;
    if (!type)
      return core::invalid_argument("unknown request type " + name.dump(), where + "#/fast_track/types");
    rules.fast_types_.push_back(*type);
  }
  rules.fast_max_words_ = fast.value("max_words", std::size_t{12});
  return rules;
}

RuleScores RouterRules::score(std::string_view question) const {
  return score(question_words(question));
}

RuleScores RouterRules::score(const std::vector<std::string>& words) const {
  RuleScores result;
  for (RequestType type : kAllRequestTypes) {
    const std::size_t index = static_cast<std::size_t>(type);
    for (const Phrase& phrase : phrases_[index]) {
      if (!phrase_matches(phrase, words)) continue;
      result.scores[index] += phrase.literal_count;
      result.matched.push_back(std::string(to_string(type)) + ":" + phrase.text);
    }
  }
  int best = 0;
  int second = 0;
  for (RequestType type : kAllRequestTypes) {
    const int score = result.score(type);
    if (score > best) {
      second = best;
      best = score;
      result.best = type;
    } else if (score > second) {
      second = score;
    }
  }
  result.decisive = best > 0 && best > second;
  return result;
}

bool RouterRules::fast_eligible(RequestType type, const std::vector<std::string>& words) const {
  return std::find(fast_types_.begin(), fast_types_.end(), type) != fast_types_.end() &&
         words.size() <= fast_max_words_;
}

}  // namespace planfirst::analyst
