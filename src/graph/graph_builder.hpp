// GraphBuilder collects nodes, fan-out nodes, edges, conditional edges (routers), the entry and the
// finish edges of one graph, then compile() checks the whole and returns an immutable CompiledGraph.
// compile() rejects unknown edge targets, nodes without a way out, unreachable nodes and nodes that
// write the interrupt keys without being decision nodes, listing every fault. Not thread-safe.
#pragma once

#include <string>
#include <vector>

#include "contracts/contract_registry.hpp"
#include "core/result.hpp"
#include "graph/compiled_graph.hpp"
#include "graph/node.hpp"

namespace planfirst::graph {

class GraphBuilder {
 public:
  GraphBuilder(std::string name, GraphSettings settings);

  GraphBuilder& add_node(NodeSpec spec);
  GraphBuilder& add_fan_out(FanOutSpec spec);
  GraphBuilder& add_edge(std::string from, std::string to);  // `to` may be kEnd
  // `router` must return one of `targets` (which may include kEnd).
  GraphBuilder& add_conditional_edges(std::string from, Router router, std::vector<std::string> targets);
  GraphBuilder& set_entry(std::string node);
  GraphBuilder& set_finish(std::string node) { return add_edge(std::move(node), std::string(kEnd)); }

  // kInvalidArgument listing every fault, one per line, each naming the node ("where" = the first
  // node at fault). `contracts` resolves the settings' contract names; it may be null only when
  // the settings name none. REQUIRES: `contracts` outlives the compiled graph.
  core::Result<CompiledGraph> compile(const contracts::ContractRegistry* contracts = nullptr) const;

 private:
  struct PendingEdge {
    std::string from;
    std::string to;  // static edge
    Router router;   // conditional edges
    std::vector<std::string> targets;
  };

  std::string name_;
  GraphSettings settings_;
  std::vector<CompiledNode> nodes_;
  std::vector<PendingEdge> edges_;
  std::string entry_;
};

}  // namespace planfirst::graph
