// CompiledGraph::Body: what a compiled graph holds. Private to src/graph (graph_builder.cpp builds
// it, compiled_graph.cpp reads it); immutable once built.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "graph/compiled_graph.hpp"

namespace planfirst::graph {

struct CompiledGraph::Body {
  std::string name;
  GraphSettings settings;
  std::string entry;
  std::vector<CompiledNode> nodes;
  std::map<std::string, std::size_t, std::less<>> index;  // node name -> position in nodes
  const contracts::Contract* state_contract = nullptr;
  const contracts::Contract* delta_contract = nullptr;
};

}  // namespace planfirst::graph
