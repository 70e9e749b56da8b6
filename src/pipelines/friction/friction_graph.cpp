#include "pipelines/friction/friction_graph.hpp"

#include <utility>

#include "graph/graph_builder.hpp"
#include "graph/supervisor.hpp"
#include "pipelines/friction/checkpoint_answer.hpp"

namespace planfirst::friction {
namespace {

constexpr const char* kDescription =
    "seed 003 contact-centre friction analysis: data_discovery, data_prep, friction (4 lens sub-agents), "
    "synthesizer, critique, reporting, qa_agent; input {\"dataset_path\": FILE, \"output_dir\": DIR}";

graph::GraphSettings friction_settings(Services services, const contracts::ContractRegistry& contracts) {
  graph::GraphSettings settings;
  settings.description = kDescription;
  settings.state_contract = "friction_state";
  settings.delta_contract = "friction_delta";
  settings.reducers = {{"reasoning", graph::Reducer::kAppend},
                       {"messages", graph::Reducer::kAppend},
                       {"friction_findings", graph::Reducer::kAppend},
                       {"plan_tasks", graph::Reducer::kMergeById}};
  settings.common_writes = {"reasoning",          "requires_user_input", "next_agent",
                            "checkpoint_message", "checkpoint_prompt",   "last_completed_node"};
  settings.checkpoint_id_key = "checkpoint_id";
  settings.answer = checkpoint_answer(std::move(services), contracts);
  return settings;
}

}  // namespace

core::Result<graph::CompiledGraph> build_friction_graph(Services services,
                                                        const contracts::ContractRegistry& contracts) {
  using graph::decision_node;
  using graph::worker_node;
  graph::GraphBuilder builder(std::string(kFrictionGraphName), friction_settings(services, contracts));
  builder.add_node(worker_node("supervisor", supervisor_node(services),
                               {"plan_tasks", "plan_steps_total", "plan_steps_completed", "messages"}));
  builder.add_node(decision_node("data_discovery", data_discovery_node(services),
                                 {"plan_tasks", "plan_steps_completed", "dataset"}));
  builder.add_node(
      decision_node("data_prep", data_prep_node(services), {"plan_tasks", "plan_steps_completed", "prep"}));
  builder.add_fan_out(friction_fan_out(services));
  builder.add_node(decision_node("synthesizer", synthesizer_node(services),
                                 {"plan_tasks", "plan_steps_completed", "synthesis"}));
  builder.add_node(worker_node("critique", critique_node(services)));
  builder.add_node(worker_node("reporting", reporting_node(services),
                               {"plan_tasks", "plan_steps_completed", "messages", "analysis_complete",
                                "phase", "report_file_path", "data_file_path", "artifacts"}));
  builder.add_node(worker_node("qa_agent", qa_agent_node(services), {"messages"}));
  builder.set_entry("supervisor");
  graph::SupervisorLayout layout;
  layout.supervisor = "supervisor";
  layout.workers = {"data_discovery", "data_prep", "friction", "synthesizer",
                    "critique",       "reporting", "qa_agent"};
  layout.chains = {{"friction", "synthesizer"}, {"critique", "reporting"}};
  graph::add_supervisor_edges(builder, layout);
  return builder.compile(&contracts);
}

core::Result<void> register_friction_graph(graph::GraphRegistry& registry) {
  return registry.add(
      std::string(kFrictionGraphName), kDescription,
      [](const graph::GraphDependencies& dependencies) -> core::Result<graph::CompiledGraph> {
        core::Result<std::shared_ptr<const FrictionServices>> services =
            FrictionServices::load(dependencies.assets, true);
        if (!services) return services.error();
        return build_friction_graph(std::move(*services), dependencies.contracts);
      },
      graph::GraphInputs{"dataset_path", "messages", "output_dir"});
}

}  // namespace planfirst::friction
