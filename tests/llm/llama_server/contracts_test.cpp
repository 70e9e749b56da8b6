// Every contract against llama.cpp's own llama-server and the bundled small model: the server accepts
// our GBNF export ("grammar") and our response_format json_schema, and sampled replies (temperature
// above 0, several prompts, fixed seeds) all pass the contract's validation on the first try.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "contracts/gbnf_export.hpp"
#include "core/asset_store.hpp"
#include "llm/contract_guard.hpp"
#include "llm/llama_server/llama_fixture.hpp"
#include "llm/openai_compatible_model.hpp"

namespace planfirst::llm {
namespace {

// The first three tasks of `planfirst llm bench` (assets/llm/bench_tasks.json), one sample each, per
// contract and mode: enough to catch a schema the server turns into a grammar that lets invalid JSON
// through, small enough for two cores.
constexpr std::size_t kSamples = 3;

const nlohmann::json& bench_tasks() {
  static const nlohmann::json tasks = [] {
    core::Result<std::string> text = core::AssetStore().read("llm/bench_tasks.json");
    if (!text) throw std::runtime_error(text.error().describe());
    return nlohmann::json::parse(*text);
  }();
  return tasks;
}

std::string prompt_for(const contracts::Contract& contract, std::size_t sample) {
  std::string prompt = bench_tasks()["prompt"].get<std::string>();
  auto put = [&prompt](const std::string& key, const std::string& value) {
    prompt.replace(prompt.find(key), key.size(), value);
  };
  put("{{task}}", bench_tasks()["tasks"][sample].get<std::string>());
  put("{{schema}}", contract.schema_text());
  return prompt;
}

struct Sampled {
  int valid = 0;
  std::vector<std::string> failures;
};

Sampled sample(const LlamaFixture& f, StructuredOutput mode, const std::string& contract_name) {
  const contracts::Contract& contract = *f.contracts().find(contract_name);
  const OpenAiCompatibleModel model = f.model(mode);
  GuardOptions options;
  options.max_reasks = 0;  // first try only: what constrained decoding alone gives
  const ContractGuard guard(model, f.contracts(), options);
  Sampled result;
  for (std::size_t i = 0; i < kSamples; ++i) {
    CompletionRequest request;
    request.contract = contract_name;
    request.messages = {{"user", prompt_for(contract, i)}};
    request.temperature = 0.8;
    request.seed = static_cast<std::uint32_t>(1000 + i);
    request.max_tokens = kSampleMaxTokens;
    GuardedCompletion reply = guard.generate(request);
    if (reply) {
      ++result.valid;
    } else {
      result.failures.push_back(
          reply.failure().describe() +
          "\n  reply: " + (reply.failure().attempts.empty() ? "" : reply.failure().attempts.back().reply));
    }
  }
  return result;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

class LlamaContracts : public ::testing::TestWithParam<std::string> {};

TEST_P(LlamaContracts, TheServerAcceptsOurGrammarAndEverySampledReplyValidates) {
  const LlamaFixture& f = LlamaFixture::get();
  ASSERT_TRUE(f.ok()) << f.failure();
  ASSERT_TRUE(contracts::to_gbnf(*f.contracts().find(GetParam())).has_value())
      << "every shipped contract has a GBNF form, so llamacpp mode sends a grammar";

  const Sampled sampled = sample(f, StructuredOutput::kLlamaCpp, GetParam());

  EXPECT_EQ(sampled.valid, static_cast<int>(kSamples)) << joined(sampled.failures);
}

TEST_P(LlamaContracts, TheServerAcceptsOurResponseFormatAndEverySampledReplyValidates) {
  const LlamaFixture& f = LlamaFixture::get();
  ASSERT_TRUE(f.ok()) << f.failure();

  const Sampled sampled = sample(f, StructuredOutput::kResponseFormat, GetParam());

  EXPECT_EQ(sampled.valid, static_cast<int>(kSamples)) << joined(sampled.failures);
}

INSTANTIATE_TEST_SUITE_P(EveryContract, LlamaContracts, ::testing::ValuesIn(shipped_contract_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace planfirst::llm
