// The node functions of the retrieval graph (retrieval_graph.hpp wires them), one per seed 001
// stage. Each reads the state, runs its stage and returns a delta of the keys it owns plus one
// audit entry; a stage's error (a precondition, a malformed state) fails the node with its message.
// Only execute_plans does I/O, through the services' sources.
#pragma once

#include <memory>

#include "graph/compiled_graph.hpp"
#include "graph/node.hpp"
#include "pipelines/retrieval/retrieval_services.hpp"

namespace planfirst::retrieval {

using Services = std::shared_ptr<const RetrievalServices>;

graph::NodeFunction intent_detection_node(Services services);     // question -> reasoning (intents, entities)
graph::NodeFunction reasoning_structure_node(Services services);  // reasoning -> reasoning + hypotheses
graph::NodeFunction retrieval_planner_node(Services services);    // reasoning -> retrieval {plans, queries}
graph::NodeFunction execute_plans_node(Services services);        // retrieval -> + results, failures
graph::NodeFunction context_synthesizer_node();                   // everything -> context

// After the planner: the end when the state says "plan_only": true, else "execute_plans".
graph::Router after_planning();

}  // namespace planfirst::retrieval
