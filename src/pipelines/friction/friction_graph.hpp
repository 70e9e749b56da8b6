// The friction graph (seed 003): supervisor -> data_discovery (checkpoint: scope and columns) ->
// data_prep (checkpoint: buckets and filters) -> friction (fan-out: digital, operations,
// communication and policy lens sub-agents) -> synthesizer (checkpoint: report direction) ->
// critique (when critique_enabled) -> reporting -> qa_agent for questions after the analysis. Every
// worker returns to the supervisor except the seed's two chains (friction -> synthesizer, critique
// -> reporting). State and deltas are checked against the friction_state and friction_delta
// contracts. Start a run with {"dataset_path": "contacts.csv", "output_dir": "out"}.
#pragma once

#include <string_view>

#include "contracts/contract_registry.hpp"
#include "core/result.hpp"
#include "graph/compiled_graph.hpp"
#include "graph/graph_registry.hpp"
#include "pipelines/friction/friction_nodes.hpp"

namespace planfirst::friction {

inline constexpr std::string_view kFrictionGraphName = "friction";

// REQUIRES: `services` non-null; `contracts` outlives the graph.
core::Result<graph::CompiledGraph> build_friction_graph(Services services,
                                                        const contracts::ContractRegistry& contracts);

// Adds "friction" to `registry`; its factory loads the rules from the dependencies' assets and draws
// the report's charts as SVG with the installed renderer when it is available.
core::Result<void> register_friction_graph(graph::GraphRegistry& registry);

}  // namespace planfirst::friction
