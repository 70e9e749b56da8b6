// `planfirst llm check` and `planfirst llm ask` as a user runs them, against the scripted
// OpenAI-protocol test server on loopback: a reachable and an unreachable server, a valid reply, a
// re-ask that corrects a wrong enum, a guard failure after the last re-ask, and record then replay.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "e2e/command_runner.hpp"
#include "support/openai_test_server.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::e2e {
namespace {

using test_support::OpenAiTestServer;
using test_support::ScriptedReply;
using test_support::TempDir;
using test_support::unreachable_base_url;

constexpr const char* kValidPlan =
    R"({"intent": "query_sprint_completion_rate", "request_type": "STATUS_METRIC", "track": "QUALITY",)"
    R"( "required_sources": ["db"], "missing_info_questions": [], "expected_output_schema": "status_metric_v1_json"})";
constexpr const char* kWrongEnumPlan =
    R"({"intent": "query_sprint_completion_rate", "request_type": "STATUS_REPORT", "track": "SPEEDY",)"
    R"( "required_sources": ["db"], "missing_info_questions": [], "expected_output_schema": "status_metric_v1_json"})";
constexpr const char* kValidIntent = R"({"primary": "ranking", "confidence": 0.9})";
constexpr const char* kChatPath = "/v1/chat/completions";

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

class LlmCli : public ::testing::Test {
 protected:
  std::string ask(const std::string& extra) const {
    return planfirst("llm ask --contract analyst_plan --prompt-file " + prompt_.string() + " " + extra);
  }
  std::string ask_server() const { return ask("--base-url " + server_.base_url() + " --model test-model"); }

  OpenAiTestServer server_;
  TempDir dir_;
  const std::filesystem::path prompt_ = dir_.write("prompt.txt", "What is the sprint completion rate?\n");
};

TEST_F(LlmCli, CheckListsTheModelsAndPassesTheContractRoundTrip) {
  server_.script_chat({ScriptedReply::chat(kValidIntent)});

  const CommandOutcome run =
      run_command(planfirst("llm check --base-url " + server_.base_url() + " --model test-model"));

  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("Models:            1 offered: test-model"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("Contract round trip (intent): works"), std::string::npos) << run.output;
  EXPECT_EQ(server_.requests("/v1/models").size(), 1u);
  EXPECT_EQ(server_.requests(kChatPath).size(), 1u);
}

TEST_F(LlmCli, CheckOfAServerThatIsDownSaysSoInPlainWordsAndFails) {
  const std::string url = unreachable_base_url();

  const CommandOutcome run = run_command(planfirst("llm check --base-url " + url + " --model test-model"));

  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("Models:            could not list them"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("Contract round trip (intent): the server did not answer"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("cannot connect to " + url.substr(0, url.size() - 3)), std::string::npos)
      << run.output;
}

TEST_F(LlmCli, AskPrintsTheValidatedJsonOfAValidReply) {
  server_.script_chat({ScriptedReply::chat("Here it is:\n```json\n" + std::string(kValidPlan) + "\n```\n")});

  const CommandOutcome run = run_command("(" + ask_server() + " 2>/dev/null)");  // stdout only

  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(nlohmann::json::parse(run.output), nlohmann::json::parse(kValidPlan));
  EXPECT_EQ(server_.requests(kChatPath).size(), 1u);
}

TEST_F(LlmCli, AskReasksAfterAWrongEnumAndPrintsTheCorrectedReply) {
  server_.script_chat({ScriptedReply::chat(kWrongEnumPlan), ScriptedReply::chat(kValidPlan)});

  const CommandOutcome run = run_command(ask_server());

  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("\"request_type\": \"STATUS_METRIC\""), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("valid after 2 attempts"), std::string::npos) << run.output;
  ASSERT_EQ(server_.requests(kChatPath).size(), 2u);
  EXPECT_NE(server_.requests(kChatPath)[1].body.find("/request_type"), std::string::npos)
      << "the re-ask names the field at fault";
}

TEST_F(LlmCli, AskThatStaysInvalidFailsPrintingEveryErrorByPointerAndEachAttempt) {
  server_.script_chat({ScriptedReply::chat(kWrongEnumPlan), ScriptedReply::chat(kWrongEnumPlan),
                       ScriptedReply::chat(kWrongEnumPlan)});

  const CommandOutcome run = run_command(ask_server());

  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("contract analyst_plan: schema after 3 attempts"), std::string::npos)
      << run.output;
  for (const char* attempt : {"attempt 1: schema", "attempt 2: schema", "attempt 3: schema"}) {
    EXPECT_NE(run.output.find(attempt), std::string::npos) << attempt << "\n" << run.output;
  }
  EXPECT_EQ(occurrences(run.output, "/request_type [enum]"), 4u)
      << run.output;  // the summary, then 3 attempts
  EXPECT_EQ(occurrences(run.output, "/track [enum]"), 4u) << run.output;
  EXPECT_EQ(server_.requests(kChatPath).size(), 3u);
}

TEST_F(LlmCli, ReplayOfARecordedAskGivesTheSameOutputWithNoServer) {
  const std::filesystem::path fixture = dir_.path() / "fixture.jsonl";
  std::string recorded_output;
  {
    OpenAiTestServer server;
    server.script_chat({ScriptedReply::chat(kWrongEnumPlan), ScriptedReply::chat(kValidPlan)});
    const CommandOutcome recorded = run_command(
        ask("--base-url " + server.base_url() + " --model test-model --record " + fixture.string()));
    ASSERT_EQ(recorded.exit_code, 0) << recorded.output;
    recorded_output = recorded.output;
  }

  const CommandOutcome replayed = run_command(ask("--replay " + fixture.string()));

  EXPECT_EQ(replayed.exit_code, 0) << replayed.output;
  EXPECT_EQ(replayed.output, recorded_output);
  EXPECT_NE(replayed.output.find("valid after 2 attempts"), std::string::npos) << replayed.output;
}

TEST_F(LlmCli, ReplayOfAPromptThatWasNeverRecordedFails) {
  const std::filesystem::path fixture = dir_.path() / "empty.jsonl";
  {
    server_.script_chat({ScriptedReply::chat(kValidPlan)});
    const CommandOutcome recorded = run_command(ask_server() + " --record " + fixture.string());
    ASSERT_EQ(recorded.exit_code, 0) << recorded.output;
  }
  const std::filesystem::path other_prompt = dir_.write("other.txt", "How do I reset my password?\n");

  const CommandOutcome replayed =
      run_command(planfirst("llm ask --contract analyst_plan --prompt-file " + other_prompt.string() +
                            " --replay " + fixture.string()));

  EXPECT_NE(replayed.exit_code, 0) << replayed.output;
}

}  // namespace
}  // namespace planfirst::e2e
