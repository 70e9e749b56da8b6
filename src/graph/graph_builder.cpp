#include "graph/graph_builder.hpp"

#include <algorithm>
#include <deque>
#include <nlohmann/json.hpp>
#include <set>

#include "graph/compiled_graph_body.hpp"

namespace planfirst::graph {
namespace {

bool is_known(const std::map<std::string, std::size_t, std::less<>>& index, std::string_view name) {
  return name == kEnd || index.count(name) > 0;
}

// The state contract's property names when it closes the object (additionalProperties: false).
std::optional<std::set<std::string>> closed_properties(const contracts::Contract* contract) {
  if (contract == nullptr) return std::nullopt;
  const core::Json& schema = contract->schema();
  if (!schema.is_object() || !schema.contains("properties") || !schema["properties"].is_object())
    return std::nullopt;
  auto additional = schema.find("additionalProperties");
  if (additional == schema.end() || *additional != false) return std::nullopt;
  std::set<std::string> names;
  for (const auto& [key, value] : schema["properties"].items()) names.insert(key);
  return names;
}

}  // namespace

GraphBuilder::GraphBuilder(std::string name, GraphSettings settings)
    : name_(std::move(name)), settings_(std::move(settings)) {}

GraphBuilder& GraphBuilder::add_node(NodeSpec spec) {
  CompiledNode node;
  node.name = std::move(spec.name);
  node.kind = spec.kind;
  node.writes = std::move(spec.writes);
  node.policy = std::move(spec.policy);
  node.function = std::move(spec.function);
  nodes_.push_back(std::move(node));
  return *this;
}

GraphBuilder& GraphBuilder::add_fan_out(FanOutSpec spec) {
  CompiledNode node;
  node.name = std::move(spec.name);
  node.kind = NodeKind::kWorker;
  node.writes = std::move(spec.writes);
  node.policy = std::move(spec.policy);
  node.fan_out = true;
  node.plan = std::move(spec.plan);
  node.branch = std::move(spec.branch);
  node.combine = std::move(spec.combine);
  nodes_.push_back(std::move(node));
  return *this;
}

GraphBuilder& GraphBuilder::add_edge(std::string from, std::string to) {
  edges_.push_back({std::move(from), std::move(to), nullptr, {}});
  return *this;
}

GraphBuilder& GraphBuilder::add_conditional_edges(std::string from, Router router,
                                                  std::vector<std::string> targets) {
  edges_.push_back({std::move(from), "", std::move(router), std::move(targets)});
  return *this;
}

GraphBuilder& GraphBuilder::set_entry(std::string node) {
  entry_ = std::move(node);
  return *this;
}

core::Result<CompiledGraph> GraphBuilder::compile(const contracts::ContractRegistry* contracts) const {
  auto body = std::make_shared<CompiledGraph::Body>();
  body->name = name_;
  body->settings = settings_;
  body->entry = entry_;
  body->nodes = nodes_;

  std::vector<std::string> faults;
  std::string first_where;
  auto fault = [&](const std::string& where, const std::string& message) {
    if (first_where.empty()) first_where = where;
    faults.push_back(message);
  };

  // Contracts.
  auto resolve = [&](const std::string& contract_name, const contracts::Contract*& out, const char* what) {
    if (contract_name.empty()) return;
    if (contracts == nullptr) {
      fault(contract_name,
            std::string(what) + " contract \"" + contract_name + "\" named but no contract registry given");
      return;
    }
    core::Result<const contracts::Contract*> found = contracts->get(contract_name);
    if (!found) {
      fault(contract_name, std::string(what) + " contract: " + found.error().message);
      return;
    }
    out = *found;
  };
  resolve(settings_.state_contract, body->state_contract, "state");
  resolve(settings_.delta_contract, body->delta_contract, "delta");
  const std::optional<std::set<std::string>> state_keys = closed_properties(body->state_contract);

  // Nodes.
  for (std::size_t i = 0; i < body->nodes.size(); ++i) {
    CompiledNode& node = body->nodes[i];
    if (node.name.empty() || node.name == kStart || node.name == kEnd ||
        node.name.find('/') != std::string::npos) {
      fault(node.name, "node name \"" + node.name + "\" is empty, reserved or contains '/'");
      continue;
    }
    if (!body->index.emplace(node.name, i).second) fault(node.name, "node " + node.name + " is added twice");
    if (node.fan_out ? (!node.plan || !node.branch) : !node.function) {
      fault(node.name, "node " + node.name + " has no function");
    }
    if (node.policy.max_attempts < 1)
      fault(node.name, "node " + node.name + ": max_attempts must be at least 1");
    const bool writes_prompt = std::any_of(
        node.writes.begin(), node.writes.end(),
        [&](const std::string& key) { return key == settings_.message_key || key == settings_.prompt_key; });
    if (writes_prompt && node.kind != NodeKind::kDecision) {
      fault(node.name, "node " + node.name + " may interrupt (it writes " + settings_.message_key + "/" +
                           settings_.prompt_key + ") but is not declared a decision node");
    }
    for (const std::string& key : settings_.common_writes) node.writes.push_back(key);
    std::sort(node.writes.begin(), node.writes.end());
    node.writes.erase(std::unique(node.writes.begin(), node.writes.end()), node.writes.end());
    if (state_keys) {
      for (const std::string& key : node.writes) {
        if (state_keys->count(key) == 0) {
          fault(node.name, "node " + node.name + " declares key \"" + key + "\", which the state contract " +
                               settings_.state_contract + " does not have");
        }
      }
    }
  }
  if (state_keys) {
    for (const auto& [key, reducer] : settings_.reducers) {
      if (state_keys->count(key) == 0) fault(key, "reducer for unknown state key \"" + key + "\"");
    }
    const std::string& id_key = settings_.checkpoint_id_key;
    if (!id_key.empty() && state_keys->count(id_key) == 0)
      fault(id_key, "checkpoint id key \"" + id_key + "\" is no key of the state contract");
  }

  // Edges.
  for (const PendingEdge& edge : edges_) {
    auto it = body->index.find(edge.from);
    if (it == body->index.end()) {
      fault(edge.from, "edge from unknown node \"" + edge.from + "\"");
      continue;
    }
    CompiledNode& node = body->nodes[it->second];
    if (!node.next.empty() || node.router) {
      fault(node.name, "node " + node.name + " has more than one outgoing edge; use conditional edges");
      continue;
    }
    if (edge.router) {
      if (edge.targets.empty())
        fault(node.name, "conditional edges of node " + node.name + " declare no targets");
      for (const std::string& target : edge.targets) {
        if (!is_known(body->index, target)) {
          fault(node.name, "conditional edge from " + node.name + " to unknown node \"" + target + "\"");
        }
      }
      node.router = edge.router;
      node.targets = edge.targets;
    } else {
      if (!is_known(body->index, edge.to))
        fault(node.name, "edge from " + node.name + " to unknown node \"" + edge.to + "\"");
      node.next = edge.to;
    }
  }
  for (const CompiledNode& node : body->nodes) {
    if (node.next.empty() && !node.router) {
      fault(node.name, "node " + node.name + " has no outgoing edge (add one, or set_finish)");
    }
    if (!node.policy.error_route.empty() && !is_known(body->index, node.policy.error_route)) {
      fault(node.name,
            "node " + node.name + " has an error route to unknown node \"" + node.policy.error_route + "\"");
    }
  }

  // Entry and reachability.
  if (entry_.empty()) {
    fault("", "no entry node (call set_entry)");
  } else if (body->index.count(entry_) == 0) {
    fault(entry_, "entry node \"" + entry_ + "\" is unknown");
  } else if (faults.empty()) {
    std::set<std::string> seen{entry_};
    std::deque<std::string> queue{entry_};
    while (!queue.empty()) {
      const CompiledNode& node = body->nodes[body->index.at(queue.front())];
      queue.pop_front();
      std::vector<std::string> next = node.router ? node.targets : std::vector<std::string>{node.next};
      if (!node.policy.error_route.empty()) next.push_back(node.policy.error_route);
      for (const std::string& target : next) {
        if (target != kEnd && seen.insert(target).second) queue.push_back(target);
      }
    }
    for (const CompiledNode& node : body->nodes) {
      if (seen.count(node.name) == 0)
        fault(node.name, "node " + node.name + " is unreachable from " + entry_);
    }
  }

  if (!faults.empty()) {
    std::string message = "graph " + name_ + " does not compile:";
    for (const std::string& f : faults) message += "\n  " + f;
    return core::invalid_argument(std::move(message), first_where);
  }
  return CompiledGraph(std::move(body));
}

}  // namespace planfirst::graph
