// OpenAiCompatibleModel talks to an OpenAI-compatible server (vLLM, llama.cpp server, a hosted API)
// at POST {base_url}/chat/completions, or to Ollama at POST {root}/api/chat, asking for structured
// output as StructuredOutput says. Retries, timeouts and cancellation come from core::HttpClient.
// Immutable; threads may share one. Borrows the contracts (and metrics, when given): they outlive it.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/http_client.hpp"
#include "llm/model.hpp"
#include "llm/structured_output.hpp"

namespace planfirst::core {
class Clock;
class MetricsRegistry;
class Sleeper;
}  // namespace planfirst::core
namespace planfirst::contracts {
class ContractRegistry;
}

namespace planfirst::llm {

struct OpenAiModelOptions {
  std::string base_url;  // "http://localhost:8000/v1"; for Ollama its root, "http://localhost:11434"
  std::string model;     // sent as "model"; omitted when empty (llama.cpp serves one model)
  std::string api_key;   // sent as "Authorization: Bearer ..."; none when empty
  StructuredOutput structured_output = StructuredOutput::kResponseFormat;
  std::chrono::milliseconds timeout{60'000};  // read timeout per request (CompletionRequest may override)
  int max_tokens = 0;      // > 0: no request asks for more completion tokens than this (a small model's cap)
  core::HttpOptions http;  // connect timeout, retries, TLS; read_timeout is ignored
};

// Options from config llm.base_url, llm.model, llm.api_key_env (the variable in `env` holding the
// key), llm.structured_output, llm.timeout_seconds and llm.max_tokens. kFailedPrecondition when llm.base_url
// is empty.
core::Result<OpenAiModelOptions> model_options_from_config(const core::Config& config,
                                                           const core::Environment& env);

class OpenAiCompatibleModel final : public Model {
 public:
  // kInvalidArgument for a malformed base URL. `metrics` may be null.
  static core::Result<OpenAiCompatibleModel> create(OpenAiModelOptions options,
                                                    const contracts::ContractRegistry& contracts,
                                                    core::MetricsRegistry* metrics = nullptr);
  // Tests: a RecordingSleeper and a ManualClock; both must outlive the model.
  static core::Result<OpenAiCompatibleModel> create(OpenAiModelOptions options,
                                                    const contracts::ContractRegistry& contracts,
                                                    core::MetricsRegistry* metrics, core::Sleeper& sleeper,
                                                    const core::Clock& clock);

  // kNotFound for an unknown contract; kInvalidArgument for a message or reply that is not UTF-8 or a
  // reply that is not a chat completion; HttpClient's errors otherwise. Records llm_requests_total
  // {model,outcome}, llm_latency_seconds and llm_tokens_total{direction}.
  core::Result<Completion> complete(const CompletionRequest& request,
                                    const core::CancellationToken* cancel = nullptr) const override;
  std::string name() const override;

  // The ids the server offers (GET /models, or Ollama's /api/tags), sorted as the server lists them.
  core::Result<std::vector<std::string>> list_models(const core::CancellationToken* cancel = nullptr) const;
  // The JSON body complete() would send, for `llm ask --dry-run` and tests.
  core::Result<std::string> request_body(const CompletionRequest& request) const;

  const OpenAiModelOptions& options() const { return options_; }

 private:
  OpenAiCompatibleModel(OpenAiModelOptions options, core::HttpClient http,
                        const contracts::ContractRegistry& contracts, core::MetricsRegistry* metrics,
                        const core::Clock& clock);

  OpenAiModelOptions options_;
  core::HttpClient http_;
  const contracts::ContractRegistry* contracts_;  // borrowed; never null
  core::MetricsRegistry* metrics_;                // borrowed; may be null
  const core::Clock* clock_;                      // borrowed; never null
};

}  // namespace planfirst::llm
