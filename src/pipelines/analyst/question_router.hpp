// QuestionRouter is seed 000 §5's router, "rule + model": it scores the question with RouterRules and
// asks RouterModel, then combines them (first rule that applies wins):
//   1. the rules are decisive and the model agrees            -> that type
//   2. the rules are decisive on a STATUS_* type, match no DATA_DEFINITION phrase, and the model
//      says DATA_DEFINITION ("what is our velocity?" asks for the figure) -> the rules' type
//   3. the model's probability is at least kModelConfident     -> the model's type
//   4. the rules are decisive                                  -> the rules' type
//   5. otherwise                                               -> the model's type
// Before them, with a ProjectScope: a question none of whose words names the project and that the
// rules do not match decisively is out of scope -> CASUAL, FAST (no retrieval), whatever the model says.
// Track: FAST when rule 1 applied and RouterRules::fast_eligible (CASUAL, STATUS_METRIC or
// STATUS_LIST and at most 12 words); QUALITY otherwise. The reason names the rule, the matched
// phrases and the model's probability. Immutable; threads may share one; borrows its parts.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pipelines/analyst/project_scope.hpp"
#include "pipelines/analyst/request_type.hpp"
#include "pipelines/analyst/router_model.hpp"
#include "pipelines/analyst/router_rules.hpp"

namespace planfirst::analyst {

inline constexpr double kModelConfident = 0.6;

struct RouteDecision {
  RequestType request_type = RequestType::kKnowledgeQa;
  Track track = Track::kQuality;
  std::string reason;  // e.g. "router:agree STATUS_METRIC (rules: completion rate; model p=0.97)"
  RequestType rules_type = RequestType::kKnowledgeQa;
  bool rules_decisive = false;
  ModelPrediction model;
  bool out_of_scope = false;               // names nothing of the project, rules undecided
  std::vector<std::string> project_words;  // the question's words that name the project
};

class QuestionRouter {
 public:
  // `scope` may be null: no question is then out of scope.
  QuestionRouter(const RouterRules& rules, const RouterModel& model, const ProjectScope* scope = nullptr)
      : rules_(rules), model_(model), scope_(scope) {}

  RouteDecision route(std::string_view question) const;

 private:
  const RouterRules& rules_;
  const RouterModel& model_;
  const ProjectScope* scope_;
};

}  // namespace planfirst::analyst
