#include "pipelines/retrieval/retrieval_graph.hpp"

#include <utility>

#include "graph/graph_builder.hpp"
#include "pipelines/retrieval/retrieval_nodes.hpp"

namespace planfirst::retrieval {
namespace {

graph::GraphSettings retrieval_settings() {
  graph::GraphSettings settings;
  settings.description =
      "seed 001 retrieval: intent detection, reasoning structure, retrieval planner, execute plans, context "
      "synthesizer";
  settings.reducers = {{"audit", graph::Reducer::kAppend}};
  settings.common_writes = {"audit", "requires_user_input"};
  return settings;
}

}  // namespace

core::Result<graph::CompiledGraph> build_retrieval_graph(std::shared_ptr<const RetrievalServices> services) {
  using graph::worker_node;
  graph::GraphBuilder builder(std::string(kRetrievalGraphName), retrieval_settings());
  builder.add_node(worker_node("intent_detection", intent_detection_node(services), {"reasoning"}));
  builder.add_node(worker_node("reasoning_structure", reasoning_structure_node(services), {"reasoning"}));
  builder.add_node(worker_node("retrieval_planner", retrieval_planner_node(services), {"retrieval"}));
  builder.add_node(worker_node("execute_plans", execute_plans_node(services), {"retrieval"}));
  builder.add_node(worker_node("context_synthesizer", context_synthesizer_node(), {"context"}));
  builder.set_entry("intent_detection");
  builder.add_edge("intent_detection", "reasoning_structure");
  builder.add_edge("reasoning_structure", "retrieval_planner");
  builder.add_conditional_edges("retrieval_planner", after_planning(),
                                {"execute_plans", std::string(graph::kEnd)});
  builder.add_edge("execute_plans", "context_synthesizer");
  builder.set_finish("context_synthesizer");
  return builder.compile();
}

core::Result<void> register_retrieval_graph(graph::GraphRegistry& registry) {
  return registry.add(
      std::string(kRetrievalGraphName), retrieval_settings().description,
      [](const graph::GraphDependencies& dependencies) -> core::Result<graph::CompiledGraph> {
        core::Result<std::shared_ptr<const RetrievalServices>> services =
            RetrievalServices::load(dependencies.assets);
        if (!services) return services.error();
        return build_retrieval_graph(std::move(*services));
      },
      graph::GraphInputs{"", "question", ""});
}

}  // namespace planfirst::retrieval
