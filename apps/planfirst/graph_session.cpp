#include "planfirst/graph_session.hpp"

#include "core/config.hpp"
#include "graph/open_checkpointer.hpp"
#include "pipelines/analyst/analyst_graph.hpp"
#include "pipelines/autoviz/autoviz_graph.hpp"
#include "pipelines/friction/friction_graph.hpp"
#include "pipelines/retrieval/retrieval_graph.hpp"

namespace planfirst::cli {

core::Result<graph::CompiledGraph> GraphSession::build(const std::string& name) const {
  return graphs.build(name, graph::GraphDependencies{assets, contracts, config});
}

graph::GraphRegistry planfirst_graphs() {
  graph::GraphRegistry registry;
  (void)autoviz::register_autoviz_graph(registry);  // a name clash is a programming error, caught by tests
  (void)retrieval::register_retrieval_graph(registry);
  (void)analyst::register_analyst_graph(registry);
  (void)friction::register_friction_graph(registry);
  return registry;
}

core::Result<std::unique_ptr<GraphSession>> open_graph_session(const CliContext& ctx) {
  core::AssetStore assets = asset_store(ctx);
  core::Result<contracts::ContractRegistry> contracts = contracts::ContractRegistry::load(assets);
  if (!contracts) return contracts.error();
  return std::make_unique<GraphSession>(
      GraphSession{std::move(assets), std::move(*contracts), planfirst_graphs(), &ctx.config});
}

core::Result<std::unique_ptr<graph::Checkpointer>> open_checkpointer_or_default(const std::string& uri) {
  return graph::open_checkpointer(uri.empty() ? graph::default_checkpointer_uri(core::process_environment())
                                              : uri);
}

graph::ThreadRetention default_store_retention(const core::Config& config) {
  graph::ThreadRetention retention;
  if (const std::int64_t threads = config.get_int("checkpoint.keep_threads"); threads > 0)
    retention.keep_threads = static_cast<std::size_t>(threads);
  if (const std::int64_t days = config.get_int("checkpoint.keep_days"); days > 0)
    retention.max_age = std::chrono::hours(24 * days);
  return retention;
}

std::string shell_word(const std::string& word) {
  const bool safe = !word.empty() && word.find_first_not_of(
                                         "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                         "0123456789_./:=@%+-") == std::string::npos;
  if (safe) return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace planfirst::cli
