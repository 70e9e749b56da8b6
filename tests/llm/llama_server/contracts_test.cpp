// Every contract against llama.cpp's own llama-server and the bundled small model, in both
// constrained modes. The server accepts our GBNF export ("grammar") and our response_format
// json_schema: a rejected one is a model error (HTTP 400) and fails. Of two sampled replies each
// (temperature 0.8, two tasks, fixed seeds, a small max_tokens for two cores) every reply the server
// finished is JSON of the contract's structure: under our grammar a violation may only be of a keyword
// the grammar's header lists as approximated or of a cross-field rule; under the server's own schema
// conversion never of type, required, enum, const or additionalProperties. Replies cut off at
// max_tokens are counted, not failed; the rates are `planfirst llm bench`'s (README).
#include <gtest/gtest.h>

#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
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

constexpr std::size_t kSamples = 2;
// Room for the small contracts' answers; the large ones are mostly cut off here, which the test
// counts: what it checks is the server's acceptance and the structure of what it finished.
constexpr int kMaxTokens = 128;
constexpr auto kRequestTimeout = std::chrono::seconds(120);

const nlohmann::json& bench_tasks() {
  static const nlohmann::json tasks = [] {
    core::Result<std::string> text = core::AssetStore().read("llm/bench_tasks.json");
    if (!text) throw std::runtime_error(text.error().describe());
    return nlohmann::json::parse(*text);
  }();
  return tasks;
}

// The short prompt of the constrained modes: the grammar, not the prompt, carries the schema.
std::string prompt_for(const std::string& contract, std::size_t sample) {
  std::string prompt = bench_tasks()["constrained_prompt"].get<std::string>();
  auto put = [&prompt](const std::string& key, const std::string& value) {
    prompt.replace(prompt.find(key), key.size(), value);
  };
  put("{{contract}}", contract);
  put("{{task}}", bench_tasks()["tasks"][sample].get<std::string>());
  return prompt;
}

// The keywords the grammar's header says it approximates ("# approximated (...): uniqueItems maximum").
std::set<std::string> approximated_keywords(const std::string& grammar) {
  std::set<std::string> keywords;
  const std::string marker = "# approximated (validate() checks them after generation):";
  const std::size_t at = grammar.find(marker);
  if (at == std::string::npos) return keywords;
  std::istringstream line(grammar.substr(at + marker.size(), grammar.find('\n', at) - at - marker.size()));
  for (std::string keyword; line >> keyword;) keywords.insert(keyword);
  return keywords;
}

struct Sampled {
  int valid = 0;
  int truncated = 0;
  std::vector<std::string> faults;  // what the mode promises and the reply broke
  std::vector<std::string> tolerated;
};

// A finished reply's violation the mode could not have prevented.
using Tolerated = std::function<bool(const contracts::Violation&)>;

Sampled sample(const LlamaFixture& f, StructuredOutput mode, const std::string& contract_name,
               const Tolerated& tolerated) {
  OpenAiModelOptions options = f.options(mode);
  options.timeout = kRequestTimeout;
  const OpenAiCompatibleModel model = f.model(options);
  GuardOptions guard_options;
  guard_options.max_reasks = 0;  // the first try only: what constrained decoding alone gives
  const ContractGuard guard(model, f.contracts(), guard_options);
  Sampled result;
  for (std::size_t i = 0; i < kSamples; ++i) {
    CompletionRequest request;
    request.contract = contract_name;
    request.messages = {{"user", prompt_for(contract_name, i)}};
    request.temperature = 0.8;
    request.seed = static_cast<std::uint32_t>(1000 + i);
    request.max_tokens = kMaxTokens;
    const GuardedCompletion reply = guard.generate(request);
    if (reply) {
      ++result.valid;
      continue;
    }
    const GuardFailure& failure = reply.failure();
    const std::string text = failure.attempts.empty() ? "" : failure.attempts.back().reply;
    if (failure.reason == "truncated") {
      ++result.truncated;
      continue;
    }
    bool all_tolerated = failure.reason == "schema";
    for (const contracts::Violation& violation : failure.violations)
      all_tolerated = all_tolerated && tolerated(violation);
    (all_tolerated ? result.tolerated : result.faults).push_back(failure.describe() + "\n  reply: " + text);
  }
  std::cout << contract_name << " " << to_string(mode) << ": " << result.valid << " valid, "
            << result.truncated << " cut off at " << kMaxTokens << " tokens, " << result.tolerated.size()
            << " finished with only violations the mode cannot prevent, of " << kSamples << "\n";
  return result;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  return text;
}

class LlamaContracts : public ::testing::TestWithParam<std::string> {};

TEST_P(LlamaContracts, TheServerAcceptsOurGrammarAndWhatItFinishesBreaksOnlyApproximatedKeywords) {
  const LlamaFixture& f = LlamaFixture::get();
  ASSERT_TRUE(f.ok()) << f.failure();
  const contracts::Contract& contract = *f.contracts().find(GetParam());
  const core::Result<std::string> grammar = contracts::to_gbnf(contract);
  ASSERT_TRUE(grammar.has_value())
      << "every shipped contract has a GBNF form, so llamacpp mode sends a grammar";
  const std::set<std::string> approximated = approximated_keywords(*grammar);
  std::set<std::string> rules;
  for (const contracts::ContractRule& rule : contract.rules()) rules.insert(rule.name);

  const Sampled sampled =
      sample(f, StructuredOutput::kLlamaCpp, GetParam(), [&](const contracts::Violation& v) {
        return approximated.contains(v.keyword) || rules.contains(v.keyword);
      });

  EXPECT_TRUE(sampled.faults.empty()) << joined(sampled.faults);
}

TEST_P(LlamaContracts, TheServerAcceptsOurResponseFormatAndWhatItFinishesHasTheContractsStructure) {
  const LlamaFixture& f = LlamaFixture::get();
  ASSERT_TRUE(f.ok()) << f.failure();
  // What llama.cpp's schema-to-grammar conversion enforces; bounds, uniqueItems, string lengths and
  // cross-field rules are left to validate() and the guard's re-ask.
  const std::set<std::string> structural{"type", "required", "enum", "const", "additionalProperties"};

  const Sampled sampled =
      sample(f, StructuredOutput::kResponseFormat, GetParam(),
             [&](const contracts::Violation& v) { return !structural.contains(v.keyword); });

  EXPECT_TRUE(sampled.faults.empty()) << joined(sampled.faults);
}

INSTANTIATE_TEST_SUITE_P(EveryContract, LlamaContracts, ::testing::ValuesIn(shipped_contract_names()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace planfirst::llm
