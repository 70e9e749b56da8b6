// ServerFixture: `planfirst serve`'s server in this process on a free loopback port, over a SQLite
// store in a temporary folder, serving the pipelines' graphs (autoviz, analyst, retrieval), seed
// 003's reference graph as "reference", "checked" (one checkpoint that takes only "yes"), and "gated" (two
// steps; its first waits for the test to open a gate, so a test can act while a run is mid-node). Helpers
// read SSE streams into events.
#pragma once

#include <httplib.h>

#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "contracts/contract_registry.hpp"
#include "core/asset_store.hpp"
#include "graph/graph_builder.hpp"
#include "graph/graph_registry.hpp"
#include "graph/reference_graph.hpp"
#include "pipelines/analyst/analyst_graph.hpp"
#include "pipelines/autoviz/autoviz_graph.hpp"
#include "pipelines/retrieval/retrieval_graph.hpp"
#include "server/server.hpp"
#include "support/temp_dir.hpp"
#include "two_step_graph.hpp"

namespace planfirst::server::testing {

using nlohmann::json;

// A gate the "gated" graph's first node waits at; `entered` counts the nodes waiting or passed.
struct Gate {
  std::mutex mutex;
  std::condition_variable changed;
  bool open = false;
  int entered = 0;

  void pass() {
    std::unique_lock lock(mutex);
    ++entered;
    changed.notify_all();
    changed.wait(lock, [this] { return open; });
  }
  void wait_entered(int count) {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return entered >= count; });
  }
  void release() {
    std::lock_guard lock(mutex);
    open = true;
    changed.notify_all();
  }
};

inline graph::CompiledGraph gated_graph(Gate& gate) {
  core::Result<graph::CompiledGraph> compiled =
      two_step_graph("gated", [&gate](const graph::StateView&, const graph::NodeContext& ctx) {
        ctx.report_progress("waiting at the gate");
        gate.pass();
      });
  if (!compiled) throw std::runtime_error(compiled.error().describe());
  return *compiled;
}

struct Event {
  std::int64_t id = 0;
  std::string event;
  json data;
};

// Parses "id: N\nevent: E\ndata: D\n\n" frames; comments are skipped.
inline std::vector<Event> parse_sse(const std::string& body) {
  std::vector<Event> events;
  Event current;
  bool any = false;
  std::size_t start = 0;
  while (start < body.size()) {
    std::size_t end = body.find('\n', start);
    if (end == std::string::npos) end = body.size();
    const std::string line = body.substr(start, end - start);
    start = end + 1;
    if (line.empty()) {
      if (any) events.push_back(current);
      current = Event{};
      any = false;
    } else if (line.rfind("id: ", 0) == 0) {
      current.id = std::stoll(line.substr(4));
      any = true;
    } else if (line.rfind("event: ", 0) == 0) {
      current.event = line.substr(7);
      any = true;
    } else if (line.rfind("data: ", 0) == 0) {
      current.data = json::parse(line.substr(6));
      any = true;
    }
  }
  return events;
}

class ServerFixture {
 public:
  explicit ServerFixture(ServerOptions options = {}, bool start = true) {
    core::Result<contracts::ContractRegistry> loaded = contracts::ContractRegistry::load(assets_);
    if (!loaded) throw std::runtime_error(loaded.error().describe());
    contracts_ = std::make_unique<contracts::ContractRegistry>(std::move(*loaded));
    (void)autoviz::register_autoviz_graph(registry_);
    (void)retrieval::register_retrieval_graph(registry_);
    (void)analyst::register_analyst_graph(registry_);
    (void)registry_.add("reference", "seed 003's reference graph (test fixture)",
                        [](const graph::GraphDependencies& deps) {
                          return graph::testing::build_reference_graph(
                              graph::testing::reference_graph_deltas(), deps.contracts);
                        });
    (void)registry_.add("gated", "two steps; the first waits at the test's gate",
                        [this](const graph::GraphDependencies&) -> core::Result<graph::CompiledGraph> {
                          return gated_graph(gate);
                        });
    (void)registry_.add("checked", "one checkpoint whose answer must be yes",
                        [](const graph::GraphDependencies&) { return answer_checked_graph("checked"); });
    options.api.data_dir = dir_.path() / "data";
    options.runs.poll = std::chrono::milliseconds(20);
    options.api.stream_poll = std::chrono::milliseconds(20);
    options_ = options;
    open(start);
  }

  ~ServerFixture() {
    gate.release();  // a run still at the gate must pass it for the server to stop
    server_.reset();
  }

  // A server over the same store (after stop()): what a restart sees.
  void open(bool start = true) {
    core::Result<ServerStores> stores =
        open_server_stores("sqlite:" + (dir_.path() / "server.sqlite").string());
    if (!stores) throw std::runtime_error(stores.error().describe());
    server_ = std::make_unique<Server>(registry_, graph::GraphDependencies{assets_, *contracts_, nullptr},
                                       std::move(*stores), options_);
    if (!start) return;
    core::Result<int> port = server_->start();
    if (!port) throw std::runtime_error(port.error().describe());
    port_ = *port;
  }
  void stop() { server_->stop(); }

  Server& server() { return *server_; }
  const std::filesystem::path& dir() const { return dir_.path(); }
  std::unique_ptr<httplib::Client> client() const {
    auto client = std::make_unique<httplib::Client>("127.0.0.1", port_);
    client->set_read_timeout(std::chrono::seconds(60));
    return client;
  }

  json post(const std::string& path, const json& body, int expected = 200) const {
    auto result = client()->Post(path.c_str(), body.dump(), "application/json");
    if (!result) throw std::runtime_error("POST " + path + ": no response");
    if (result->status != expected)
      throw std::runtime_error("POST " + path + ": " + std::to_string(result->status) + " " + result->body);
    return result->body.empty() ? json() : json::parse(result->body);
  }
  json get(const std::string& path, int expected = 200) const {
    auto result = client()->Get(path.c_str());
    if (!result) throw std::runtime_error("GET " + path + ": no response");
    if (result->status != expected)
      throw std::runtime_error("GET " + path + ": " + std::to_string(result->status) + " " + result->body);
    return json::parse(result->body);
  }
  std::string stream(const std::string& path, const httplib::Headers& headers = {}) const {
    auto result = client()->Get(path.c_str(), headers);
    if (!result || result->status != 200)
      throw std::runtime_error("GET " + path + ": " + (result ? result->body : std::string("no response")));
    return result->body;
  }

  // A new thread for `assistant`; its id.
  std::string thread(const std::string& assistant) const {
    return post("/threads", json{{"assistant_id", assistant}})["thread_id"].get<std::string>();
  }

  Gate gate;

 private:
  test_support::TempDir dir_;
  core::AssetStore assets_;
  std::unique_ptr<contracts::ContractRegistry> contracts_;
  graph::GraphRegistry registry_;
  ServerOptions options_;
  std::unique_ptr<Server> server_;
  int port_ = 0;
};

}  // namespace planfirst::server::testing
