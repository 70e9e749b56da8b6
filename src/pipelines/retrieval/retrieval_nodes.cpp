#include "pipelines/retrieval/retrieval_nodes.hpp"

#include <nlohmann/json.hpp>

#include "core/json_member.hpp"
#include "core/reference_day.hpp"
#include "pipelines/retrieval/audit_entry.hpp"
#include "pipelines/retrieval/context_synthesizer.hpp"
#include "pipelines/retrieval/json_read.hpp"
#include "pipelines/retrieval/reasoning_structure.hpp"

namespace planfirst::retrieval {
namespace {

using core::Json;
using core::member_or_null;
using graph::Delta;
using graph::NodeContext;
using graph::StateView;

const core::Clock& clock_of(const NodeContext& context) {
  return context.clock != nullptr ? *context.clock : core::system_clock();
}

// A delta with `fields` and the stage's audit entry; workers never ask for input.
Delta stage_delta(Json fields, const AuditTimer& timer, Json details) {
  fields["audit"] = Json::array({timer.finish(std::move(details))});
  return graph::worker_delta(std::move(fields));
}

core::Result<Reasoning> state_reasoning(const StateView& state) {
  return reasoning_from_json(state.member_or_null("reasoning"));
}

core::Result<std::vector<RetrievalPlan>> state_plans(const StateView& state) {
  return plans_from_json(member_or_null(state.member_or_null("retrieval"), "plans"));
}

Json plans_json(const std::vector<RetrievalPlan>& plans) {
  Json json = Json::array();
  for (const RetrievalPlan& plan : plans) json.push_back(to_json(plan));
  return json;
}

Json queries_json(const std::vector<RetrievalQuery>& queries) {
  Json json = Json::array();
  for (const RetrievalQuery& query : queries) json.push_back(to_json(query));
  return json;
}

core::Result<std::string> state_question(const StateView& state) {
  core::Result<std::string> question = read_string(state.member_or_null("question"), "/question");
  if (!question) return question.error();
  if (question->find_first_not_of(" \t\r\n") == std::string::npos) {
    return core::invalid_argument("the state has no question to detect intents in", "/question");
  }
  return question;
}

}  // namespace

graph::NodeFunction intent_detection_node(Services services) {
  return [services](const StateView& state, const NodeContext& context) -> core::Result<Delta> {
    const AuditTimer timer(clock_of(context), "intent_detection");
    core::Result<std::string> question = state_question(state);
    if (!question) return question.error();
    DetectedIntents detected = services->detector.detect(*question);
    Reasoning reasoning;
    reasoning.intents = std::move(detected.intents);
    reasoning.primary_score = detected.primary_score;
    reasoning.overall_score = detected.overall_score;
    reasoning.entities = std::move(detected.entities);
    Json details{{"intents", reasoning.intents.size()}, {"primary_intent", reasoning.intents.front().type}};
    return stage_delta(Json{{"reasoning", to_json(reasoning)}}, timer, std::move(details));
  };
}

graph::NodeFunction reasoning_structure_node(Services services) {
  return [services](const StateView& state, const NodeContext& context) -> core::Result<Delta> {
    const AuditTimer timer(clock_of(context), "reasoning_structure");
    core::Result<Reasoning> reasoning = state_reasoning(state);
    if (!reasoning) return reasoning.error();
    if (reasoning->intents.empty())
      return core::failed_precondition("No intents found in context", "reasoning.intents");
    reasoning->hypotheses = build_hypotheses(reasoning->intents, services->detector.rules());
    Json details{{"hypotheses", reasoning->hypotheses.size()}};
    return stage_delta(Json{{"reasoning", to_json(*reasoning)}}, timer, std::move(details));
  };
}

graph::NodeFunction retrieval_planner_node(Services services) {
  return [services](const StateView& state, const NodeContext& context) -> core::Result<Delta> {
    const AuditTimer timer(clock_of(context), std::string(RetrievalPlanner::capabilities().agent_id));
    core::Result<Reasoning> reasoning = state_reasoning(state);
    if (!reasoning) return reasoning.error();
    core::Result<PlannerOutput> output = services->planner.plan(*reasoning);
    if (!output) return output.error();
    Json skipped = Json::array();
    for (const Intent& intent : output->skipped) skipped.push_back(to_json(intent));
    Json details{{"plans", output->plans.size()},
                 {"queries", output->queries.size()},
                 {"confidence_threshold", kConfidenceThreshold},
                 {"skipped_intents", std::move(skipped)},
                 {"version", RetrievalPlanner::capabilities().version},
                 {"llm_calls", 0}};
    Json retrieval{{"plans", plans_json(output->plans)}, {"queries", queries_json(output->queries)}};
    return stage_delta(Json{{"retrieval", std::move(retrieval)}}, timer, std::move(details));
  };
}

graph::NodeFunction execute_plans_node(Services services) {
  return [services](const StateView& state, const NodeContext& context) -> core::Result<Delta> {
    const core::Clock& clock = clock_of(context);
    const AuditTimer timer(clock, "execute_plans");
    core::Result<std::vector<RetrievalPlan>> plans = state_plans(state);
    if (!plans) return plans.error();
    TimeZone zone = services->zone;
    core::Result<std::string> zone_name = read_string(state.member_or_null("timezone"), "/timezone");
    if (!zone_name) return zone_name.error();
    if (!zone_name->empty()) {
      core::Result<TimeZone> parsed = TimeZone::parse(*zone_name);
      if (!parsed) return parsed.error();
      zone = std::move(*parsed);
    }
    const PlanExecutor executor(services->sources, services->planner.rules(), clock);
    core::Result<std::optional<core::ReferenceDay>> as_of =
        core::reference_day_from_json(state.member_or_null("as_of"), "/as_of");
    if (!as_of) return as_of.error();
    const auto now = *as_of ? zone.midnight((*as_of)->day) : clock.now();
    std::vector<QueryOutcome> results = executor.execute(*plans, DateResolver(now, zone));
    Json retrieval = state.member_or_null("retrieval");
    Json listed = Json::array();
    Json failures = Json::array();
    std::size_t items = 0;
    for (const QueryOutcome& result : results) {
      items += result.items.size();
      if (!result.ok()) {
        failures.push_back({{"query_id", result.query_id},
                            {"source", result.source},
                            {"message", result.failure_message()}});
      }
      listed.push_back(to_json(result));
    }
    Json details{{"queries", results.size()},
                 {"failed", failures.size()},
                 {"items", items},
                 {"timezone", zone.name()}};
    retrieval["results"] = std::move(listed);
    retrieval["failures"] = std::move(failures);
    return stage_delta(Json{{"retrieval", std::move(retrieval)}}, timer, std::move(details));
  };
}

graph::NodeFunction context_synthesizer_node() {
  return [](const StateView& state, const NodeContext& context) -> core::Result<Delta> {
    const AuditTimer timer(clock_of(context), "context_synthesizer");
    core::Result<std::string> question = read_string(state.member_or_null("question"), "/question");
    if (!question) return question.error();
    core::Result<Reasoning> reasoning = state_reasoning(state);
    if (!reasoning) return reasoning.error();
    core::Result<std::vector<RetrievalPlan>> plans = state_plans(state);
    if (!plans) return plans.error();
    core::Result<std::vector<QueryOutcome>> results =
        outcomes_from_json(member_or_null(state.member_or_null("retrieval"), "results"));
    if (!results) return results.error();
    SynthesizedContext synthesized = synthesize_context({*question, *reasoning, *plans, *results});
    Json& document = synthesized.document.json();
    Json details{{"items", document["item_count"]}, {"sections", document["sections"].size()}};
    Json fields{
        {"context", {{"markdown", std::move(synthesized.markdown)}, {"document", std::move(document)}}}};
    return stage_delta(std::move(fields), timer, std::move(details));
  };
}

graph::Router after_planning() {
  return [](const StateView& state) -> core::Result<std::string> {
    return state.bool_or("plan_only", false) ? std::string(graph::kEnd) : std::string("execute_plans");
  };
}

}  // namespace planfirst::retrieval
