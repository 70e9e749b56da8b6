#include "pipelines/autoviz/autoviz_nodes.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>

#include "data/dataset.hpp"
#include "data/table_profiler.hpp"
#include "graph/compiled_graph.hpp"
#include "pipelines/autoviz/autoviz_graph.hpp"
#include "pipelines/autoviz/coverage_checker.hpp"
#include "pipelines/autoviz/plan.hpp"
#include "pipelines/autoviz/requirements.hpp"

namespace planfirst::autoviz {
namespace {

using core::Json;
using graph::Delta;
using graph::NodeContext;
using graph::StateView;

// A delta with `fields` and the node's reasoning line; workers never ask for input.
Delta step_delta(std::string_view step_name, std::string text, Json fields = Json::object()) {
  fields["reasoning"] = Json::array({Json{{"step_name", step_name}, {"step_text", std::move(text)}}});
  fields["requires_user_input"] = false;
  return Delta(std::move(fields));
}

const Json& at_or_null(const StateView& state, std::string_view key) {
  static const Json kNull;
  const Json& json = state.json();
  auto it = json.find(key);
  return it == json.end() ? kNull : *it;
}

core::Result<Requirements> state_requirements(const StateView& state) {
  return Requirements::from_json(at_or_null(state, "requirements"));
}

core::Result<Plan> state_plan(const StateView& state) { return Plan::from_json(at_or_null(state, "plan")); }

std::string lowered(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace

graph::NodeFunction profile_node() {
  return [](const StateView& state, const NodeContext& context) -> core::Result<Delta> {
    const std::string dataset = state.string_or("dataset", "");
    context.report_progress("profiling " + dataset);
    core::Result<data::OpenedDataset> opened = data::open_dataset(dataset, state.string_or("table", ""));
    if (!opened) return opened.error();
    core::Result<data::SchemaProfile> profile = data::profile_table(*opened->db, opened->table);
    if (!profile) return profile.error();
    return step_delta("profile",
                      "Profiled " + opened->table + ": " + std::to_string(profile->row_count) + " rows, " +
                          std::to_string(profile->columns.size()) + " columns.",
                      Json{{"profile", profile->to_json()}, {"table", opened->table}});
  };
}

graph::NodeFunction intent_node(Services services) {
  return [services](const StateView& state, const NodeContext&) -> core::Result<Delta> {
    core::Result<IntentChoice> choice = services->intents->classify(state.string_or("question", ""));
    if (!choice) return choice.error();
    Json intent = choice->to_json();
    intent["template"] = choice->template_name;
    intent["evidence"] = choice->evidence;
    return step_delta("intent",
                      "Intent " + choice->intent + " (confidence " + std::to_string(choice->confidence).substr(0, 4) +
                          "), template " + choice->template_name + ".",
                      Json{{"intent", std::move(intent)}});
  };
}

graph::NodeFunction coverage_node(Services services) {
  return [services](const StateView& state, const NodeContext&) -> core::Result<Delta> {
    core::Result<Requirements> requirements = state_requirements(state);
    if (!requirements) return requirements.error();
    core::Result<Plan> plan = state_plan(state);
    if (!plan) return plan.error();
    const CoverageReport report = CoverageChecker(services->capabilities, services->tools).check(*requirements, *plan);
    const bool retry = !report.complete() && state.int_or("planning_attempts", 0) <= kMaxPlanningRetries;
    Json fields{{"coverage", report.to_json()}, {"retry_payload", report.retry_payload()}};
    if (!report.complete() && !retry) fields["outcome"] = "coverage_failed";
    return step_delta("coverage", report.complete() ? "Every requirement is covered and every step justified."
                                                    : report.retry_payload(),
                      std::move(fields));
  };
}

graph::NodeFunction confirm_node() {
  return [](const StateView& state, const NodeContext&) -> core::Result<Delta> {
    Json fields{{"checkpoint_message", "Plan ready for " + state.string_or("question", "") + "\n" +
                                           at_or_null(state, "coverage").value("retry_payload", "")},
                {"checkpoint_prompt", "Approve the plan? Answer 'approve', or say in plain words what to change."}};
    Delta delta = step_delta("confirm", "Waiting for the plan to be approved.", std::move(fields));
    delta.json()["requires_user_input"] = true;
    return delta;
  };
}

graph::NodeFunction review_node() {
  return [](const StateView& state, const NodeContext&) -> core::Result<Delta> {
    const Json& messages = at_or_null(state, "messages");
    const std::string answer = messages.is_array() && !messages.empty() ? messages.back().value("content", "") : "";
    const std::string word = lowered(answer);
    if (word == "approve" || word == "approved" || word == "yes" || word == "ok") {
      return step_delta("review", "Plan approved.", Json{{"confirmed", true}});
    }
    const std::string question = state.string_or("question", "") + " (" + answer + ")";
    return step_delta("review", "Plan change requested: " + answer + "; planning again.",
                      Json{{"confirmed", false}, {"question", question}, {"retry_payload", ""}, {"planning_attempts", 0}});
  };
}

graph::Router after_coverage() {
  return [](const StateView& state) -> core::Result<std::string> {
    const Json& coverage = at_or_null(state, "coverage");
    if (!coverage.value("complete", false)) {
      return state.string_or("outcome", "") == "coverage_failed" ? std::string(graph::kEnd) : std::string("narrow");
    }
    if (state.bool_or("plan_only", false)) return std::string(graph::kEnd);
    return std::string(state.bool_or("confirm", false) && !state.bool_or("confirmed", false) ? "confirm" : "execute");
  };
}

graph::Router after_review() {
  return [](const StateView& state) -> core::Result<std::string> {
    return std::string(state.bool_or("confirmed", false) ? "execute" : "requirements");
  };
}

graph::Router after_execute() {
  return [](const StateView& state) -> core::Result<std::string> {
    return std::string(state.string_or("outcome", "") == "replan" ? "adapt" : "report");
  };
}

}  // namespace planfirst::autoviz
namespace planfirst::autoviz {
namespace {
graph::NodeFunction pending(std::string stage) {
  return [stage](const graph::StateView&, const graph::NodeContext&) -> core::Result<graph::Delta> {
    return core::Error{core::ErrorCode::kInternal, stage + " is not wired yet", stage};
  };
}
}  // namespace
graph::NodeFunction requirements_node(Services) { return pending("requirements"); }
graph::NodeFunction narrow_node(Services) { return pending("narrow"); }
graph::NodeFunction adapt_node(Services) { return pending("adapt"); }
graph::NodeFunction execute_node(Services) { return pending("execute"); }
graph::NodeFunction report_node(Services) { return pending("report"); }
}  // namespace planfirst::autoviz
