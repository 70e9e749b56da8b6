#include "graph/mermaid.hpp"

namespace planfirst::graph {

std::string to_mermaid(const CompiledGraph& graph) {
  std::string out = "flowchart TD\n";
  out += "  " + std::string(kStart) + "([" + std::string(kStart) + "])\n";
  for (const CompiledNode& node : graph.nodes()) {
    if (node.kind == NodeKind::kDecision) {
      out += "  " + node.name + "{{" + node.name + "}}\n";
    } else if (node.fan_out) {
      out += "  " + node.name + "[[" + node.name + "]]\n";
    } else {
      out += "  " + node.name + "[" + node.name + "]\n";
    }
  }
  out += "  " + std::string(kEnd) + "([" + std::string(kEnd) + "])\n";
  for (const Edge& edge : graph.edges()) {
    out += "  " + edge.from + (edge.conditional ? " -.-> " : " --> ") + edge.to + "\n";
  }
  for (const CompiledNode& node : graph.nodes()) {
    if (!node.policy.error_route.empty())
      out += "  " + node.name + " -. error .-> " + node.policy.error_route + "\n";
  }
  return out;
}

}  // namespace planfirst::graph
