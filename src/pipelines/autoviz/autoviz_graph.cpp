#include "pipelines/autoviz/autoviz_graph.hpp"

#include <mutex>
#include <utility>

#include "graph/graph_builder.hpp"
#include "pipelines/autoviz/autoviz_nodes.hpp"

namespace planfirst::autoviz {
namespace {

graph::GraphSettings autoviz_settings() {
  graph::GraphSettings settings;
  settings.description =
      "seed 002 plan-first analysis: profile, intent, requirements, narrow, adapt, coverage, confirm, "
      "execute, report";
  settings.reducers = {{"reasoning", graph::Reducer::kAppend},
                       {"messages", graph::Reducer::kAppend},
                       {"strategies", graph::Reducer::kAppend}};
  settings.common_writes = {"reasoning", "requires_user_input"};
  return settings;
}

}  // namespace

core::Result<graph::CompiledGraph> build_autoviz_graph(std::shared_ptr<const AutovizServices> services) {
  using graph::worker_node;
  graph::GraphBuilder builder(std::string(kAutovizGraphName), autoviz_settings());
  builder.add_node(worker_node("profile", profile_node(services), {"profile", "table"}));
  builder.add_node(worker_node("intent", intent_node(services), {"intent", "strategies"}));
  builder.add_node(worker_node("requirements", requirements_node(services), {"requirements", "strategies"}));
  builder.add_node(worker_node("narrow", narrow_node(services), {"tools"}));
  builder.add_node(worker_node("adapt", adapt_node(services),
                               {"plan", "tools", "planning_attempts", "adaptation", "strategies"}));
  builder.add_node(
      worker_node("coverage", coverage_node(services), {"coverage", "retry_payload", "outcome"}));
  builder.add_node(
      graph::decision_node("confirm", confirm_node(), {"checkpoint_message", "checkpoint_prompt"}));
  builder.add_node(
      worker_node("review", review_node(), {"question", "confirmed", "retry_payload", "planning_attempts"}));
  builder.add_node(worker_node("execute", execute_node(services), {"execution", "replan", "outcome"}));
  builder.add_node(worker_node("report", report_node(services), {"artifacts", "outcome"}));
  builder.set_entry("profile");
  builder.add_edge("profile", "intent");
  builder.add_edge("intent", "requirements");
  builder.add_edge("requirements", "narrow");
  builder.add_edge("narrow", "adapt");
  builder.add_edge("adapt", "coverage");
  builder.add_conditional_edges("coverage", after_coverage(),
                                {"narrow", "confirm", "execute", std::string(graph::kEnd)});
  builder.add_edge("confirm", "review");
  builder.add_conditional_edges("review", after_review(), {"execute", "requirements"});
  builder.add_conditional_edges("execute", after_execute(), {"adapt", "report", std::string(graph::kEnd)});
  builder.set_finish("report");
  return builder.compile();
}

core::Result<void> register_autoviz_graph(graph::GraphRegistry& registry) {
  return registry.add(
      std::string(kAutovizGraphName), autoviz_settings().description,
      [](const graph::GraphDependencies& dependencies) -> core::Result<graph::CompiledGraph> {
        core::Result<std::shared_ptr<const AutovizServices>> services =
            AutovizServices::load(dependencies.assets, dependencies.config);
        if (!services) return services.error();
        return build_autoviz_graph(std::move(*services));
      },
      graph::GraphInputs{"dataset", "question", "out_dir"});
}

}  // namespace planfirst::autoviz
