#include "pipelines/analyst/analyst_nodes.hpp"

#include <nlohmann/json.hpp>

#include "core/json_member.hpp"
#include "core/reference_day.hpp"
#include "pipelines/analyst/source_policy.hpp"
#include "sources/evidence_json.hpp"

namespace planfirst::analyst {
namespace {

using core::Json;
using graph::Delta;
using graph::NodeContext;
using graph::StateView;
using graph::worker_delta;

constexpr std::size_t kEvidenceLimit = 20;

core::Result<std::string> user_query(const StateView& state) {
  const std::string query = state.string_or("user_query", "");
  if (query.find_first_not_of(" \t\r\n") == std::string::npos) {
    return core::invalid_argument("the state has no user_query to plan for", "/user_query");
  }
  return query;
}

RouterChoice router_choice(const StateView& state) {
  RouterChoice choice;
  choice.request_type =
      parse_request_type(state.string_or("request_type", "KNOWLEDGE_QA")).value_or(RequestType::kKnowledgeQa);
  choice.track = parse_track(state.string_or("track", "QUALITY")).value_or(Track::kQuality);
  // The router's own reason: route_reason also carries the analyst's notes once a plan was made.
  const Json& reason = core::member_or_null(state.member_or_null("router"), "reason");
  choice.reason = reason.is_string() ? reason.get<std::string>()
                                     : state.string_or("route_reason", "router:none (no router ran)");
  choice.out_of_scope = core::member_or_null(state.member_or_null("router"), "out_of_scope") == Json(true);
  return choice;
}

core::Result<AnalystPlan> state_plan(const StateView& state) {
  if (!state.has("analyst_plan")) {
    return core::failed_precondition("no validated analyst_plan in the state: run analyst_plan first",
                                     "/analyst_plan");
  }
  core::Result<AnalystPlan> plan = plan_from_json(state.member_or_null("analyst_plan"));
  if (!plan)
    return core::failed_precondition("analyst_plan is not a plan: " + plan.error().describe(),
                                     "/analyst_plan");
  return plan;
}

bool clarified_before(const StateView& state) {
  const Json& clarifications = state.member_or_null("clarifications");
  return clarifications.is_array() && !clarifications.empty();
}

// The plan the configured strategy proposes, through the output guard. An out-of-scope question is
// planned by the rules alone (CASUAL, intent out_of_scope): there is nothing for a model to refine.
PlanDecision make_plan(const AnalystServices& services, const std::string& query, const RouterChoice& router,
                       bool may_ask) {
  AnalystPlan rules_plan = services.rule_analyst->plan(query, router.request_type, router.track, may_ask);
  if (router.out_of_scope) {
    rules_plan.intent = std::string(kOutOfScopeIntent);
    return services.guard->accept(to_json(rules_plan), router, "rules");
  }
  if (!services.llm_analyst) return services.guard->accept(to_json(rules_plan), router, "rules");
  core::Result<std::string> reply = services.llm_analyst->ask(query);
  if (reply) return services.guard->accept_reply(*reply, router, "llm");
  return services.guard->accept_after_model_error(to_json(rules_plan), router, reply.error());
}

}  // namespace

graph::NodeFunction router_node(Services services) {
  return [services](const StateView& state, const NodeContext&) -> core::Result<Delta> {
    core::Result<std::string> query = user_query(state);
    if (!query) return query.error();
    const RouteDecision route = services->router->route(*query);
    Json router{{"rules_type", to_string(route.rules_type)},
                {"rules_decisive", route.rules_decisive},
                {"model_type", to_string(route.model.type)},
                {"model_probability", route.model.probability},
                {"project_terms", route.project_words},
                {"out_of_scope", route.out_of_scope},
                {"reason", route.reason}};
    return worker_delta(Json{{"request_type", to_string(route.request_type)},
                             {"track", to_string(route.track)},
                             {"route_reason", route.reason},
                             {"router", std::move(router)}});
  };
}

graph::NodeFunction analyst_plan_node(Services services) {
  return [services](const StateView& state, const NodeContext&) -> core::Result<Delta> {
    core::Result<std::string> query = user_query(state);
    if (!query) return query.error();
    const RouterChoice router = router_choice(state);
    const bool may_ask = !clarified_before(state);
    PlanDecision decision = make_plan(*services, *query, router, may_ask);
    if (!may_ask && !decision.plan.missing_info_questions.empty()) {
      decision.warnings.push_back("question_limit: one clarification per thread, dropped the new question");
      decision.plan.missing_info_questions.clear();
      decision.plan.expected_output_schema =
          std::string(expected_output_schema_for(decision.plan.request_type));
    }
    Json review{{"strategy", decision.strategy},
                {"fell_back", decision.fell_back},
                {"fallback_reason", decision.fallback_reason},
                {"warnings", decision.warnings},
                {"guard_failures", decision.guard_failures}};
    return worker_delta(Json{{"analyst_plan", to_json(decision.plan)},
                             {"request_type", to_string(decision.plan.request_type)},
                             {"track", to_string(decision.plan.track)},
                             {"route_reason", decision.route_reason},
                             {"plan_review", std::move(review)}});
  };
}

graph::NodeFunction clarify_node() {
  return [](const StateView& state, const NodeContext&) -> core::Result<Delta> {
    core::Result<AnalystPlan> plan = state_plan(state);
    if (!plan) return plan.error();
    if (plan->missing_info_questions.empty()) {
      return core::failed_precondition("the plan asks no question", "/analyst_plan/missing_info_questions");
    }
    return Delta(Json{{"requires_user_input", true},
                      {"checkpoint_message", "The analyst needs one answer before retrieving evidence."},
                      {"checkpoint_prompt", plan->missing_info_questions.front()}});
  };
}

graph::NodeFunction retrieve_evidence_node(Services services) {
  return [services](const StateView& state, const NodeContext&) -> core::Result<Delta> {
    core::Result<AnalystPlan> plan = state_plan(state);
    if (!plan) return plan.error();
    core::Result<std::string> query = user_query(state);
    if (!query) return query.error();
    sources::SourceQuery source_query;
    source_query.kind = std::string(source_query_kind_for(plan->request_type));
    source_query.text = *query;
    source_query.limit = kEvidenceLimit;
    core::Result<std::optional<core::ReferenceDay>> as_of =
        core::reference_day_from_json(state.member_or_null("as_of"), "/as_of");
    if (!as_of) return as_of.error();
    if (*as_of) source_query.reference_day = (*as_of)->day;
    Json evidence = Json::array();
    std::vector<SourceReport> reports;
    for (const std::string& name : plan->required_sources) {
      auto source = services->sources.find(name);
      if (source == services->sources.end() || source->second == nullptr) {
        auto hint = services->source_hints.find(name);
        reports.push_back({name, "not_configured", 0,
                           "not configured: " + (hint != services->source_hints.end()
                                                     ? hint->second
                                                     : "no " + name + " source is configured in this run")});
        continue;
      }
      core::Result<std::vector<sources::EvidenceItem>> items = source->second->fetch(source_query, nullptr);
      if (!items) {
        reports.push_back({name, "failed", 0, items.error().describe()});
        continue;
      }
      for (const sources::EvidenceItem& item : *items) evidence.push_back(sources::to_json(item));
      reports.push_back({name, "ok", items->size(), ""});
    }
    return worker_delta(Json{{"evidence", std::move(evidence)}, {"source_status", to_json(reports)}});
  };
}

graph::NodeFunction answer_node(Services services) {
  return [services](const StateView& state, const NodeContext&) -> core::Result<Delta> {
    core::Result<AnalystPlan> plan = state_plan(state);
    if (!plan) return plan.error();
    core::Result<std::string> query = user_query(state);
    if (!query) return query.error();
    std::vector<sources::EvidenceItem> evidence;
    if (const Json& items = state.member_or_null("evidence"); items.is_array()) {
      for (std::size_t i = 0; i < items.size(); ++i) {
        core::Result<sources::EvidenceItem> item =
            sources::evidence_from_json(items[i], "/evidence/" + std::to_string(i));
        if (!item) return item.error();
        evidence.push_back(std::move(*item));
      }
    }
    const std::vector<SourceReport> reports = source_reports_from_json(state.member_or_null("source_status"));
    if (plan->request_type == RequestType::kCasual && plan->intent == kOutOfScopeIntent)
      return worker_delta(Json{{"answer", to_json(services->scope->out_of_scope_answer())}});
    const Answer answer = services->answer_writer
                              ? services->answer_writer->write(*query, *plan, evidence, reports)
                              : services->composer.compose(*query, *plan, evidence, reports);
    return worker_delta(Json{{"answer", to_json(answer)}});
  };
}

graph::Router after_analyst_plan() {
  return [](const StateView& state) -> core::Result<std::string> {
    core::Result<AnalystPlan> plan = state_plan(state);
    if (!plan) return plan.error();
    if (!plan->missing_info_questions.empty()) return std::string("clarify");
    if (plan->request_type == RequestType::kCasual) return std::string("answer");
    return std::string("retrieve_evidence");
  };
}

core::Result<graph::Delta> merge_clarification(const StateView& state, std::string_view answer) {
  std::string question = state.string_or("checkpoint_prompt", "");
  const std::string query = state.string_or("user_query", "");
  return Delta(
      Json{{"user_query", query + "\n\n" + std::string(answer)},
           {"clarifications", Json::array({Json{{"question", question}, {"answer", std::string(answer)}}})},
           {"requires_user_input", false},
           {"checkpoint_message", ""},
           {"checkpoint_prompt", ""}});
}

}  // namespace planfirst::analyst
