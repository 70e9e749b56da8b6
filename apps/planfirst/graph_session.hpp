// What every command that runs a graph shares: the assets, contracts and graph registry (every
// pipeline planfirst ships), the checkpointer a --checkpointer URI names, and shell quoting for the
// commands it prints. The session must stay in place while graphs built from it run.
#pragma once

#include <memory>
#include <string>

#include "contracts/contract_registry.hpp"
#include "core/asset_store.hpp"
#include "core/result.hpp"
#include "graph/checkpointer.hpp"
#include "graph/compiled_graph.hpp"
#include "graph/graph_registry.hpp"
#include "graph/thread_retention.hpp"
#include "planfirst/cli.hpp"

namespace planfirst::cli {

struct GraphSession {
  core::AssetStore assets;
  contracts::ContractRegistry contracts;
  graph::GraphRegistry graphs;
  const core::Config* config = nullptr;

  // kNotFound (unknown name, listing the graphs) or the factory's error.
  core::Result<graph::CompiledGraph> build(const std::string& name) const;
};

// Every graph planfirst ships: the runtime's reference graph and the pipelines' graphs.
graph::GraphRegistry planfirst_graphs();

// The session for `ctx`; the contracts' error when they cannot be loaded.
core::Result<std::unique_ptr<GraphSession>> open_graph_session(const CliContext& ctx);

// The checkpointer `uri` names; empty: the default SQLite file under the user's data folder.
core::Result<std::unique_ptr<graph::Checkpointer>> open_checkpointer_or_default(const std::string& uri);

// The retention of whole threads the config asks for (checkpoint.keep_threads, checkpoint.keep_days; 0
// lifts that limit): `ask` applies it to the default store, `serve` to its store while it runs.
graph::ThreadRetention default_store_retention(const core::Config& config);

// `word` as one shell word: unchanged when it holds only safe characters, else single-quoted.
std::string shell_word(const std::string& word);

}  // namespace planfirst::cli
