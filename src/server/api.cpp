#include "server/api.hpp"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

#include "core/error_json.hpp"
#include "core/file_text.hpp"
#include "core/ids.hpp"
#include "core/timestamp.hpp"
#include "core/utf8.hpp"
#include "graph/runner.hpp"
#include "graph/state_assembler.hpp"
#include "server/examples.hpp"
#include "server/safe_path.hpp"

namespace planfirst::server {

struct Api::Call {
  const HttpRequest& request;
  std::map<std::string, std::string> params;  // from the path template
  core::Json body;                            // the parsed JSON body (an object), or null
};

namespace {

constexpr std::size_t kEventPage = 500;
const std::vector<std::string> kAllModes{"values", "updates", "custom", "events"};

int status_for(core::ErrorCode code) {
  switch (code) {
    case core::ErrorCode::kInvalidArgument: return 400;
    case core::ErrorCode::kNotFound: return 404;
    case core::ErrorCode::kFailedPrecondition:
    case core::ErrorCode::kConflict: return 409;
    case core::ErrorCode::kUnavailable: return 503;
    case core::ErrorCode::kInternal: return 500;
  }
  return 500;
}

HttpResponse json_response(int status, const core::Json& body) {
  HttpResponse response;
  response.status = status;
  response.body = body.dump();
  return response;
}

HttpResponse plain_error(int status, std::string code, std::string message, NameValues headers = {}) {
  HttpResponse response = json_response(
      status, core::Json{{"error", {{"code", std::move(code)}, {"message", message}, {"where", ""}}},
                         {"detail", message}});
  response.headers = std::move(headers);
  return response;
}

std::string iso_time(Millis millis) {
  return core::format_utc_timestamp(std::chrono::system_clock::time_point(std::chrono::milliseconds(millis)));
}

// A path segment a thread or run id may be: letters, digits, '-', '_', '.', at most 128.
bool safe_id(std::string_view id) {
  return !id.empty() && id.size() <= 128 && id != "." && id != ".." &&
         std::all_of(id.begin(), id.end(), [](char c) {
           return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                  c == '_' || c == '.';
         });
}

// Matches `path` against a template; fills `params`. "{path}" as the last segment takes the rest.
bool match(std::string_view pattern, std::string_view path, std::map<std::string, std::string>& params) {
  params.clear();
  auto next = [](std::string_view& rest) {
    if (!rest.empty() && rest.front() == '/') rest.remove_prefix(1);
    const std::size_t slash = rest.find('/');
    std::string_view part = rest.substr(0, slash);
    rest.remove_prefix(slash == std::string_view::npos ? rest.size() : slash);
    return part;
  };
  std::string_view p = pattern;
  std::string_view s = path;
  while (!p.empty()) {
    const std::string_view want = next(p);
    if (want == "{path}" && p.empty()) {
      if (!s.empty() && s.front() == '/') s.remove_prefix(1);
      if (s.empty()) return false;
      params["path"] = std::string(s);
      return true;
    }
    if (s.empty()) return false;
    const std::string_view got = next(s);
    if (want.starts_with("{")) {
      if (got.empty()) return false;
      params[std::string(want.substr(1, want.size() - 2))] = std::string(got);
    } else if (want != got) {
      return false;
    }
  }
  return s.empty() || s == "/";
}

// The stream modes a request names ("values,updates" or a JSON array); `fallback` when none.
core::Result<std::vector<std::string>> stream_modes(const core::Json& named,
                                                    std::vector<std::string> fallback) {
  if (named.is_null()) return fallback;
  std::vector<std::string> modes;
  auto add = [&](const core::Json& value) -> core::Result<void> {
    if (!value.is_string()) return core::invalid_argument("a stream mode is a string", "stream_mode");
    std::string text = value.get<std::string>();
    std::stringstream parts(text);
    std::string mode;
    while (std::getline(parts, mode, ',')) {
      if (mode.empty()) continue;
      if (std::find(kAllModes.begin(), kAllModes.end(), mode) == kAllModes.end()) {
        return core::invalid_argument(
            "unknown stream mode '" + mode + "'; the modes are values, updates, custom, events",
            "stream_mode");
      }
      if (std::find(modes.begin(), modes.end(), mode) == modes.end()) modes.push_back(mode);
    }
    return core::ok();
  };
  if (named.is_array()) {
    for (const core::Json& value : named) {
      if (auto ok = add(value); !ok) return ok.error();
    }
  } else if (auto ok = add(named); !ok) {
    return ok.error();
  }
  if (modes.empty()) return fallback;
  return modes;
}

std::vector<std::string> split_modes(const std::string& text) {
  std::vector<std::string> modes;
  std::stringstream parts(text);
  std::string mode;
  while (std::getline(parts, mode, ',')) {
    if (!mode.empty()) modes.push_back(mode);
  }
  return modes;
}

std::string join_modes(const std::vector<std::string>& modes) {
  std::string text;
  for (const std::string& mode : modes) text += (text.empty() ? "" : ",") + mode;
  return text;
}

core::Json run_json(const RunRecord& run) {
  core::Json json{{"run_id", run.run_id},
                  {"thread_id", run.thread_id},
                  {"assistant_id", run.assistant_id},
                  {"status", to_string(run.status)},
                  {"multitask_strategy", run.multitask_strategy},
                  {"stream_mode", split_modes(run.stream_modes)},
                  {"attempt", run.attempt},
                  {"worker_id", run.worker},
                  {"created_at", iso_time(run.created_at)},
                  {"updated_at", iso_time(run.updated_at)}};
  if (!run.resume_checkpoint_id.empty()) json["checkpoint_id"] = run.resume_checkpoint_id;
  const core::Json result = core::Json::parse(run.result_json, nullptr, false);
  if (is_final(run.status) && result.is_object()) json["result"] = result;
  return json;
}

std::size_t size_param(const HttpRequest& request, const core::Json& body, const char* name,
                       std::size_t fallback, std::size_t max) {
  std::size_t value = fallback;
  if (body.is_object() && body.contains(name) && body[name].is_number_unsigned()) {
    value = body[name].get<std::size_t>();
  } else if (request.has_query(name)) {
    try {
      value = std::stoul(request.query_value(name));
    } catch (const std::exception&) {
      value = fallback;
    }
  }
  return std::min(value, max);
}

// What an uploaded file is, judged by its name and its first bytes; kInvalidArgument saying why not.
core::Result<std::string> dataset_type(const std::string& name, std::string_view bytes) {
  const std::string extension = std::filesystem::path(name).extension().string();
  if (extension == ".parquet") {
    if (bytes.size() < 8 || bytes.substr(0, 4) != "PAR1" || bytes.substr(bytes.size() - 4) != "PAR1")
      return core::invalid_argument("the file is named .parquet but is no Parquet file (no PAR1 magic)",
                                    name);
    return std::string("parquet");
  }
  if (extension == ".duckdb") {
    if (bytes.size() < 12 || bytes.substr(8, 4) != "DUCK")
      return core::invalid_argument("the file is named .duckdb but is no DuckDB database", name);
    return std::string("duckdb");
  }
  if (extension == ".csv" || extension == ".tsv" || extension == ".json" || extension == ".jsonl") {
    if (bytes.find('\0') != std::string_view::npos || core::first_invalid_utf8(bytes))
      return core::invalid_argument("the file is not UTF-8 text: " + core::invalid_utf8_message(bytes), name);
    if (extension == ".json") {
      const std::size_t first = bytes.find_first_not_of(" \t\r\n");
      if (first == std::string_view::npos || (bytes[first] != '[' && bytes[first] != '{'))
        return core::invalid_argument("the file is named .json but does not start with [ or {", name);
    }
    return extension.substr(1);
  }
  return core::invalid_argument("datasets are .csv, .tsv, .json, .jsonl, .parquet or .duckdb files", name);
}

HttpResponse file_response(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  HttpResponse response;
  response.content_type = content_type_for(file);
  response.body = bytes.str();
  return response;
}

bool safe_file_name(std::string_view name) {
  return safe_id(name) && name.front() != '.';
}

}  // namespace

HttpResponse error_response(const core::Error& error) {
  return json_response(status_for(error.code),
                       core::Json{{"error", core::error_json(error)}, {"detail", error.describe()}});
}

Api::Api(Assistants& assistants, graph::Checkpointer& checkpoints, RunStore& store, RunManager& runs,
         EventBell& bell, core::MetricsRegistry& metrics, const core::AssetStore& assets, ApiOptions options)
    : assistants_(assistants),
      checkpoints_(checkpoints),
      store_(store),
      runs_(runs),
      bell_(bell),
      metrics_(metrics),
      assets_(assets),
      options_(std::move(options)),
      guard_(options_.api_keys, options_.rate_per_second, options_.rate_burst) {
  metrics_.describe("planfirst_server_requests_total", core::MetricType::kCounter,
                    "HTTP requests by response status");
  metrics_.describe("planfirst_server_request_seconds", core::MetricType::kHistogram, "HTTP request latency");
  metrics_.describe("planfirst_server_runs_total", core::MetricType::kCounter, "Runs ended, by final status");
  metrics_.describe("planfirst_server_steps_total", core::MetricType::kCounter,
                    "Graph steps (node deltas) run");
  metrics_.describe("planfirst_server_events_total", core::MetricType::kCounter,
                    "Events appended to run logs");
  metrics_.describe("planfirst_server_queue_depth", core::MetricType::kGauge, "Runs waiting in the queue");
  metrics_.describe("planfirst_server_runs_active", core::MetricType::kGauge,
                    "Runs executing in this process");
  metrics_.describe("planfirst_server_event_lag_seconds", core::MetricType::kHistogram,
                    "From an event's append to its delivery on a stream");
}

void Api::stop_streams() {
  stopping_ = true;
  bell_.ring_all();
}

const std::vector<Api::Entry>& Api::table() {
  static const std::vector<Entry> kTable{
      {{"GET", "/healthz"}, &Api::health},
      {{"GET", "/metrics"}, &Api::metrics},
      {{"GET", "/openapi.json"}, &Api::openapi},
      {{"POST", "/assistants/search"}, &Api::search_assistants},
      {{"GET", "/assistants/{assistant_id}"}, &Api::get_assistant},
      {{"GET", "/assistants/{assistant_id}/graph"}, &Api::assistant_graph},
      {{"POST", "/threads"}, &Api::create_thread},
      {{"POST", "/threads/search"}, &Api::search_threads},
      {{"GET", "/threads/{thread_id}"}, &Api::get_thread},
      {{"DELETE", "/threads/{thread_id}"}, &Api::delete_thread},
      {{"GET", "/threads/{thread_id}/state"}, &Api::thread_state},
      {{"GET", "/threads/{thread_id}/history"}, &Api::thread_history},
      {{"POST", "/threads/{thread_id}/history"}, &Api::thread_history},
      {{"POST", "/threads/{thread_id}/runs"}, &Api::create_run},
      {{"GET", "/threads/{thread_id}/runs"}, &Api::list_runs},
      {{"POST", "/threads/{thread_id}/runs/stream"}, &Api::create_run_stream},
      {{"POST", "/threads/{thread_id}/runs/wait"}, &Api::create_run_wait},
      {{"GET", "/threads/{thread_id}/runs/{run_id}"}, &Api::get_run},
      {{"GET", "/threads/{thread_id}/runs/{run_id}/join"}, &Api::join_run},
      {{"POST", "/threads/{thread_id}/runs/{run_id}/cancel"}, &Api::cancel_run},
      {{"GET", "/threads/{thread_id}/runs/{run_id}/stream"}, &Api::stream_run},
      {{"POST", "/datasets"}, &Api::upload_dataset},
      {{"GET", "/examples"}, &Api::list_examples},
      {{"POST", "/examples/{name}/dataset"}, &Api::use_example},
      {{"GET", "/threads/{thread_id}/artifacts"}, &Api::list_artifacts},
      {{"GET", "/threads/{thread_id}/artifacts/{path}"}, &Api::get_artifact},
  };
  return kTable;
}

const std::vector<Route>& Api::routes() {
  static const std::vector<Route> kRoutes = [] {
    std::vector<Route> routes;
    for (const Entry& entry : table()) routes.push_back(entry.route);
    return routes;
  }();
  return kRoutes;
}

HttpResponse Api::handle(const HttpRequest& request) {
  const auto started = std::chrono::steady_clock::now();
  HttpResponse response = dispatch(request);
  metrics_.counter("planfirst_server_requests_total", {{"status", std::to_string(response.status)}}).inc();
  if (!response.stream) {
    metrics_.histogram("planfirst_server_request_seconds")
        .observe(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  }
  return response;
}

HttpResponse Api::dispatch(const HttpRequest& request) {
  const Entry* found = nullptr;
  std::map<std::string, std::string> params;
  bool path_known = false;
  for (const Entry& entry : table()) {
    if (!match(entry.route.path, request.path, params)) continue;
    path_known = true;
    if (entry.route.method == request.method) {
      found = &entry;
      break;
    }
  }
  if (found == nullptr && path_known) {
    return plain_error(405, "method_not_allowed", request.method + " is not allowed on " + request.path);
  }
  if (found == nullptr) {
    if (request.method == "GET" && !options_.web_dir.empty()) return static_file(request);
    return plain_error(404, "no_route", "no route " + request.method + " " + request.path);
  }
  double retry_after = 0;
  if (!guard_.admit(request.remote_address, std::chrono::steady_clock::now(), &retry_after)) {
    return plain_error(429, "rate_limited", "too many requests; retry later",
                       {{"Retry-After", std::to_string(static_cast<int>(retry_after) + 1)}});
  }
  if (guard_.keys_required() && found->route.path != "/healthz") {
    std::string key = request.header("X-Api-Key");
    const std::string authorization = request.header("Authorization");
    if (key.empty() && authorization.starts_with("Bearer ")) key = authorization.substr(7);
    if (!guard_.key_accepted(key))
      return plain_error(401, "unauthorized",
                         "a valid API key is required (X-Api-Key or Authorization: Bearer)");
  }
  const bool upload = found->route.path == "/datasets";
  if (request.body.size() > (upload ? options_.max_upload_bytes : options_.max_body_bytes)) {
    return plain_error(413, "payload_too_large",
                       "the body has " + std::to_string(request.body.size()) + " bytes; at most " +
                           std::to_string(upload ? options_.max_upload_bytes : options_.max_body_bytes) +
                           " are accepted");
  }
  Call call{request, std::move(params), nullptr};
  for (const auto& [name, value] : call.params) {
    if (name != "path" && !safe_id(value))
      return error_response(core::invalid_argument("'" + value + "' is no valid id", name));
  }
  if (!upload && !request.body.empty()) {
    call.body = core::Json::parse(request.body, nullptr, false);
    if (call.body.is_discarded() || !call.body.is_object())
      return error_response(core::invalid_argument("the body must be a JSON object", "body"));
  }
  return (this->*(found->handler))(call);
}

HttpResponse Api::health(const Call&) {
  core::Result<std::size_t> pending = store_.count_runs(RunStatus::kPending);
  if (!pending) return error_response(pending.error());
  return json_response(200,
                       core::Json{{"ok", true}, {"worker_id", runs_.worker_id()}, {"queued_runs", *pending}});
}

HttpResponse Api::metrics(const Call&) {
  HttpResponse response;
  response.content_type = "text/plain; version=0.0.4";
  response.body = metrics_.render_prometheus();
  return response;
}

HttpResponse Api::openapi(const Call&) {
  core::Result<std::string> document = assets_.read("server/openapi.json");
  if (!document) return error_response(document.error());
  HttpResponse response;
  response.body = std::move(*document);
  return response;
}

HttpResponse Api::search_assistants(const Call& call) {
  const std::string graph_id = call.body.is_object() ? call.body.value("graph_id", "") : "";
  const std::size_t limit = size_param(call.request, call.body, "limit", 100, 1000);
  const std::size_t offset = size_param(call.request, call.body, "offset", 0, 1u << 30);
  core::Json list = core::Json::array();
  std::size_t index = 0;
  for (const std::string& name : assistants_.names()) {
    if (!graph_id.empty() && name != graph_id) continue;
    if (index++ < offset) continue;
    if (list.size() >= limit) break;
    list.push_back(assistants_.describe(name));
  }
  return json_response(200, list);
}

HttpResponse Api::get_assistant(const Call& call) {
  const std::string& name = call.params.at("assistant_id");
  if (core::Result<graph::CompiledGraph> graph = assistants_.graph(name); !graph)
    return error_response(graph.error());
  return json_response(200, assistants_.describe(name));
}

HttpResponse Api::assistant_graph(const Call& call) {
  core::Result<core::Json> topology = assistants_.topology(call.params.at("assistant_id"));
  if (!topology) return error_response(topology.error());
  return json_response(200, *topology);
}

core::Result<core::Json> Api::thread_json(const ThreadRecord& thread, bool with_values) {
  core::Json json{{"thread_id", thread.thread_id},
                  {"assistant_id", thread.assistant_id},
                  {"created_at", iso_time(thread.created_at)},
                  {"updated_at", iso_time(thread.updated_at)},
                  {"metadata", core::Json::parse(thread.metadata_json, nullptr, false)}};
  core::Result<std::vector<RunRecord>> runs = store_.runs(thread.thread_id);
  if (!runs) return runs.error();
  const bool busy =
      std::any_of(runs->begin(), runs->end(), [](const RunRecord& run) { return !is_final(run.status); });
  core::Result<std::optional<graph::CheckpointRecord>> head = checkpoints_.head(thread.thread_id);
  if (!head) return head.error();
  std::string status = "idle";
  if (busy) {
    status = "busy";
  } else if (head->has_value() && (*head)->status == graph::CheckpointStatus::kInterrupted) {
    status = "interrupted";
  } else if (head->has_value() && (*head)->status == graph::CheckpointStatus::kFailed &&
             !graph::stopped_record(**head)) {
    status = "error";
  }
  json["status"] = status;
  if (with_values) {
    json["values"] = core::Json::object();
    if (head->has_value()) {
      core::Result<core::Json> state = state_json(thread.thread_id, **head);
      if (!state) return state.error();
      json["values"] = (*state)["values"];
    }
  }
  return json;
}

core::Result<core::Json> Api::state_json(const std::string& thread_id,
                                         const graph::CheckpointRecord& record) {
  core::Result<std::vector<graph::StepWrite>> writes =
      checkpoints_.writes_for_state(thread_id, record.checkpoint_id);
  if (!writes) return writes.error();
  core::Result<core::Json> values = graph::assemble_state(*writes);
  if (!values) return values.error();
  core::Json metadata = core::Json::parse(record.metadata_json, nullptr, false);
  if (!metadata.is_object()) metadata = core::Json::object();
  core::Json state{
      {"values", std::move(*values)},
      {"next", record.next_node.empty() ? core::Json::array() : core::Json::array({record.next_node})},
      {"checkpoint", {{"thread_id", thread_id}, {"checkpoint_id", record.checkpoint_id}}},
      {"checkpoint_id", record.checkpoint_id},
      {"parent_checkpoint", record.parent_id.empty()
                                ? core::Json()
                                : core::Json{{"thread_id", thread_id}, {"checkpoint_id", record.parent_id}}},
      {"step", record.step},
      {"node", record.node},
      {"status", graph::to_string(record.status)},
      {"last_completed_node", record.last_completed_node},
      {"created_at", core::format_utc_timestamp(record.created_at)},
      {"metadata", metadata},
      {"interrupts", core::Json::array()}};
  if (record.status == graph::CheckpointStatus::kInterrupted) {
    state["interrupts"].push_back({{"node", record.node},
                                   {"message", metadata.value("checkpoint_message", "")},
                                   {"prompt", metadata.value("checkpoint_prompt", "")},
                                   {"checkpoint_id", record.checkpoint_id}});
  }
  return state;
}

HttpResponse Api::create_thread(const Call& call) {
  const core::Json& body = call.body;
  std::string thread_id = body.is_object() ? body.value("thread_id", "") : "";
  if (thread_id.empty()) thread_id = core::RandomIdGenerator().next();
  if (!safe_id(thread_id))
    return error_response(core::invalid_argument("'" + thread_id + "' is no valid id", "thread_id"));
  core::Json metadata =
      body.is_object() ? body.value("metadata", core::Json::object()) : core::Json::object();
  if (!metadata.is_object())
    return error_response(core::invalid_argument("metadata must be an object", "metadata"));
  std::string assistant_id = body.is_object() ? body.value("assistant_id", body.value("graph_id", "")) : "";
  if (!assistant_id.empty()) {
    if (auto graph = assistants_.graph(assistant_id); !graph) return error_response(graph.error());
  }
  const Millis now = now_millis();
  const ThreadRecord thread{thread_id, assistant_id, metadata.dump(), now, now};
  if (auto created = store_.create_thread(thread); !created) {
    const bool reuse = body.is_object() && body.value("if_exists", "") == "do_nothing";
    if (!(reuse && created.error().code == core::ErrorCode::kConflict))
      return error_response(created.error());
  }
  core::Result<std::optional<ThreadRecord>> stored = store_.thread(thread_id);
  if (!stored || !stored->has_value())
    return error_response(stored ? core::not_found("thread vanished") : stored.error());
  core::Result<core::Json> json = thread_json(**stored, false);
  if (!json) return error_response(json.error());
  return json_response(200, *json);
}

HttpResponse Api::search_threads(const Call& call) {
  const std::size_t limit = size_param(call.request, call.body, "limit", 10, 1000);
  const std::size_t offset = size_param(call.request, call.body, "offset", 0, 1u << 30);
  const std::string status = call.body.is_object() ? call.body.value("status", "") : "";
  core::Result<std::vector<ThreadRecord>> threads =
      store_.threads(status.empty() ? limit : 100'000, status.empty() ? offset : 0);
  if (!threads) return error_response(threads.error());
  core::Json list = core::Json::array();
  std::size_t index = 0;
  for (const ThreadRecord& thread : *threads) {
    core::Result<core::Json> json = thread_json(thread, false);
    if (!json) return error_response(json.error());
    if (!status.empty() && (*json)["status"] != status) continue;
    if (!status.empty() && index++ < offset) continue;
    if (list.size() >= limit) break;
    list.push_back(std::move(*json));
  }
  return json_response(200, list);
}

HttpResponse Api::get_thread(const Call& call) {
  core::Result<std::optional<ThreadRecord>> thread = store_.thread(call.params.at("thread_id"));
  if (!thread) return error_response(thread.error());
  if (!thread->has_value())
    return error_response(core::not_found("no thread " + call.params.at("thread_id"), "thread_id"));
  core::Result<core::Json> json = thread_json(**thread, true);
  if (!json) return error_response(json.error());
  return json_response(200, *json);
}

HttpResponse Api::delete_thread(const Call& call) {
  const std::string& thread_id = call.params.at("thread_id");
  core::Result<std::vector<RunRecord>> runs = store_.runs(thread_id);
  if (!runs) return error_response(runs.error());
  for (const RunRecord& run : *runs) {
    if (!is_final(run.status))
      return error_response(core::Error{
          core::ErrorCode::kConflict,
          "thread " + thread_id + " has run " + run.run_id + " in progress; cancel it first", "thread_id"});
  }
  if (auto deleted = store_.delete_thread(thread_id); !deleted) return error_response(deleted.error());
  if (auto deleted = checkpoints_.delete_thread(thread_id); !deleted) return error_response(deleted.error());
  std::error_code ignored;
  std::filesystem::remove_all(artifacts_dir(thread_id), ignored);
  HttpResponse response;
  response.status = 204;
  response.content_type = "";
  return response;
}

HttpResponse Api::thread_state(const Call& call) {
  const std::string& thread_id = call.params.at("thread_id");
  const std::string checkpoint_id = call.request.query_value("checkpoint_id");
  core::Result<std::optional<graph::CheckpointRecord>> head = checkpoints_.head(thread_id);
  if (!head) return error_response(head.error());
  if (!head->has_value()) {
    core::Result<std::optional<ThreadRecord>> thread = store_.thread(thread_id);
    if (!thread) return error_response(thread.error());
    if (!thread->has_value()) return error_response(core::not_found("no thread " + thread_id, "thread_id"));
    return json_response(200, core::Json{{"values", core::Json::object()},
                                         {"next", core::Json::array()},
                                         {"checkpoint", nullptr},
                                         {"checkpoint_id", nullptr},
                                         {"interrupts", core::Json::array()},
                                         {"status", "new"}});
  }
  graph::CheckpointRecord record = **head;
  if (!checkpoint_id.empty()) {
    core::Result<graph::CheckpointRecord> at = checkpoints_.get(thread_id, checkpoint_id);
    if (!at) return error_response(at.error());
    record = *at;
  }
  core::Result<core::Json> state = state_json(thread_id, record);
  if (!state) return error_response(state.error());
  return json_response(200, *state);
}

HttpResponse Api::thread_history(const Call& call) {
  const std::string& thread_id = call.params.at("thread_id");
  const std::size_t limit = size_param(call.request, call.body, "limit", 10, 1000);
  core::Result<std::vector<graph::CheckpointRecord>> history = checkpoints_.history(thread_id);
  if (!history) return error_response(history.error());
  if (history->empty()) {
    core::Result<std::optional<ThreadRecord>> thread = store_.thread(thread_id);
    if (!thread) return error_response(thread.error());
    if (!thread->has_value()) return error_response(core::not_found("no thread " + thread_id, "thread_id"));
  }
  core::Json list = core::Json::array();
  for (const graph::CheckpointRecord& record : *history) {
    if (list.size() >= limit) break;
    core::Result<core::Json> state = state_json(thread_id, record);
    if (!state) return error_response(state.error());
    list.push_back(std::move(*state));
  }
  return json_response(200, list);
}

std::filesystem::path Api::artifacts_dir(const std::string& thread_id) const {
  return options_.data_dir / "artifacts" / thread_id;
}

std::filesystem::path Api::datasets_dir() const {
  return options_.data_dir / "datasets";
}

// The graph's files go to the thread's artifacts folder, whatever the input said, and the file it
// analyses must be one uploaded to this server: a request never names another path on the host.
core::Result<void> Api::place_files(const std::string& assistant_id, const std::string& thread_id,
                                    core::Json& input) const {
  const graph::GraphInputs keys = assistants_.inputs(assistant_id);
  if (!keys.out_dir.empty()) input[keys.out_dir] = artifacts_dir(thread_id).string();
  if (keys.dataset.empty() || !input.contains(keys.dataset)) return core::ok();
  const core::Json& named = input[keys.dataset];
  const std::filesystem::path datasets = std::filesystem::weakly_canonical(datasets_dir());
  std::error_code ec;
  const std::filesystem::path file = named.is_string()
                                         ? std::filesystem::weakly_canonical(named.get<std::string>(), ec)
                                         : std::filesystem::path();
  const auto [end, ignored] = std::mismatch(datasets.begin(), datasets.end(), file.begin(), file.end());
  if (ec || file.empty() || end != datasets.end()) {
    return core::invalid_argument(
        "input." + keys.dataset + " must be the path of a dataset uploaded with POST /datasets",
        "input/" + keys.dataset);
  }
  return core::ok();
}

core::Result<void> Api::check_answer(const std::string& assistant_id, const std::string& thread_id,
                                     const graph::CheckpointRecord& head, const std::string& answer) {
  core::Result<graph::CompiledGraph> graph = assistants_.graph(assistant_id);
  if (!graph) return graph.error();
  const graph::AnswerFunction& merge = graph->settings().answer;
  if (!merge) return core::ok();
  core::Result<core::Json> state = state_json(thread_id, head);
  if (!state) return state.error();
  core::Result<graph::Delta> delta = merge(graph::StateView((*state)["values"]), answer);
  if (!delta) return delta.error();
  return core::ok();
}

core::Result<RunRecord> Api::queue_run(const Call& call) {
  const std::string& thread_id = call.params.at("thread_id");
  const core::Json& body = call.body;
  if (!body.is_object())
    return core::invalid_argument("the body must be a JSON object naming assistant_id", "body");
  core::Result<std::optional<ThreadRecord>> thread = store_.thread(thread_id);
  if (!thread) return thread.error();
  if (!thread->has_value()) {
    if (body.value("if_not_exists", "reject") != "create")
      return core::not_found("no thread " + thread_id, "thread_id");
    const Millis now = now_millis();
    if (auto created = store_.create_thread({thread_id, "", "{}", now, now});
        !created && created.error().code != core::ErrorCode::kConflict) {
      return created.error();
    }
    *thread = ThreadRecord{thread_id, "", "{}", now, now};
  }
  RunRecord run;
  run.run_id = core::RandomIdGenerator().next();
  run.thread_id = thread_id;
  run.assistant_id = body.value("assistant_id", (*thread)->assistant_id);
  if (run.assistant_id.empty())
    return core::invalid_argument("name the assistant_id the run uses", "assistant_id");
  if (auto graph = assistants_.graph(run.assistant_id); !graph) return graph.error();
  run.multitask_strategy = body.value("multitask_strategy", "reject");
  if (run.multitask_strategy != "reject" && run.multitask_strategy != "enqueue") {
    return core::invalid_argument(
        "multitask_strategy is 'reject' or 'enqueue', not '" + run.multitask_strategy + "'",
        "multitask_strategy");
  }
  core::Result<std::vector<std::string>> modes =
      stream_modes(body.contains("stream_mode") ? body["stream_mode"] : core::Json(), kAllModes);
  if (!modes) return modes.error();
  run.stream_modes = join_modes(*modes);
  const core::Json command = body.value("command", core::Json());
  core::Result<std::optional<graph::CheckpointRecord>> head = checkpoints_.head(thread_id);
  if (!head) return head.error();
  if (command.is_object() && command.contains("resume")) {
    const core::Json& answer = command["resume"];
    run.resume_answer = answer.is_string() ? answer.get<std::string>() : answer.dump();
    run.resume_checkpoint_id = body.value("checkpoint_id", "");
    if (run.resume_checkpoint_id.empty() && body.contains("checkpoint") && body["checkpoint"].is_object())
      run.resume_checkpoint_id = body["checkpoint"].value("checkpoint_id", "");
    if (run.resume_checkpoint_id.empty()) {
      return core::invalid_argument("a resume names the checkpoint_id of the interrupt it answers",
                                    "checkpoint_id");
    }
    // Seed 003 §7.3: an answer to an old prompt is refused before anything runs, and forks nothing.
    if (!head->has_value() || (*head)->checkpoint_id != run.resume_checkpoint_id ||
        (*head)->status != graph::CheckpointStatus::kInterrupted) {
      return core::Error{core::ErrorCode::kConflict,
                         "checkpoint " + run.resume_checkpoint_id + " is not the interrupt thread " +
                             thread_id + " awaits" +
                             (head->has_value() ? " (its head is " + (*head)->checkpoint_id + ", " +
                                                      std::string(graph::to_string((*head)->status)) + ")"
                                                : std::string(" (it has no checkpoint)")) +
                             "; reload its state",
                         "checkpoint_id"};
    }
    // An answer the graph refuses (a bad field of a structured answer) is refused here, naming the field,
    // and the thread stays at its checkpoint.
    if (auto checked = check_answer(run.assistant_id, thread_id, **head, run.resume_answer); !checked)
      return checked.error();
  } else {
    core::Json input = body.value("input", core::Json::object());
    if (!input.is_object() && !input.is_null())
      return core::invalid_argument("input must be a JSON object", "input");
    if (input.is_null()) input = core::Json::object();
    if (auto placed = place_files(run.assistant_id, thread_id, input); !placed) return placed.error();
    run.input_json = input.dump();
    if (run.multitask_strategy == "reject" && head->has_value() &&
        (*head)->status == graph::CheckpointStatus::kInterrupted) {
      return core::failed_precondition("thread " + thread_id + " awaits an answer at checkpoint " +
                                           (*head)->checkpoint_id + "; resume it with command.resume",
                                       "input");
    }
  }
  run.created_at = now_millis();
  run.updated_at = run.created_at;
  if (auto created = store_.create_run(run); !created) return created.error();
  runs_.wake();
  core::Result<std::optional<RunRecord>> stored = store_.run(run.run_id);
  if (!stored) return stored.error();
  return stored->value_or(run);
}

HttpResponse Api::create_run(const Call& call) {
  core::Result<RunRecord> run = queue_run(call);
  if (!run) return error_response(run.error());
  return json_response(200, run_json(*run));
}

HttpResponse Api::create_run_stream(const Call& call) {
  core::Result<RunRecord> run = queue_run(call);
  if (!run) return error_response(run.error());
  HttpResponse response = event_stream(*run, 0, split_modes(run->stream_modes));
  response.headers.emplace_back("Content-Location", "/threads/" + run->thread_id + "/runs/" + run->run_id);
  return response;
}

HttpResponse Api::final_outcome(const std::string& run_id) {
  core::Result<RunRecord> run = wait_final(run_id);
  if (!run) return error_response(run.error());
  core::Json json = run_json(*run);
  core::Result<std::optional<graph::CheckpointRecord>> head = checkpoints_.head(run->thread_id);
  if (!head) return error_response(head.error());
  if (head->has_value()) {
    core::Result<core::Json> state = state_json(run->thread_id, **head);
    if (!state) return error_response(state.error());
    json["values"] = (*state)["values"];
    json["interrupts"] = (*state)["interrupts"];
  }
  return json_response(200, json);
}

HttpResponse Api::create_run_wait(const Call& call) {
  core::Result<RunRecord> run = queue_run(call);
  if (!run) return error_response(run.error());
  return final_outcome(run->run_id);
}

HttpResponse Api::list_runs(const Call& call) {
  core::Result<std::vector<RunRecord>> runs = store_.runs(call.params.at("thread_id"));
  if (!runs) return error_response(runs.error());
  const std::size_t limit = size_param(call.request, call.body, "limit", 100, 1000);
  core::Json list = core::Json::array();
  for (const RunRecord& run : *runs) {
    if (list.size() >= limit) break;
    list.push_back(run_json(run));
  }
  return json_response(200, list);
}

core::Result<RunRecord> Api::run_of(const Call& call) {
  core::Result<std::optional<RunRecord>> run = store_.run(call.params.at("run_id"));
  if (!run) return run.error();
  if (!run->has_value() || (*run)->thread_id != call.params.at("thread_id"))
    return core::not_found("no run " + call.params.at("run_id") + " on thread " + call.params.at("thread_id"),
                           "run_id");
  return **run;
}

HttpResponse Api::get_run(const Call& call) {
  core::Result<RunRecord> run = run_of(call);
  if (!run) return error_response(run.error());
  return json_response(200, run_json(*run));
}

core::Result<RunRecord> Api::wait_final(const std::string& run_id) {
  for (;;) {
    const std::uint64_t ticket = bell_.ticket(run_id);
    core::Result<std::optional<RunRecord>> run = store_.run(run_id);
    if (!run) return run.error();
    if (!run->has_value()) return core::not_found("no run " + run_id, "run_id");
    if (is_final((*run)->status)) return **run;
    if (stopping_)
      return core::unavailable("the server is shutting down; join the run again later", "run_id");
    bell_.wait(run_id, ticket, options_.stream_poll);
  }
}

HttpResponse Api::join_run(const Call& call) {
  core::Result<RunRecord> run = run_of(call);
  if (!run) return error_response(run.error());
  return final_outcome(run->run_id);
}

HttpResponse Api::cancel_run(const Call& call) {
  core::Result<RunRecord> run = run_of(call);
  if (!run) return error_response(run.error());
  if (is_final(run->status)) {
    return error_response(core::Error{
        core::ErrorCode::kConflict,
        "run " + run->run_id + " already ended (" + std::string(to_string(run->status)) + ")", "run_id"});
  }
  if (auto cancelled = runs_.cancel(run->run_id); !cancelled) return error_response(cancelled.error());
  if (call.request.query_value("wait") == "true" || call.request.query_value("wait") == "1") {
    core::Result<RunRecord> final_run = wait_final(run->run_id);
    if (!final_run) return error_response(final_run.error());
    return json_response(200, run_json(*final_run));
  }
  core::Result<RunRecord> now = run_of(call);
  if (!now) return error_response(now.error());
  return json_response(202, run_json(*now));
}

HttpResponse Api::stream_run(const Call& call) {
  core::Result<RunRecord> run = run_of(call);
  if (!run) return error_response(run.error());
  std::int64_t after = 0;
  const std::string last = call.request.header("Last-Event-ID");
  if (!last.empty()) {
    try {
      std::size_t used = 0;
      after = std::stoll(last, &used);
      if (used != last.size() || after < 0) throw std::invalid_argument(last);
    } catch (const std::exception&) {
      return error_response(core::invalid_argument(
          "Last-Event-ID must be an event's number, not '" + last + "'", "Last-Event-ID"));
    }
  }
  const core::Json named = call.request.has_query("stream_mode")
                               ? core::Json(call.request.query_value("stream_mode"))
                               : core::Json();
  core::Result<std::vector<std::string>> modes = stream_modes(named, split_modes(run->stream_modes));
  if (!modes) return error_response(modes.error());
  return event_stream(*run, after, *modes);
}

HttpResponse Api::event_stream(const RunRecord& run, std::int64_t after, std::vector<std::string> modes) {
  HttpResponse response;
  response.content_type = "text/event-stream";
  response.headers = {{"Cache-Control", "no-store"}, {"X-Accel-Buffering", "no"}};
  const std::string run_id = run.run_id;
  response.stream = [this, run_id, after, modes = std::move(modes)](const ChunkWriter& write) {
    std::int64_t last = after;
    auto quiet_since = std::chrono::steady_clock::now();
    bool final_seen = false;
    while (!stopping_) {
      const std::uint64_t ticket = bell_.ticket(run_id);
      core::Result<std::vector<StoredEvent>> events = store_.events(run_id, last, kEventPage);
      if (!events) return;
      for (const StoredEvent& event : *events) {
        last = event.seq;
        const bool always = event.event == "metadata" || event.event == "end";
        if (!always && std::find(modes.begin(), modes.end(), event.event) == modes.end()) continue;
        const std::string frame = "id: " + std::to_string(event.seq) + "\nevent: " + event.event +
                                  "\ndata: " + event.data_json + "\n\n";
        if (!write(frame)) return;
        metrics_.histogram("planfirst_server_event_lag_seconds")
            .observe(static_cast<double>(now_millis() - event.created_at) / 1000.0);
        if (event.event == "end") return;
        quiet_since = std::chrono::steady_clock::now();
      }
      if (!events->empty()) continue;
      core::Result<std::optional<RunRecord>> current = store_.run(run_id);
      if (!current || !current->has_value()) return;
      if (is_final((*current)->status)) {
        if (final_seen) return;  // its log was read to the end after it ended
        final_seen = true;
        continue;
      }
      bell_.wait(run_id, ticket, options_.stream_poll);
      if (std::chrono::steady_clock::now() - quiet_since >= options_.keepalive) {
        if (!write(": keepalive\n\n")) return;
        quiet_since = std::chrono::steady_clock::now();
      }
    }
  };
  return response;
}

HttpResponse Api::upload_dataset(const Call& call) {
  const std::string name = call.request.query_value("name");
  if (!safe_file_name(name)) {
    return error_response(core::invalid_argument(
        "name the file in ?name= (letters, digits, '-', '_', '.'; e.g. contacts.csv)", "name"));
  }
  if (call.request.header("Content-Type").starts_with("multipart/")) {
    return plain_error(415, "unsupported_media_type",
                       "send the file's bytes as the body, not a multipart form");
  }
  if (call.request.body.empty()) return error_response(core::invalid_argument("the body is empty", "body"));
  return store_dataset(name, call.request.body, core::Json::object());
}

HttpResponse Api::store_dataset(const std::string& name, std::string_view bytes, core::Json extra) {
  core::Result<std::string> type = dataset_type(name, bytes);
  if (!type) return plain_error(415, "unsupported_media_type", type.error().describe());
  const std::string id = core::RandomIdGenerator().next();
  const std::filesystem::path folder = datasets_dir() / id;
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  std::ofstream out(folder / name, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (error || !out)
    return error_response(core::unavailable("cannot store the dataset", (folder / name).string()));
  core::Json stored{{"dataset_id", id},
                    {"name", name},
                    {"type", *type},
                    {"bytes", bytes.size()},
                    {"path", (folder / name).string()}};
  stored.update(extra);
  return json_response(201, stored);
}

HttpResponse Api::list_examples(const Call&) {
  core::Result<std::vector<Example>> examples = bundled_examples(assets_, options_.examples_dir);
  if (!examples) return error_response(examples.error());
  core::Json list = core::Json::array();
  for (const Example& example : *examples) list.push_back(example.to_json());
  return json_response(200, list);
}

HttpResponse Api::use_example(const Call& call) {
  const std::string& name = call.params.at("name");
  core::Result<std::vector<Example>> examples = bundled_examples(assets_, options_.examples_dir);
  if (!examples) return error_response(examples.error());
  const auto found = std::find_if(examples->begin(), examples->end(),
                                  [&](const Example& example) { return example.name == name; });
  if (found == examples->end())
    return error_response(core::not_found("no example " + name + "; GET /examples lists them", "name"));
  if (!found->available)
    return error_response(
        core::not_found("the example " + name + " is missing: " + found->how_to_get, "name"));
  core::Result<std::string> bytes = core::read_file_text(options_.examples_dir / name);
  if (!bytes) return error_response(bytes.error());
  return store_dataset(name, *bytes, core::Json{{"example", name}});
}

HttpResponse Api::list_artifacts(const Call& call) {
  const std::filesystem::path root = artifacts_dir(call.params.at("thread_id"));
  core::Json list = core::Json::array();
  std::error_code error;
  if (std::filesystem::is_directory(root, error)) {
    for (auto it = std::filesystem::recursive_directory_iterator(root, error);
         !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
      if (!it->is_regular_file(error) || it->is_symlink(error)) continue;
      list.push_back({{"path", std::filesystem::relative(it->path(), root, error).generic_string()},
                      {"bytes", it->file_size(error)}});
    }
  }
  std::sort(list.begin(), list.end(),
            [](const core::Json& a, const core::Json& b) { return a["path"] < b["path"]; });
  return json_response(200, list);
}

HttpResponse Api::get_artifact(const Call& call) {
  const std::filesystem::path root = artifacts_dir(call.params.at("thread_id"));
  core::Result<std::filesystem::path> file = resolve_under(root, call.params.at("path"));
  if (!file) return error_response(file.error());
  return file_response(*file);
}

HttpResponse Api::static_file(const HttpRequest& request) {
  std::string relative = request.path.size() > 1 ? request.path.substr(1) : "index.html";
  core::Result<std::filesystem::path> file = resolve_under(options_.web_dir, relative);
  if (!file && file.error().code == core::ErrorCode::kNotFound &&
      std::filesystem::path(relative).extension().empty()) {
    file = resolve_under(options_.web_dir, "index.html");  // the page routes its own paths
  }
  if (!file) return error_response(file.error());
  return file_response(*file);
}

}  // namespace planfirst::server
