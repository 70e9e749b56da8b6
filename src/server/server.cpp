#include "server/server.hpp"

#include <algorithm>
#include <filesystem>
#include <utility>

#include "core/logging.hpp"
#include "graph/postgres_checkpointer.hpp"
#include "graph/sqlite_checkpointer.hpp"
#include "server/postgres_run_store.hpp"
#include "server/sqlite_run_store.hpp"

namespace planfirst::server {
namespace {

// The checkpointer and the run store of one engine, over the same database.
template <typename Checkpoints, typename Runs, typename Target>
core::Result<ServerStores> open_both(const Target& target) {
  auto checkpoints = Checkpoints::open(target);
  if (!checkpoints) return checkpoints.error();
  auto runs = Runs::open(target);
  if (!runs) return runs.error();
  return ServerStores{std::move(*checkpoints), std::move(*runs)};
}

}  // namespace

core::Result<ServerStores> open_server_stores(const std::string& uri) {
  if (uri.starts_with("postgresql://") || uri.starts_with("postgres://")) {
    return open_both<graph::PostgresCheckpointer, PostgresRunStore>(uri);
  }
  if (!uri.starts_with("sqlite:")) {
    return core::invalid_argument("the server store is sqlite:PATH or postgresql://...: '" + uri + "'",
                                  "--store");
  }
  std::filesystem::path path = uri.substr(7);
  if (path.empty()) return core::invalid_argument("sqlite: needs a file path", "--store");
  std::error_code error;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), error);
  return open_both<graph::SqliteCheckpointer, SqliteRunStore>(path);
}

Server::Server(const graph::GraphRegistry& registry, graph::GraphDependencies dependencies,
               ServerStores stores, ServerOptions options)
    : options_(std::move(options)),
      stores_(std::move(stores)),
      assets_(dependencies.assets),
      assistants_(registry, dependencies) {
  runs_ = std::make_unique<RunManager>(assistants_, *stores_.checkpoints, *stores_.runs, bell_, metrics_,
                                       options_.runs);
  api_ = std::make_unique<Api>(assistants_, *stores_.checkpoints, *stores_.runs, *runs_, bell_, metrics_,
                               assets_, options_.api);
}

Server::~Server() {
  stop();
}

core::Result<int> Server::start() {
  core::Result<std::unique_ptr<HttpListener>> listener = make_http_listener();
  if (!listener) return listener.error();
  listener_ = std::move(*listener);
  HttpListenOptions listen = options_.listen;
  listen.max_payload_bytes = std::max(options_.api.max_body_bytes, options_.api.max_upload_bytes);
  const int port =
      listener_->bind(listen, [this](const HttpRequest& request) { return api_->handle(request); });
  if (port < 0) return core::unavailable(listener_->error(), options_.listen.host);
  runs_->start();
  {
    std::lock_guard lock(mutex_);
    started_ = true;
    stopped_ = false;
  }
  listening_ = std::thread([this] { listener_->listen(); });
  sweeping_ = std::thread([this] { sweep(); });
  return port;
}

void Server::wait() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return stopped_ || !started_; });
}

bool Server::stopping() const {
  return runs_ != nullptr && runs_->stopping();
}

void Server::stop() {
  {
    std::lock_guard lock(mutex_);
    if (!started_ || stopped_) return;
    stopped_ = true;
  }
  changed_.notify_all();
  api_->stop_streams();
  runs_->stop();
  listener_->stop();
  if (listening_.joinable()) listening_.join();
  if (sweeping_.joinable()) sweeping_.join();
}

void Server::sweep() {
  if (!options_.retention.limits()) return;
  for (;;) {
    core::Result<graph::ThreadPruneReport> pruned =
        graph::prune_threads(*stores_.checkpoints, options_.retention, std::chrono::system_clock::now());
    if (!pruned) {
      core::log_warn("retention: {}", pruned.error().describe());
    } else {
      for (const std::string& thread : pruned->removed) {
        if (auto deleted = stores_.runs->delete_thread(thread); !deleted)
          core::log_warn("retention: {}", deleted.error().describe());
      }
      if (!pruned->removed.empty())
        core::log_info("retention: {}", graph::describe(*pruned, options_.retention));
    }
    std::unique_lock lock(mutex_);
    if (changed_.wait_for(lock, options_.prune_every, [this] { return stopped_; })) return;
  }
}

}  // namespace planfirst::server
