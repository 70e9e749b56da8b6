// The retrieval graph runs seed 001 as one node per stage: intent_detection -> reasoning_structure
// -> retrieval_planner -> (the end when "plan_only") execute_plans -> context_synthesizer. The state
// is the seed's agent context as one JSON object: "question" (input), "reasoning" {intents,
// primary_score, overall_score, hypotheses, entities}, "retrieval" {plans, queries, results,
// failures}, "context" {markdown, document}, "audit" (one entry per stage, appended); optional
// inputs "plan_only" and "timezone".
#pragma once

#include <memory>
#include <string_view>

#include "core/result.hpp"
#include "graph/compiled_graph.hpp"
#include "graph/graph_registry.hpp"
#include "pipelines/retrieval/retrieval_services.hpp"

namespace planfirst::retrieval {

inline constexpr std::string_view kRetrievalGraphName = "retrieval";

// REQUIRES: `services` is non-null.
core::Result<graph::CompiledGraph> build_retrieval_graph(std::shared_ptr<const RetrievalServices> services);

// Adds "retrieval" to `registry`; its factory loads the rules from the dependencies' assets, with
// no sources configured (execute_plans then records every query as not configured).
core::Result<void> register_retrieval_graph(graph::GraphRegistry& registry);

}  // namespace planfirst::retrieval
