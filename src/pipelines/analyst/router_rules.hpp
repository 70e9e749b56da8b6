// RouterRules is the rule half of the router (seed 000 §5): phrases per request type, read from
// assets/analyst/router_rules.json, scored against a question's words, and the FAST-track rule that
// file states. Immutable after load(); threads may share one.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/asset_store.hpp"
#include "core/result.hpp"
#include "pipelines/analyst/request_type.hpp"

namespace planfirst::analyst {

inline constexpr std::string_view kRouterRulesAsset = "analyst/router_rules.json";

struct RuleScores {
  std::array<int, kAllRequestTypes.size()> scores{};  // by the order of kAllRequestTypes
  std::vector<std::string> matched;                   // "STATUS_METRIC:completion rate", in rule order
  RequestType best = RequestType::kKnowledgeQa;       // the highest score; ties go to the earlier type
  bool decisive = false;  // some phrase matched and the best score beats every other type's
  int score(RequestType type) const { return scores[static_cast<std::size_t>(type)]; }
};

class RouterRules {
 public:
  // kInvalidArgument naming the asset and the type or phrase at fault.
  static core::Result<RouterRules> load(const core::AssetStore& assets);
  static core::Result<RouterRules> parse(std::string_view json_text, std::string_view origin);

  RuleScores score(std::string_view question) const;
  // The same for a question's question_words().
  RuleScores score(const std::vector<std::string>& words) const;
  // FAST when `type` is one of the file's fast_track types and the question, as its question_words(),
  // has at most max_words words.
  bool fast_eligible(RequestType type, const std::vector<std::string>& words) const;

  struct Word {
    enum class Kind { kLiteral, kPrefix, kAny, kGap } kind = Kind::kLiteral;
    std::string text;
  };
  struct Phrase {
    std::string text;         // as written, for route reasons
    std::vector<Word> words;  // at least one literal
    int literal_count = 0;
  };

 private:
  std::array<std::vector<Phrase>, kAllRequestTypes.size()> phrases_;
  std::vector<RequestType> fast_types_;
  std::size_t fast_max_words_ = 12;
};

// The words routing sees: core::tokenize (lower-case runs of letters and digits) of the question.
std::vector<std::string> question_words(std::string_view question);

}  // namespace planfirst::analyst
