#include "pipelines/analyst/question_router.hpp"

#include <fmt/format.h>

#include "core/join.hpp"

namespace planfirst::analyst {
namespace {

std::string matched_text(const RuleScores& scores, RequestType type) {
  const std::string prefix = std::string(to_string(type)) + ":";
  std::vector<std::string> phrases;
  for (const std::string& match : scores.matched) {
    if (match.rfind(prefix, 0) == 0) phrases.push_back(match.substr(prefix.size()));
  }
  return phrases.empty() ? "none" : core::join(phrases, ", ");
}

// The rules name a status figure ("what is our velocity") and none of the definition phrases
// ("define", "how is ... computed"): a model that reads it as a definition is overruled, since the
// user asks for the figure (whose answer carries the definition).
bool status_over_definition(const RuleScores& scores, RequestType model) {
  return scores.decisive && is_status(scores.best) && model == RequestType::kDataDefinition &&
         matched_text(scores, RequestType::kDataDefinition) == "none";
}

}  // namespace

RouteDecision QuestionRouter::route(std::string_view question) const {
  const std::vector<std::string> words = question_words(question);
  const RuleScores scores = rules_.score(words);
  RouteDecision decision;
  decision.rules_type = scores.best;
  decision.rules_decisive = scores.decisive;
  decision.model = model_.predict(words);
  const std::string model_text =
      fmt::format("model {} p={:.2f}", to_string(decision.model.type), decision.model.probability);
  const std::string rules_text = scores.decisive ? fmt::format("rules {} ({})", to_string(scores.best),
                                                               matched_text(scores, scores.best))
                                                 : std::string("rules undecided");
  if (scope_ != nullptr) decision.project_words = scope_->project_words(words);
  if (scope_ != nullptr && !scores.decisive && decision.project_words.empty()) {
    decision.out_of_scope = true;
    decision.request_type = RequestType::kCasual;
    decision.track = Track::kFast;
    decision.reason =
        fmt::format("router:out_of_scope CASUAL FAST (no project term; {}; {})", rules_text, model_text);
    return decision;
  }
  bool agree = false;
  std::string rule;
  if (scores.decisive && scores.best == decision.model.type) {
    decision.request_type = scores.best;
    agree = true;
    rule = "agree";
  } else if (status_over_definition(scores, decision.model.type)) {
    decision.request_type = scores.best;
    rule = "status_over_definition";
  } else if (decision.model.probability >= kModelConfident) {
    decision.request_type = decision.model.type;
    rule = "model_confident";
  } else if (scores.decisive) {
    decision.request_type = scores.best;
    rule = "rules_decisive";
  } else {
    decision.request_type = decision.model.type;
    rule = "model_fallback";
  }
  decision.track =
      agree && rules_.fast_eligible(decision.request_type, words) ? Track::kFast : Track::kQuality;
  decision.reason = fmt::format("router:{} {} {} ({}; {})", rule, to_string(decision.request_type),
                                to_string(decision.track), rules_text, model_text);
  return decision;
}

}  // namespace planfirst::analyst
