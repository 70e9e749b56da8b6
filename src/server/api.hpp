// Api answers the HTTP routes of `planfirst serve`, modelled on the LangGraph Agent Server API:
// assistants (the registered graphs), threads (create, search, state, history), runs (queued in the
// background, streamed over SSE from their durable event log, joined, cancelled; interrupts resumed
// by checkpoint id), datasets (upload) and artifacts (download), plus /healthz, /metrics and
// /openapi.json. Errors are JSON: {"error": {"code", "message", "where"}, "detail"}. Thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/asset_store.hpp"
#include "core/metrics.hpp"
#include "graph/checkpointer.hpp"
#include "server/access_guard.hpp"
#include "server/assistants.hpp"
#include "server/event_bell.hpp"
#include "server/http_transport.hpp"
#include "server/run_manager.hpp"
#include "server/run_store.hpp"

namespace planfirst::server {

struct ApiOptions {
  std::vector<std::string> api_keys;  // empty: no key needed
  double rate_per_second = 0;         // per client address; <= 0: unlimited
  double rate_burst = 50;
  std::size_t max_body_bytes = 1 << 20;         // JSON bodies
  std::size_t max_upload_bytes = 256 << 20;     // POST /datasets
  std::filesystem::path data_dir;               // datasets/ and artifacts/<thread_id>/ live here
  std::filesystem::path web_dir;                // static files of the web page; empty: none
  std::filesystem::path examples_dir;           // bundled example datasets (GET /examples); empty: none
  std::chrono::milliseconds stream_poll{250};   // a stream rechecks the log this often at least
  std::chrono::milliseconds keepalive{15'000};  // an idle stream sends an SSE comment this often
};

struct Route {
  std::string method;
  std::string path;  // OpenAPI template: "/threads/{thread_id}/runs"
};

class Api {
 public:
  // REQUIRES: all borrowed parts outlive the Api.
  Api(Assistants& assistants, graph::Checkpointer& checkpoints, RunStore& store, RunManager& runs,
      EventBell& bell, core::MetricsRegistry& metrics, const core::AssetStore& assets, ApiOptions options);

  HttpResponse handle(const HttpRequest& request);
  void stop_streams();  // open streams end at their next check (shutdown)

  static const std::vector<Route>& routes();  // every route handle() answers, for /openapi.json's test

 private:
  struct Call;
  using Handler = HttpResponse (Api::*)(const Call&);
  struct Entry {
    Route route;
    Handler handler;
  };
  static const std::vector<Entry>& table();

  HttpResponse dispatch(const HttpRequest& request);
  HttpResponse health(const Call& call);
  HttpResponse metrics(const Call& call);
  HttpResponse openapi(const Call& call);
  HttpResponse search_assistants(const Call& call);
  HttpResponse get_assistant(const Call& call);
  HttpResponse assistant_graph(const Call& call);
  HttpResponse create_thread(const Call& call);
  HttpResponse search_threads(const Call& call);
  HttpResponse get_thread(const Call& call);
  HttpResponse delete_thread(const Call& call);
  HttpResponse thread_state(const Call& call);
  HttpResponse thread_history(const Call& call);
  HttpResponse create_run(const Call& call);
  HttpResponse create_run_stream(const Call& call);
  HttpResponse create_run_wait(const Call& call);
  HttpResponse list_runs(const Call& call);
  HttpResponse get_run(const Call& call);
  HttpResponse join_run(const Call& call);
  HttpResponse cancel_run(const Call& call);
  HttpResponse stream_run(const Call& call);
  HttpResponse upload_dataset(const Call& call);
  HttpResponse list_examples(const Call& call);
  HttpResponse use_example(const Call& call);
  HttpResponse list_artifacts(const Call& call);
  HttpResponse get_artifact(const Call& call);
  HttpResponse static_file(const HttpRequest& request);

  // Under the data folder: a thread's artifacts/<thread_id>/, and datasets/ for uploads.
  std::filesystem::path artifacts_dir(const std::string& thread_id) const;
  std::filesystem::path datasets_dir() const;
  // Stores `bytes` as datasets/<new id>/`name` after checking its type: the Dataset JSON (201), or the error.
  HttpResponse store_dataset(const std::string& name, std::string_view bytes, core::Json extra);
  core::Result<void> place_files(const std::string& assistant_id, const std::string& thread_id,
                                 core::Json& input) const;
  // What the graph's answer function says of `answer` to the interrupt at `head`: its error, if any.
  core::Result<void> check_answer(const std::string& assistant_id, const std::string& thread_id,
                                  const graph::CheckpointRecord& head, const std::string& answer);
  core::Result<RunRecord> queue_run(const Call& call);
  core::Result<core::Json> thread_json(const ThreadRecord& thread, bool with_values);
  core::Result<core::Json> state_json(const std::string& thread_id, const graph::CheckpointRecord& record);
  core::Result<RunRecord> run_of(const Call& call);
  core::Result<RunRecord> wait_final(const std::string& run_id);
  // Once the run ends: it with the thread's values and interrupts.
  HttpResponse final_outcome(const std::string& run_id);
  HttpResponse event_stream(const RunRecord& run, std::int64_t after, std::vector<std::string> modes);

  Assistants& assistants_;
  graph::Checkpointer& checkpoints_;
  RunStore& store_;
  RunManager& runs_;
  EventBell& bell_;
  core::MetricsRegistry& metrics_;
  const core::AssetStore& assets_;
  ApiOptions options_;
  AccessGuard guard_;
  std::atomic<bool> stopping_{false};
};

// The JSON error response for `error` (status from its code).
HttpResponse error_response(const core::Error& error);

}  // namespace planfirst::server
