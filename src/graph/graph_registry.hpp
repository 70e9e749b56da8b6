// GraphRegistry maps a pipeline's name to a factory that builds its compiled graph, so the CLI and
// the server can list graphs and run any of them by name. Built once at start-up (no global
// registry): each pipeline adds its own graph, and the runtime itself ships none. Immutable after
// registration; threads may share a const one.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "contracts/contract_registry.hpp"
#include "core/asset_store.hpp"
#include "core/result.hpp"
#include "graph/compiled_graph.hpp"

namespace planfirst::core {
class Config;
}

namespace planfirst::graph {

// What a graph factory may use. REQUIRES: all outlive the graphs built from them.
struct GraphDependencies {
  const core::AssetStore& assets;
  const contracts::ContractRegistry& contracts;
  const core::Config* config = nullptr;  // the run's configuration; nullptr: defaults
};

using GraphFactory = std::function<core::Result<CompiledGraph>(const GraphDependencies&)>;

// The input keys a graph reads, so a server or a page can start it without knowing the graph: the
// file to analyse, the user's question ("messages": appended as a human message) and the folder its
// files go to. "" when the graph has no such input.
struct GraphInputs {
  std::string dataset;
  std::string question;
  std::string out_dir;
};

class GraphRegistry {
 public:
  // kInvalidArgument when `name` is already registered.
  core::Result<void> add(std::string name, std::string description, GraphFactory factory,
                         GraphInputs inputs = {});

  std::vector<std::string> names() const;                // sorted
  std::string description(std::string_view name) const;  // "" when absent
  GraphInputs inputs(std::string_view name) const;       // all "" when absent
  // kNotFound listing the known names when absent; the factory's error otherwise.
  core::Result<CompiledGraph> build(std::string_view name, const GraphDependencies& dependencies) const;

 private:
  struct Entry {
    std::string description;
    GraphFactory factory;
    GraphInputs inputs;
  };
  std::map<std::string, Entry, std::less<>> entries_;
};

}  // namespace planfirst::graph
