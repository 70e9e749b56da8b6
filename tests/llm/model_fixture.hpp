// ModelFixture: a scripted loopback server, the built-in contracts, a metrics registry, and an
// OpenAiCompatibleModel pointed at the server with a RecordingSleeper and no jitter.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "contracts/contract_registry.hpp"
#include "core/asset_store.hpp"
#include "core/clock.hpp"
#include "core/metrics.hpp"
#include "core/sleeper.hpp"
#include "llm/openai_compatible_model.hpp"
#include "support/openai_test_server.hpp"

namespace planfirst::llm {

inline const contracts::ContractRegistry& builtin_contracts() {
  static const contracts::ContractRegistry registry = [] {
    core::Result<contracts::ContractRegistry> loaded = contracts::ContractRegistry::load(core::AssetStore());
    if (!loaded) throw std::runtime_error(loaded.error().describe());
    return std::move(*loaded);
  }();
  return registry;
}

struct ModelFixture {
  test_support::OpenAiTestServer server;
  core::RecordingSleeper sleeper;
  core::ManualClock clock;
  core::MetricsRegistry metrics;

  OpenAiModelOptions options(StructuredOutput mode = StructuredOutput::kResponseFormat) const {
    OpenAiModelOptions o;
    o.base_url = mode == StructuredOutput::kOllama ? server.root_url() : server.base_url();
    o.model = "test-model";
    o.structured_output = mode;
    o.timeout = std::chrono::milliseconds(5000);
    o.http.jitter = 0.0;
    o.http.initial_backoff = std::chrono::milliseconds(100);
    return o;
  }

  OpenAiCompatibleModel model(OpenAiModelOptions o) {
    core::Result<OpenAiCompatibleModel> made =
        OpenAiCompatibleModel::create(std::move(o), builtin_contracts(), &metrics, sleeper, clock);
    if (!made) throw std::runtime_error(made.error().describe());
    return std::move(*made);
  }
  OpenAiCompatibleModel model(StructuredOutput mode = StructuredOutput::kResponseFormat) {
    return model(options(mode));
  }

  nlohmann::json request_json(std::size_t index, const std::string& path = "/v1/chat/completions") const {
    return nlohmann::json::parse(server.requests(path).at(index).body);
  }
};

inline CompletionRequest ask(std::string contract, std::string prompt) {
  CompletionRequest request;
  request.contract = std::move(contract);
  request.messages = {{"user", std::move(prompt)}};
  return request;
}

inline const char* kValidIntent = R"({"primary": "ranking", "confidence": 0.8})";

}  // namespace planfirst::llm
