#include "pipelines/analyst/analyst_graph.hpp"

#include <utility>

#include "graph/graph_builder.hpp"
#include "pipelines/analyst/analyst_nodes.hpp"

namespace planfirst::analyst {
namespace {

graph::GraphSettings analyst_settings() {
  graph::GraphSettings settings;
  settings.description =
      "seed 000 plan before retrieval: router, analyst_plan, clarify, retrieve_evidence (required_sources "
      "only), answer";
  settings.reducers = {{"clarifications", graph::Reducer::kAppend}};
  settings.common_writes = {"requires_user_input"};
  settings.answer = merge_clarification;
  return settings;
}

}  // namespace

core::Result<graph::CompiledGraph> build_analyst_graph(std::shared_ptr<const AnalystServices> services) {
  using graph::worker_node;
  graph::GraphBuilder builder(std::string(kAnalystGraphName), analyst_settings());
  builder.add_node(
      worker_node("router", router_node(services), {"request_type", "track", "route_reason", "router"}));
  builder.add_node(worker_node("analyst_plan", analyst_plan_node(services),
                               {"analyst_plan", "request_type", "track", "route_reason", "plan_review"}));
  builder.add_node(
      graph::decision_node("clarify", clarify_node(), {"checkpoint_message", "checkpoint_prompt"}));
  builder.add_node(
      worker_node("retrieve_evidence", retrieve_evidence_node(services), {"evidence", "source_status"}));
  builder.add_node(worker_node("answer", answer_node(services), {"answer"}));
  builder.set_entry("router");
  builder.add_edge("router", "analyst_plan");
  builder.add_conditional_edges("analyst_plan", after_analyst_plan(),
                                {"clarify", "retrieve_evidence", "answer"});
  builder.add_edge("clarify", "analyst_plan");
  builder.add_edge("retrieve_evidence", "answer");
  builder.set_finish("answer");
  return builder.compile();
}

core::Result<void> register_analyst_graph(graph::GraphRegistry& registry) {
  return registry.add(
      std::string(kAnalystGraphName), analyst_settings().description,
      [](const graph::GraphDependencies& dependencies) -> core::Result<graph::CompiledGraph> {
        AnalystOptions options;
        options.config = dependencies.config;
        core::Result<std::shared_ptr<const AnalystServices>> services =
            AnalystServices::load(dependencies.assets, std::move(options));
        if (!services) return services.error();
        return build_analyst_graph(std::move(*services));
      },
      graph::GraphInputs{"", "user_query", ""});
}

}  // namespace planfirst::analyst
