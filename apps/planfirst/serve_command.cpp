// planfirst serve [--host H] [--port P] [--store URI] [--data-dir DIR] [--web DIR] [--workers N]
//   [--max-body-bytes B] [--max-upload-bytes B] [--rate-limit R] [--rate-burst N] [--port-file FILE]
// The HTTP API (server/api.hpp) over every registered graph until SIGTERM or SIGINT, which stops it
// gracefully: open streams end, running runs stop before their next node and stay queued.
#include <signal.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "core/config.hpp"
#include "planfirst/cli.hpp"
#include "planfirst/graph_session.hpp"
#include "server/access_guard.hpp"
#include "server/server.hpp"

namespace planfirst::cli {
namespace {

struct ServeArgs {
  std::string host = "127.0.0.1";
  int port = 8123;
  std::string store;
  std::string data_dir;
  std::string web_dir;
  std::string examples_dir;
  std::string port_file;
  std::size_t workers = 4;
  std::size_t http_threads = 64;
  std::size_t max_body_bytes = 1 << 20;
  std::size_t max_upload_bytes = 256 << 20;
  double rate_limit = 0;
  double rate_burst = 50;
  int lease_seconds = 15;
};

// $XDG_DATA_HOME/planfirst/server, else ~/.local/share/planfirst/server, else ./planfirst-server.
std::filesystem::path default_data_dir(const core::Environment& env) {
  if (auto xdg = env.find("XDG_DATA_HOME"); xdg != env.end() && !xdg->second.empty())
    return std::filesystem::path(xdg->second) / "planfirst" / "server";
  if (auto home = env.find("HOME"); home != env.end() && !home->second.empty())
    return std::filesystem::path(home->second) / ".local" / "share" / "planfirst" / "server";
  return "planfirst-server";
}

int run_serve(const CliContext& ctx, const ServeArgs& args) {
  // SIGTERM and SIGINT are taken by sigwait below, in no other thread (they inherit this mask).
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);

  const core::Environment env = core::process_environment();
  core::Result<std::unique_ptr<GraphSession>> session = open_graph_session(ctx);
  if (!session) {
    std::cerr << "planfirst serve: " << session.error().describe() << "\n";
    return kExitInputError;
  }
  server::ServerOptions options;
  options.listen.host = args.host;
  options.listen.port = args.port;
  options.listen.threads = args.http_threads;
  options.api.data_dir = args.data_dir.empty() ? default_data_dir(env) : std::filesystem::path(args.data_dir);
  options.api.max_body_bytes = args.max_body_bytes;
  options.api.max_upload_bytes = args.max_upload_bytes;
  options.api.rate_per_second = args.rate_limit;
  options.api.rate_burst = args.rate_burst;
  if (auto keys = env.find("PLANFIRST_API_KEYS"); keys != env.end())
    options.api.api_keys = server::parse_api_keys(keys->second);
  std::error_code error;
  if (!args.web_dir.empty()) {
    options.api.web_dir = args.web_dir;
  } else if (std::filesystem::is_directory(PLANFIRST_WEB_DIST, error)) {
    options.api.web_dir = PLANFIRST_WEB_DIST;
  }
  if (!args.examples_dir.empty()) {
    options.api.examples_dir = args.examples_dir;
  } else if (std::filesystem::is_directory(PLANFIRST_EXAMPLES_DIR, error)) {
    options.api.examples_dir = PLANFIRST_EXAMPLES_DIR;
  }
  options.runs.workers = args.workers;
  options.runs.lease = std::chrono::seconds(args.lease_seconds);
  options.retention = default_store_retention(ctx.config);
  const std::string store_uri =
      args.store.empty() ? "sqlite:" + (options.api.data_dir / "server.sqlite").string() : args.store;
  core::Result<server::ServerStores> stores = server::open_server_stores(store_uri);
  if (!stores) {
    std::cerr << "planfirst serve: " << stores.error().describe() << "\n";
    return stores.error().code == core::ErrorCode::kInvalidArgument ? kExitUsage : kExitInputError;
  }

  const GraphSession& graphs = **session;
  server::Server server(graphs.graphs,
                        graph::GraphDependencies{graphs.assets, graphs.contracts, graphs.config},
                        std::move(*stores), options);
  core::Result<int> port = server.start();
  if (!port) {
    std::cerr << "planfirst serve: " << port.error().describe() << "\n";
    return kExitInputError;
  }
  if (!args.port_file.empty()) std::ofstream(args.port_file) << *port << "\n";
  std::cerr << "planfirst serve: listening on http://" << args.host << ":" << *port << " (store " << store_uri
            << ", " << args.workers << " workers"
            << (options.api.api_keys.empty() ? "" : ", API keys required")
            << (options.api.web_dir.empty() ? "" : ", web page from " + options.api.web_dir.string()) << ")"
            << std::endl;
  int signal = 0;
  sigwait(&signals, &signal);
  std::cerr << "planfirst serve: stopping (" << (signal == SIGTERM ? "SIGTERM" : "SIGINT")
            << "); running runs stay queued" << std::endl;
  server.stop();
  return kExitOk;
}

}  // namespace

void add_serve_command(CLI::App& app, CliContext& ctx) {
  auto args = std::make_shared<ServeArgs>();
  CLI::App* serve = app.add_subcommand(
      "serve",
      "HTTP API over every registered graph (assistants, threads, runs, SSE streams, datasets, artifacts), "
      "until SIGTERM. API keys: PLANFIRST_API_KEYS=key1,key2.");
  serve->add_option("--host", args->host, "Address to listen on (default 127.0.0.1)");
  serve->add_option("--port", args->port, "Port (default 8123; 0: a free one, see --port-file)")
      ->check(CLI::Range(0, 65535));
  serve->add_option("--store", args->store, "sqlite:PATH (default: server.sqlite in --data-dir)");
  serve->add_option(
      "--data-dir", args->data_dir,
      "Folder of the store, uploaded datasets and artifacts (default $XDG_DATA_HOME/planfirst/server)");
  serve
      ->add_option("--web", args->web_dir,
                   "Folder of the web page's files (default: the built web/dist if present)")
      ->check(CLI::ExistingDirectory);
  serve
      ->add_option("--examples", args->examples_dir,
                   "Folder of the example datasets the page offers (default: the checkout's examples/)")
      ->check(CLI::ExistingDirectory);
  serve->add_option("--workers", args->workers, "Runs executed at once (default 4)")
      ->check(CLI::Range(1, 256));
  serve
      ->add_option("--http-threads", args->http_threads,
                   "Connections served at once, streams included (default 64)")
      ->check(CLI::Range(2, 4096));
  serve->add_option("--max-body-bytes", args->max_body_bytes, "Largest JSON request body (default 1 MiB)");
  serve->add_option("--max-upload-bytes", args->max_upload_bytes, "Largest dataset upload (default 256 MiB)");
  serve->add_option("--rate-limit", args->rate_limit,
                    "Requests per second per client address (default 0: none)");
  serve->add_option("--rate-burst", args->rate_burst, "Requests a client may send at once (default 50)");
  serve
      ->add_option("--lease-seconds", args->lease_seconds,
                   "A run whose process stops renewing its lease is taken over after this (default 15)")
      ->check(CLI::Range(1, 3600));
  serve->add_option("--port-file", args->port_file, "Write the bound port to this file once listening");
  serve->callback([&ctx, args] {
    if (prepare_run(ctx)) ctx.exit_code = run_serve(ctx, *args);
  });
}

}  // namespace planfirst::cli
