// to_mermaid renders a compiled graph as a Mermaid flowchart: decision nodes as hexagons, fan-out
// nodes as subroutines, static edges solid, router choices dotted, error routes labelled. Nodes and
// edges in the order they were added, so the same graph prints the same bytes.
#pragma once

#include <string>

#include "graph/compiled_graph.hpp"

namespace planfirst::graph {

std::string to_mermaid(const CompiledGraph& graph);

}  // namespace planfirst::graph
