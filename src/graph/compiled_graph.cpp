#include "graph/compiled_graph.hpp"

#include <algorithm>

#include "graph/compiled_graph_body.hpp"

namespace planfirst::graph {

bool CompiledNode::may_write(std::string_view key) const {
  return std::binary_search(writes.begin(), writes.end(), key);
}

const std::string& CompiledGraph::name() const {
  return body_->name;
}
const GraphSettings& CompiledGraph::settings() const {
  return body_->settings;
}
const std::string& CompiledGraph::entry() const {
  return body_->entry;
}
const std::vector<CompiledNode>& CompiledGraph::nodes() const {
  return body_->nodes;
}
const contracts::Contract* CompiledGraph::state_contract() const {
  return body_->state_contract;
}
const contracts::Contract* CompiledGraph::delta_contract() const {
  return body_->delta_contract;
}

const CompiledNode* CompiledGraph::node(std::string_view name) const {
  auto it = body_->index.find(name);
  return it == body_->index.end() ? nullptr : &body_->nodes[it->second];
}

std::vector<Edge> CompiledGraph::edges() const {
  std::vector<Edge> edges;
  edges.push_back({std::string(kStart), body_->entry, false});
  for (const CompiledNode& node : body_->nodes) {
    if (node.router) {
      for (const std::string& target : node.targets) edges.push_back({node.name, target, true});
    } else {
      edges.push_back({node.name, node.next, false});
    }
  }
  return edges;
}

core::Result<std::string> CompiledGraph::next_node(const CompiledNode& from, const StateView& state) const {
  if (!from.router) return from.next;
  core::Result<std::string> target = from.router(state);
  if (!target) {
    core::Error error = target.error();
    error.message = "router of node " + from.name + ": " + error.message;
    return error;
  }
  if (std::find(from.targets.begin(), from.targets.end(), *target) == from.targets.end()) {
    std::string known;
    for (const std::string& t : from.targets) known += (known.empty() ? "" : ", ") + t;
    return core::invalid_argument("router of node " + from.name + " chose \"" + *target +
                                      "\", which is not one of its targets (" + known + ")",
                                  from.name);
  }
  return target;
}

}  // namespace planfirst::graph
