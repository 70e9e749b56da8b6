// The node functions of the autoviz graph (autoviz_graph.hpp wires them), one per seed 002 step.
// Each reads the state, calls its stage and returns a delta of the keys it owns plus one reasoning
// line; a stage's error fails the node with the stage's message. Pure apart from the dataset file
// they read and the output folder report writes.
#pragma once

#include <memory>

#include "graph/compiled_graph.hpp"
#include "graph/node.hpp"
#include "pipelines/autoviz/autoviz_services.hpp"

namespace planfirst::autoviz {

using Services = std::shared_ptr<const AutovizServices>;

graph::NodeFunction profile_node(Services services);
graph::NodeFunction intent_node(Services services);
graph::NodeFunction requirements_node(Services services);
graph::NodeFunction narrow_node(Services services);
graph::NodeFunction adapt_node(Services services);
graph::NodeFunction coverage_node(Services services);
graph::NodeFunction confirm_node();
graph::NodeFunction review_node();
graph::NodeFunction execute_node(Services services);
graph::NodeFunction report_node(Services services);

// Routers: after coverage "narrow" (retry), "confirm", "execute" or the end (coverage failed for
// good, or a plan-only run); after review "execute" (approved) or "requirements" (a change); after execute
// "adapt" (a semantic repair) or "report".
graph::Router after_coverage();
graph::Router after_review();
graph::Router after_execute();

}  // namespace planfirst::autoviz
