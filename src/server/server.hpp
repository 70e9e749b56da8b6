// Server is `planfirst serve` assembled: the store (checkpoints, runs, event logs), the assistants,
// the run workers, the API and the HTTP listener, plus the retention sweep that applies the
// `threads prune` policy while it runs. start() binds and returns the port; wait() blocks until
// stop(), which ends streams, stops the workers (runs stay resumable) and closes the listener.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/asset_store.hpp"
#include "core/metrics.hpp"
#include "graph/checkpointer.hpp"
#include "graph/graph_registry.hpp"
#include "graph/thread_retention.hpp"
#include "server/api.hpp"
#include "server/assistants.hpp"
#include "server/event_bell.hpp"
#include "server/http_transport.hpp"
#include "server/run_manager.hpp"
#include "server/run_store.hpp"

namespace planfirst::server {

struct ServerOptions {
  HttpListenOptions listen;
  ApiOptions api;
  RunManagerOptions runs;
  graph::ThreadRetention retention;  // applied at start and every `prune_every`
  std::chrono::milliseconds prune_every{std::chrono::minutes(10)};
};

// Where the server keeps its state: one SQLite file (one process), or one PostgreSQL database that
// several processes share.
struct ServerStores {
  std::unique_ptr<graph::Checkpointer> checkpoints;
  std::unique_ptr<RunStore> runs;
};

// `uri` is "sqlite:PATH" (the folder is created) or "postgresql://...". kInvalidArgument otherwise.
core::Result<ServerStores> open_server_stores(const std::string& uri);

class Server {
 public:
  // REQUIRES: the registry and what `dependencies` borrows outlive the server.
  Server(const graph::GraphRegistry& registry, graph::GraphDependencies dependencies, ServerStores stores,
         ServerOptions options);
  ~Server();

  core::Result<int> start();  // the bound port
  void wait();                // until stop()
  void stop();
  bool stopping() const;  // stop() has told the workers: no node starts from now on

  Api& api() { return *api_; }
  core::MetricsRegistry& metrics() { return metrics_; }

 private:
  void sweep();

  ServerOptions options_;
  ServerStores stores_;
  core::AssetStore assets_;
  core::MetricsRegistry metrics_;
  EventBell bell_;
  Assistants assistants_;
  std::unique_ptr<RunManager> runs_;
  std::unique_ptr<Api> api_;
  std::unique_ptr<HttpListener> listener_;
  std::thread listening_;
  std::thread sweeping_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool stopped_ = false;  // guarded by mutex_
  bool started_ = false;  // guarded by mutex_
};

}  // namespace planfirst::server
