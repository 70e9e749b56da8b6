// The reference graph of seed 003 ("friction"): supervisor, data_discovery (checkpoint), data_prep
// (checkpoint), friction (fan-out over four sub-agents), synthesizer (checkpoint), critique
// (optional), reporting and qa_agent, under the analytics_state and node_delta contracts. Its nodes
// return the seed's example deltas, read from assets/graphs/friction/; it is the runtime's contract
// test and the model every pipeline's graph follows. The supervisor routes deterministically.
#pragma once

#include <string_view>

#include "core/result.hpp"
#include "graph/compiled_graph.hpp"
#include "graph/graph_registry.hpp"

namespace planfirst::graph {

inline constexpr std::string_view kReferenceGraphName = "friction";

// kNotFound / kInvalidArgument naming the asset when one is missing or malformed.
core::Result<CompiledGraph> build_reference_graph(const GraphDependencies& dependencies);

}  // namespace planfirst::graph
