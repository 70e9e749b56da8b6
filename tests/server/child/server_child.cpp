// server_child STORE_URI PORT_FILE LEASE_MS: a `planfirst serve` server (server/server.hpp) over
// STORE_URI, serving "file_gated": its first node writes GATE/entered and waits for GATE/open (GATE
// from the input's "gate_dir"), its second finishes. Writes its port to PORT_FILE and serves until
// killed; the scale-out tests start two and kill the one running a run.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "../two_step_graph.hpp"
#include "contracts/contract_registry.hpp"
#include "core/asset_store.hpp"
#include "graph/graph_builder.hpp"
#include "graph/graph_registry.hpp"
#include "server/server.hpp"

namespace {

using namespace planfirst;

core::Result<graph::CompiledGraph> file_gated_graph() {
  return server::testing::two_step_graph(
      "file_gated", [](const graph::StateView& state, const graph::NodeContext& ctx) {
        const std::filesystem::path gate = state.json().value("gate_dir", "");
        ctx.report_progress("at the gate");
        std::ofstream(gate / "entered") << getpid();
        while (!std::filesystem::exists(gate / "open"))
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        ctx.report_progress("through the gate");
      });
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: server_child STORE_URI PORT_FILE LEASE_MS\n";
    return 2;
  }
  core::AssetStore assets;
  core::Result<contracts::ContractRegistry> contracts = contracts::ContractRegistry::load(assets);
  if (!contracts) return 3;
  graph::GraphRegistry registry;
  (void)registry.add("file_gated", "waits for a file",
                     [](const graph::GraphDependencies&) { return file_gated_graph(); });
  core::Result<server::ServerStores> stores = server::open_server_stores(argv[1]);
  if (!stores) {
    std::cerr << stores.error().describe() << "\n";
    return 3;
  }
  server::ServerOptions options;
  options.runs.lease = std::chrono::milliseconds(std::stoi(argv[3]));
  options.runs.poll = std::chrono::milliseconds(50);
  options.api.stream_poll = std::chrono::milliseconds(50);
  server::Server server(registry, graph::GraphDependencies{assets, *contracts, nullptr}, std::move(*stores),
                        options);
  core::Result<int> port = server.start();
  if (!port) {
    std::cerr << port.error().describe() << "\n";
    return 3;
  }
  const std::string file = argv[2];
  std::ofstream(file + ".tmp") << *port;
  std::filesystem::rename(file + ".tmp", file);
  server.wait();
  return 0;
}
