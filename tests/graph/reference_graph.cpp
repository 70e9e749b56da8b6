#include "reference_graph.hpp"

#include <map>
#include <nlohmann/json.hpp>

#include "core/file_text.hpp"
#include "graph/graph_builder.hpp"
#include "graph/supervisor.hpp"

namespace planfirst::graph::testing {
namespace {

core::Result<core::Json> read_delta(const std::filesystem::path& folder, std::string_view name) {
  const std::string path = (folder / name).string();
  core::Result<std::string> text = core::read_file_text(path);
  if (!text) return text.error();
  core::Result<JsonValue> json = JsonValue::parse(*text, path);
  if (!json) return json.error();
  if (!json->json().is_object()) return core::invalid_argument("not a JSON object", path);
  return std::move(json->json());
}

void replace_all(std::string& text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

// Seed 003 §4: the supervisor decides the next step from the plan's progress, analysis_complete,
// critique_enabled and, in the QA phase, whether the last message is the user's.
std::string choose_next(const StateView& state) {
  if (state.string_or("phase", "") == "qa") {
    const core::Json& messages = state.member_or_null("messages");
    const bool asked =
        messages.is_array() && !messages.empty() && messages.back().value("role", "") == "human";
    return asked ? "qa_agent" : std::string(kEnd);
  }
  if (state.bool_or("analysis_complete", false)) return std::string(kEnd);
  switch (state.int_or("plan_steps_completed", 0)) {
    case 0: return "data_discovery";
    case 1: return "data_prep";
    case 2: return "friction";
    case 3: return "synthesizer";
    case 4: return state.bool_or("critique_enabled", false) ? "critique" : "reporting";
    default: return std::string(kEnd);
  }
}

NodeFunction constant(core::Json delta) {
  return [delta = std::move(delta)](const StateView&, const NodeContext&) -> core::Result<Delta> {
    return Delta(delta);
  };
}

}  // namespace

std::filesystem::path reference_graph_deltas() {
  return std::filesystem::path(PLANFIRST_SOURCE_DIR) / "tests/graph/reference_graph";
}

core::Result<CompiledGraph> build_reference_graph(const std::filesystem::path& folder,
                                                  const contracts::ContractRegistry& contracts) {
  std::map<std::string, core::Json> deltas;
  for (const char* name : {"supervisor", "data_discovery", "data_prep", "friction", "synthesizer", "critique",
                           "reporting", "qa_agent"}) {
    core::Result<core::Json> json = read_delta(folder, std::string(name) + ".json");
    if (!json) return json.error();
    deltas.emplace(name, std::move(*json));
  }

  GraphSettings settings;
  settings.description = "seed 003 reference graph";
  settings.state_contract = "analytics_state";
  settings.delta_contract = "node_delta";
  settings.reducers = {
      {"reasoning", Reducer::kAppend}, {"messages", Reducer::kAppend}, {"plan_tasks", Reducer::kMergeById}};
  settings.common_writes = {"reasoning", "requires_user_input", "next_agent"};
  settings.checkpoint_id_key = "checkpoint_id";
  GraphBuilder builder(std::string(kReferenceGraphName), std::move(settings));

  const core::Json plan = deltas["supervisor"].value("plan", core::Json::object());
  const std::string route_text = deltas["supervisor"].value("route_text", "");
  builder.add_node(worker_node(
      "supervisor",
      [plan, route_text](const StateView& state, const NodeContext&) -> core::Result<Delta> {
        if (!state.has("plan_tasks")) return Delta(plan);
        const std::string next = choose_next(state);
        std::string text = route_text;
        replace_all(text, "{completed}", std::to_string(state.int_or("plan_steps_completed", 0)));
        replace_all(text, "{total}", std::to_string(state.int_or("plan_steps_total", 0)));
        replace_all(text, "{next}", next);
        return worker_delta(core::Json{{"reasoning", {{{"step_name", "Supervisor"}, {"step_text", text}}}},
                                       {"next_agent", next}});
      },
      {"plan_tasks", "plan_steps_total"}));

  const std::vector<std::string> checkpoint_writes = {"plan_tasks", "plan_steps_completed",
                                                      "checkpoint_message", "checkpoint_prompt"};
  for (const char* name : {"data_discovery", "data_prep"}) {
    builder.add_node(decision_node(name, constant(deltas[name]), checkpoint_writes));
  }

  const core::Json friction = deltas["friction"];
  FanOutSpec fan_out;
  fan_out.name = "friction";
  fan_out.writes = {"plan_tasks", "plan_steps_completed"};
  fan_out.plan = [agents = friction.value("sub_agents", core::Json::array())](
                     const StateView&, const NodeContext&) -> core::Result<std::vector<JsonValue>> {
    std::vector<JsonValue> inputs;
    for (const core::Json& agent : agents) inputs.emplace_back(agent);
    return inputs;
  };
  fan_out.branch = [](const StateView&, const NodeContext& ctx) -> core::Result<Delta> {
    const core::Json& agent = ctx.branch_input->json();
    return Delta(core::Json{
        {"reasoning",
         {{{"step_name", agent.value("step_name", "")}, {"step_text", agent.value("step_text", "")}}}}});
  };
  fan_out.combine = [combine = friction.value("combine", core::Json::object()),
                     agents = friction.value("sub_agents", core::Json::array())](
                        const StateView&, const std::vector<BranchOutcome>& outcomes,
                        const NodeContext&) -> core::Result<Delta> {
    core::Json delta = combine;
    core::Json sub_agents = core::Json::array();
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
      core::Json sub_agent{{"id", outcomes[i].name}, {"status", outcomes[i].error ? "blocked" : "done"}};
      if (i < agents.size() && agents[i].contains("title")) sub_agent["title"] = agents[i]["title"];
      sub_agents.push_back(std::move(sub_agent));
    }
    if (delta.contains("plan_tasks") && delta["plan_tasks"].is_array() && !delta["plan_tasks"].empty()) {
      delta["plan_tasks"][0]["sub_agents"] = std::move(sub_agents);
    }
    return Delta(std::move(delta));
  };
  builder.add_fan_out(std::move(fan_out));
  builder.add_node(decision_node("synthesizer", constant(deltas["synthesizer"]), checkpoint_writes));

  builder.add_node(worker_node("critique", constant(deltas["critique"])));
  builder.add_node(worker_node("reporting", constant(deltas["reporting"]),
                               {"plan_tasks", "plan_steps_completed", "messages", "analysis_complete",
                                "report_file_path", "data_file_path"}));
  builder.add_node(worker_node("qa_agent", constant(deltas["qa_agent"]), {"messages"}));

  builder.set_entry("supervisor");
  SupervisorLayout layout;
  layout.supervisor = "supervisor";
  layout.workers = {"data_discovery", "data_prep", "friction", "synthesizer",
                    "critique",       "reporting", "qa_agent"};
  layout.chains = {{"friction", "synthesizer"}, {"critique", "reporting"}};
  add_supervisor_edges(builder, layout);
  return builder.compile(&contracts);
}

}  // namespace planfirst::graph::testing
