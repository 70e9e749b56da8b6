#include "support/openai_test_server.hpp"

#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <thread>

#include "support/loopback.hpp"

namespace planfirst::test_support {
namespace {

using nlohmann::json;

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

ScriptedReply json_reply(int status, const json& body) {
  ScriptedReply reply;
  reply.status = status;
  reply.body = body.dump();
  return reply;
}

ScriptedReply models_reply() {
  return json_reply(
      200, {{"object", "list"},
            {"data", json::array({{{"id", "test-model"}, {"object", "model"}, {"owned_by", "test"}}})}});
}

ScriptedReply ollama_tags_reply() {
  return json_reply(200, {{"models", json::array({{{"name", "test-model"}, {"model", "test-model"}}})}});
}

// Four dimensions per input, from the input's bytes, so equal texts get equal vectors.
ScriptedReply embeddings_reply(const std::string& request_body) {
  json request = json::parse(request_body, nullptr, false);
  if (request.is_discarded() || !request.contains("input")) {
    return json_reply(400, {{"error", {{"message", "input is required"}}}});
  }
  json inputs = request["input"].is_array() ? request["input"] : json::array({request["input"]});
  json data = json::array();
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string text = inputs[i].is_string() ? inputs[i].get<std::string>() : inputs[i].dump();
    std::uint64_t h = 1469598103934665603ULL;
    json vector = json::array();
    for (int d = 0; d < 4; ++d) {
      for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
      h = (h ^ static_cast<unsigned>(d)) * 1099511628211ULL;
      vector.push_back(static_cast<double>(h % 2001) / 1000.0 - 1.0);
    }
    data.push_back({{"object", "embedding"}, {"index", i}, {"embedding", vector}});
  }
  return json_reply(200,
                    {{"object", "list"},
                     {"model", request.value("model", "test-model")},
                     {"data", data},
                     {"usage", {{"prompt_tokens", 3 * inputs.size()}, {"total_tokens", 3 * inputs.size()}}}});
}

}  // namespace

ScriptedReply ScriptedReply::chat(std::string_view content, int prompt_tokens, int completion_tokens,
                                  std::string_view finish_reason) {
  return json_reply(200,
                    {{"id", "chatcmpl-test"},
                     {"object", "chat.completion"},
                     {"created", 1700000000},
                     {"model", "test-model"},
                     {"choices", json::array({{{"index", 0},
                                               {"message", {{"role", "assistant"}, {"content", content}}},
                                               {"finish_reason", finish_reason}}})},
                     {"usage",
                      {{"prompt_tokens", prompt_tokens},
                       {"completion_tokens", completion_tokens},
                       {"total_tokens", prompt_tokens + completion_tokens}}}});
}

ScriptedReply ScriptedReply::ollama_chat(std::string_view content, int prompt_tokens, int completion_tokens) {
  return json_reply(200, {{"model", "test-model"},
                          {"created_at", "2024-01-01T00:00:00Z"},
                          {"message", {{"role", "assistant"}, {"content", content}}},
                          {"done", true},
                          {"done_reason", "stop"},
                          {"prompt_eval_count", prompt_tokens},
                          {"eval_count", completion_tokens}});
}

ScriptedReply ScriptedReply::chat_with_invalid_utf8() {
  ScriptedReply reply = chat("@@BAD@@");
  const std::size_t at = reply.body.find("@@BAD@@");
  reply.body.replace(at, 7, "{\"x\": \"\xff\xfe\"}");
  return reply;
}

ScriptedReply ScriptedReply::error(int status, std::string_view message) {
  return json_reply(status, {{"error", {{"message", message}, {"type", "test_error"}}}});
}

ScriptedReply&& ScriptedReply::with_header(std::string name, std::string value) && {
  headers.emplace_back(std::move(name), std::move(value));
  return std::move(*this);
}

ScriptedReply&& ScriptedReply::with_delay(std::chrono::milliseconds wait) && {
  delay = wait;
  return std::move(*this);
}

std::string RecordedRequest::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (iequals(key, name)) return value;
  }
  return "";
}

struct OpenAiTestServer::Server {
  httplib::Server http;
  std::thread thread;
  int port = 0;

  mutable std::mutex mutex;
  std::condition_variable stopping_changed;
  bool stopping = false;                                                  // guarded by mutex
  std::map<std::string, std::deque<ScriptedReply>, std::less<>> scripts;  // guarded by mutex
  std::vector<RecordedRequest> received;                                  // guarded by mutex

  void handle(const httplib::Request& req, httplib::Response& res) {
    RecordedRequest record{req.method, req.path, req.body, {}};
    for (const auto& [name, value] : req.headers) record.headers.emplace_back(name, value);
    ScriptedReply reply;
    {
      std::lock_guard<std::mutex> lock(mutex);
      received.push_back(record);
      auto it = scripts.find(req.path);
      if (it != scripts.end() && !it->second.empty()) {
        reply = std::move(it->second.front());
        it->second.pop_front();
      } else if (req.path == "/v1/models") {
        reply = models_reply();
      } else if (req.path == "/api/tags") {
        reply = ollama_tags_reply();
      } else if (req.path == "/v1/embeddings") {
        reply = embeddings_reply(req.body);
      } else {
        reply = ScriptedReply::error(500, "no scripted reply for " + req.path);
      }
    }
    if (reply.delay.count() > 0) {
      std::unique_lock<std::mutex> lock(mutex);
      stopping_changed.wait_for(lock, reply.delay, [this] { return stopping; });
    }
    res.status = reply.status;
    for (const auto& [name, value] : reply.headers) res.set_header(name, value);
    res.set_content(reply.body, reply.content_type);
  }
};

OpenAiTestServer::OpenAiTestServer() : server_(std::make_unique<Server>()) {
  Server& s = *server_;
  auto handler = [&s](const httplib::Request& req, httplib::Response& res) { s.handle(req, res); };
  s.http.Get(".*", handler);
  s.http.Post(".*", handler);
  s.port = start_loopback(s.http, s.thread, "OpenAiTestServer");
}

OpenAiTestServer::~OpenAiTestServer() {
  {
    std::lock_guard<std::mutex> lock(server_->mutex);
    server_->stopping = true;
  }
  server_->stopping_changed.notify_all();
  stop_loopback(server_->http, server_->thread);
}

int OpenAiTestServer::port() const {
  return server_->port;
}
std::string OpenAiTestServer::root_url() const {
  return "http://127.0.0.1:" + std::to_string(server_->port);
}
std::string OpenAiTestServer::base_url() const {
  return root_url() + "/v1";
}

void OpenAiTestServer::script(std::string_view path, std::vector<ScriptedReply> replies) {
  std::lock_guard<std::mutex> lock(server_->mutex);
  auto& queue = server_->scripts[std::string(path)];
  for (ScriptedReply& reply : replies) queue.push_back(std::move(reply));
}

std::vector<RecordedRequest> OpenAiTestServer::requests() const {
  std::lock_guard<std::mutex> lock(server_->mutex);
  return server_->received;
}

std::vector<RecordedRequest> OpenAiTestServer::requests(std::string_view path) const {
  std::lock_guard<std::mutex> lock(server_->mutex);
  std::vector<RecordedRequest> out;
  for (const RecordedRequest& r : server_->received) {
    if (r.path == path) out.push_back(r);
  }
  return out;
}

std::string unreachable_base_url() {
  const OpenAiTestServer stopped;
  return stopped.base_url();
}

}  // namespace planfirst::test_support
