// Seed 003's reference graph ("friction"), a test fixture of the runtime's contract: supervisor,
// data_discovery (checkpoint), data_prep (checkpoint), friction (fan-out over four sub-agents),
// synthesizer (checkpoint), critique (optional), reporting and qa_agent, under the analytics_state
// and node_delta contracts. Its nodes return the seed's example deltas, made-up figures included,
// read from tests/graph/reference_graph/; the supervisor routes deterministically. It exercises
// every feature of the runtime and is the model each pipeline's graph follows, but it analyses
// nothing, so planfirst does not offer it as a graph to run.
#pragma once

#include <filesystem>
#include <string_view>

#include "contracts/contract_registry.hpp"
#include "core/result.hpp"
#include "graph/compiled_graph.hpp"

namespace planfirst::graph::testing {

inline constexpr std::string_view kReferenceGraphName = "friction";

// The folder of the nodes' deltas (tests/graph/reference_graph/ of the source tree).
std::filesystem::path reference_graph_deltas();

// kNotFound / kInvalidArgument naming the file when a delta in `folder` is missing or malformed.
// REQUIRES: `contracts` outlives the graph.
core::Result<CompiledGraph> build_reference_graph(const std::filesystem::path& folder,
                                                  const contracts::ContractRegistry& contracts);

}  // namespace planfirst::graph::testing
