// The analyst graph runs seed 000 as one node per stage: router -> analyst_plan -> clarify (a
// decision node: interrupts with the plan's question; the answer resumes the thread and analyst_plan
// plans again) | retrieve_evidence (only the plan's required_sources) | answer (CASUAL, no
// retrieval) -> answer. No node before answer retrieves, and retrieve_evidence refuses to run
// without an analyst_plan in the state. State keys: see analyst_nodes.hpp.
#pragma once

#include <memory>
#include <string_view>

#include "core/result.hpp"
#include "graph/compiled_graph.hpp"
#include "graph/graph_registry.hpp"
#include "pipelines/analyst/analyst_services.hpp"

namespace planfirst::analyst {

inline constexpr std::string_view kAnalystGraphName = "analyst";

// REQUIRES: `services` is non-null.
core::Result<graph::CompiledGraph> build_analyst_graph(std::shared_ptr<const AnalystServices> services);

// Adds "analyst" to `registry`; its factory loads the services from the dependencies' assets and
// config, with no sources configured (every required source is then recorded as not configured).
core::Result<void> register_analyst_graph(graph::GraphRegistry& registry);

}  // namespace planfirst::analyst
