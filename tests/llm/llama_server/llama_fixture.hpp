// LlamaFixture: the llama-server of this test program (started once, stopped at exit) with the
// bundled model, the built-in contracts, and OpenAiCompatibleModel clients pointed at it.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "contracts/contract_registry.hpp"
#include "llm/openai_compatible_model.hpp"
#include "support/llama_server.hpp"

namespace planfirst::llm {

// Room for the longest contract (analytics_state) with a short model's strings; a reply cut off
// here fails as "truncated".
inline constexpr int kSampleMaxTokens = 768;

class LlamaFixture {
 public:
  static const LlamaFixture& get();

  bool ok() const { return server_ != nullptr; }
  const std::string& failure() const { return failure_; }  // why the server did not start
  const test_support::LlamaServer& server() const { return *server_; }
  const contracts::ContractRegistry& contracts() const { return contracts_; }

  OpenAiModelOptions options(StructuredOutput mode) const;
  OpenAiCompatibleModel model(StructuredOutput mode) const;
  OpenAiCompatibleModel model(OpenAiModelOptions options) const;

 private:
  LlamaFixture();

  contracts::ContractRegistry contracts_;
  test_support::LlamaServer* server_ = nullptr;
  std::string failure_;
};

// Every contract in assets/contracts/, sorted: the parameters of the per-contract tests.
std::vector<std::string> shipped_contract_names();

}  // namespace planfirst::llm
