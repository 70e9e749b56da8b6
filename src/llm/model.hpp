// Model is what every planning stage asks for text: a chat request (messages, the contract its
// answer must meet, limits) in, a completion (text, usage, latency, model, attempts) or a typed
// core::Error out. Implementations: OpenAiCompatibleModel (a server), ReplayModel (a fixture file),
// RecordingModel (records another). complete() is const and thread-safe in every implementation.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"

namespace planfirst::core {
class CancellationToken;
}

namespace planfirst::llm {

struct ChatMessage {
  std::string role;  // "system", "user" or "assistant"
  std::string content;
  bool operator==(const ChatMessage&) const = default;
};

struct CompletionRequest {
  std::vector<ChatMessage> messages;
  std::string contract;   // the contract the answer must meet ("analyst_plan"); empty = free text
  int max_tokens = 1024;  // 0 = the server's default
  double temperature = 0.0;
  std::vector<std::string> stop;
  std::chrono::milliseconds timeout{0};  // read timeout for this request; 0 = the model's default
  // Sampling seed sent as "seed" (OpenAI, vLLM, llama.cpp; Ollama's options.seed): the same seed, the
  // same reply from a server that honours it. Unset = the server picks.
  std::optional<std::uint32_t> seed;
};

struct TokenUsage {
  std::int64_t prompt = 0;
  std::int64_t completion = 0;
};

struct Completion {
  std::string text;  // the model's reply as sent
  // The validated value when a contract was given and ContractGuard checked it; null otherwise.
  // Shared and immutable: copies of a completion co-own it.
  std::shared_ptr<const core::Json> json;
  TokenUsage usage;
  std::chrono::nanoseconds latency{0};  // wall time of the whole call, retries included
  std::string model;                    // as the server named it
  std::string finish_reason;            // "stop", "length" (cut off), ...; "" when unknown
  int attempts = 1;  // a model: HTTP requests sent (retries); ContractGuard: model calls (re-asks)
};

class Model {
 public:
  virtual ~Model() = default;
  // `cancel` (may be null) aborts the call: an Error whose message starts "request cancelled".
  virtual core::Result<Completion> complete(const CompletionRequest& request,
                                            const core::CancellationToken* cancel = nullptr) const = 0;
  virtual std::string name() const = 0;  // for metrics and messages: the model id, or "replay"
};

}  // namespace planfirst::llm
