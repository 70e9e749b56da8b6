// Assistants are the registered graphs, served by name: each is compiled once, on first use, from the
// GraphRegistry every pipeline added itself to, so the server runs any of them without knowing one.
// Thread-safe; REQUIRES: the registry and what `dependencies` borrows outlive it.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "graph/compiled_graph.hpp"
#include "graph/graph_registry.hpp"

namespace planfirst::server {

class Assistants {
 public:
  Assistants(const graph::GraphRegistry& registry, graph::GraphDependencies dependencies)
      : registry_(registry), dependencies_(dependencies) {}

  std::vector<std::string> names() const { return registry_.names(); }
  // kNotFound naming the assistants when `name` is none of them; the graph's build error otherwise.
  core::Result<graph::CompiledGraph> graph(std::string_view name);
  // {"assistant_id", "graph_id", "name", "description", "config", "metadata"}.
  core::Json describe(std::string_view name) const;  // metadata.input: the graph's input keys
  graph::GraphInputs inputs(std::string_view name) const { return registry_.inputs(name); }
  // {"nodes": [{"id", "kind", "fan_out"}], "edges": [{"source", "target", "conditional"}]}.
  core::Result<core::Json> topology(std::string_view name);

 private:
  const graph::GraphRegistry& registry_;
  graph::GraphDependencies dependencies_;
  std::mutex mutex_;
  std::map<std::string, graph::CompiledGraph, std::less<>> built_;  // guarded by mutex_
};

}  // namespace planfirst::server
