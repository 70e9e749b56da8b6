// RecordingModel writes fixtures from a (loopback) server; ReplayModel answers from them.
#include "llm/replay_model.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "llm/contract_guard.hpp"
#include "llm/model_fixture.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::llm {
namespace {

using test_support::ScriptedReply;
using test_support::TempDir;

TEST(ReplayModel, ReplaysWhatTheRecorderWroteIncludingReasks) {
  ModelFixture f;
  TempDir dir;
  const auto fixture = dir.path() / "intent.jsonl";
  f.server.script_chat(
      {ScriptedReply::chat(R"({"primary": "nope", "confidence": 1})"), ScriptedReply::chat(kValidIntent)});
  const OpenAiCompatibleModel server_model = f.model();
  const RecordingModel recorder(server_model, fixture);
  GuardedCompletion recorded = ContractGuard(recorder, builtin_contracts()).generate(ask("intent", "rank"));
  ASSERT_TRUE(recorded.has_value());
  core::Result<std::unique_ptr<ReplayModel>> replay = ReplayModel::load(fixture);
  ASSERT_TRUE(replay.has_value()) << replay.error().describe();

  GuardedCompletion replayed = ContractGuard(**replay, builtin_contracts()).generate(ask("intent", "rank"));

  ASSERT_TRUE(replayed.has_value()) << replayed.failure().describe();
  EXPECT_EQ(replayed->text, recorded->text);
  EXPECT_EQ(replayed->attempts, 2);
  EXPECT_EQ((*replay)->size(), 2u);
  EXPECT_EQ(f.server.requests().size(), 2u);  // the replay never reached the server
}

TEST(ReplayModel, NamesTheContractAndHashOfAnUnrecordedPrompt) {
  core::Result<std::unique_ptr<ReplayModel>> replay = ReplayModel::parse("", "empty.jsonl");
  ASSERT_TRUE(replay.has_value());
  const CompletionRequest request = ask("intent", "never recorded");

  core::Result<Completion> completion = (*replay)->complete(request);

  ASSERT_FALSE(completion.has_value());
  EXPECT_EQ(completion.error().code, core::ErrorCode::kNotFound);
  EXPECT_NE(completion.error().message.find(prompt_hash(request)), std::string::npos);
  EXPECT_EQ(completion.error().where, "empty.jsonl");
}

TEST(ReplayModel, AnswersARepeatedPromptInRecordedOrderThenRepeatsTheLast) {
  const CompletionRequest request = ask("intent", "q");
  const std::string hash = prompt_hash(request);
  const std::string jsonl = R"({"contract":"intent","prompt_hash":")" + hash +
                            R"(","text":"first"})"
                            "\n" +
                            R"({"contract":"intent","prompt_hash":")" + hash +
                            R"(","text":"second"})"
                            "\n";
  core::Result<std::unique_ptr<ReplayModel>> replay = ReplayModel::parse(jsonl, "f.jsonl");
  ASSERT_TRUE(replay.has_value());

  std::vector<std::string> texts;
  for (int i = 0; i < 3; ++i) texts.push_back((*replay)->complete(request)->text);

  EXPECT_EQ(texts, (std::vector<std::string>{"first", "second", "second"}));
}

TEST(ReplayModel, NamesTheLineOfAMalformedFixture) {
  const std::string jsonl =
      "{\"contract\":\"intent\",\"prompt_hash\":\"x\",\"text\":\"ok\"}\n\n{\"contract\": 3}\n";

  core::Result<std::unique_ptr<ReplayModel>> replay = ReplayModel::parse(jsonl, "bad.jsonl");

  ASSERT_FALSE(replay.has_value());
  EXPECT_EQ(replay.error().where, "bad.jsonl:3");
}

TEST(ReplayModel, HashesOnlyTheContractAndMessages) {
  CompletionRequest a = ask("intent", "q");
  CompletionRequest b = a;
  b.temperature = 0.9;
  b.max_tokens = 5;
  CompletionRequest c = ask("requirements", "q");

  const std::string hash_a = prompt_hash(a);

  EXPECT_EQ(hash_a, prompt_hash(b));
  EXPECT_NE(hash_a, prompt_hash(c));
  EXPECT_EQ(hash_a.rfind("fnv1a64:", 0), 0u);
  EXPECT_EQ(hash_a.size(), 8u + 16u);
}

}  // namespace
}  // namespace planfirst::llm
