// OpenAiTestServer is a scripted HTTP server on 127.0.0.1 (a free port) that speaks the protocols
// planfirst's remote models use: OpenAI chat completions, /v1/models and /v1/embeddings, and Ollama
// /api/chat and /api/tags. Each test scripts the replies a path gives, in order, and reads back every
// request received. Only loopback; thread-safe; destruction stops it, cutting scripted delays short.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace planfirst::test_support {

struct ScriptedReply {
  int status = 200;
  std::string body;  // sent as is
  std::string content_type = "application/json";
  std::vector<std::pair<std::string, std::string>> headers;  // e.g. {"Retry-After", "2"}
  std::chrono::milliseconds delay{0};                        // wait before replying

  // An OpenAI chat completion whose message content is `content` (any text: JSON, prose, fences).
  static ScriptedReply chat(std::string_view content, int prompt_tokens = 11, int completion_tokens = 7,
                            std::string_view finish_reason = "stop");
  // An Ollama /api/chat reply (stream false) with `content`.
  static ScriptedReply ollama_chat(std::string_view content, int prompt_tokens = 11,
                                   int completion_tokens = 7);
  // A chat completion whose content holds the bytes "\xff\xfe", which are not UTF-8.
  static ScriptedReply chat_with_invalid_utf8();
  // An OpenAI-style error body {"error":{"message":...}} with `status`.
  static ScriptedReply error(int status, std::string_view message);
  ScriptedReply&& with_header(std::string name, std::string value) &&;
  ScriptedReply&& with_delay(std::chrono::milliseconds wait) &&;
};

struct RecordedRequest {
  std::string method;
  std::string path;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;

  std::string header(std::string_view name) const;  // case-insensitive; "" when absent
};

class OpenAiTestServer {
 public:
  // Starts serving; throws std::runtime_error when it cannot bind loopback.
  OpenAiTestServer();
  ~OpenAiTestServer();
  OpenAiTestServer(const OpenAiTestServer&) = delete;
  OpenAiTestServer& operator=(const OpenAiTestServer&) = delete;

  int port() const;
  std::string root_url() const;  // "http://127.0.0.1:PORT" (Ollama's base URL)
  std::string base_url() const;  // "http://127.0.0.1:PORT/v1" (an OpenAI-compatible base URL)

  // Queues replies for `path` ("/v1/chat/completions", "/api/chat", ...), given in order. A path whose
  // queue is empty answers with its default: /v1/models and /api/tags list "test-model",
  // /v1/embeddings returns 4 deterministic dimensions per input, anything else 500 "no scripted reply".
  void script(std::string_view path, std::vector<ScriptedReply> replies);
  void script_chat(std::vector<ScriptedReply> replies) { script("/v1/chat/completions", std::move(replies)); }

  std::vector<RecordedRequest> requests() const;                       // every request, in order
  std::vector<RecordedRequest> requests(std::string_view path) const;  // those to `path`

 private:
  struct Server;
  std::unique_ptr<Server> server_;
};

// "http://127.0.0.1:PORT/v1" for a loopback port that nothing listens on (a server bound it, then
// stopped): the URL of a server that is down.
std::string unreachable_base_url();

}  // namespace planfirst::test_support
