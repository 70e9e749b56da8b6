// The analyst graph's nodes (seed 000), each a function of the state returning a delta, and the
// routers between them. Keys: user_query (input) -> router: request_type, track, route_reason,
// router -> analyst_plan: analyst_plan, request_type, track, route_reason, plan_review -> clarify:
// checkpoint_message, checkpoint_prompt (interrupt) -> retrieve_evidence: evidence, source_status ->
// answer: answer. A resumed clarification appends to clarifications and to user_query.
#pragma once

#include <memory>
#include <string_view>

#include "graph/compiled_graph.hpp"
#include "graph/node.hpp"
#include "pipelines/analyst/analyst_services.hpp"

namespace planfirst::analyst {

using Services = std::shared_ptr<const AnalystServices>;

graph::NodeFunction router_node(Services services);
graph::NodeFunction analyst_plan_node(Services services);
graph::NodeFunction clarify_node();
graph::NodeFunction retrieve_evidence_node(Services services);
graph::NodeFunction answer_node(Services services);

// After analyst_plan: "clarify" when the plan asks a question, "answer" for CASUAL (no retrieval),
// "retrieve_evidence" otherwise.
graph::Router after_analyst_plan();

// The resume delta: the answer appended to user_query (after a blank line) and to clarifications.
core::Result<graph::Delta> merge_clarification(const graph::StateView& state, std::string_view answer);

}  // namespace planfirst::analyst
