// `planfirst llm check`, `planfirst llm ask` and `planfirst llm bench` as a user runs them, against the
// scripted OpenAI-protocol test server on loopback: a reachable and an unreachable server, a valid reply,
// a re-ask that corrects a wrong enum, a guard failure after the last re-ask, record then replay, and
// the bench's figures for scripted replies.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
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

// One row of `llm bench`'s table.
struct BenchRow {
  std::string first_try;  // "valid/samples"
  int reasks = -1;
  int fallbacks = -1;
  double seconds_per_call = -1;
  double tokens_per_second = -1;
};

BenchRow bench_row(const std::string& output, const std::string& contract, const std::string& mode) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);
    std::string row_contract;
    std::string row_mode;
    BenchRow row;
    if (fields >> row_contract >> row_mode >> row.first_try >> row.reasks >> row.fallbacks >>
            row.seconds_per_call >> row.tokens_per_second &&
        row_contract == contract && row_mode == mode)
      return row;
  }
  ADD_FAILURE() << "no row for " << contract << " " << mode << " in\n" << output;
  return {};
}

TEST_F(LlmCli, BenchCountsFirstTriesReasksAndFallbacksAndTimesEveryCall) {
  // Every reply after 200 ms; 7 completion tokens each (ScriptedReply::chat); one re-ask. The modes
  // run in the order llamacpp, response_format, none, two samples each.
  constexpr auto kDelay = std::chrono::milliseconds(200);
  const auto valid = [&] { return ScriptedReply::chat(kValidIntent).with_delay(kDelay); };
  const auto prose = [&] { return ScriptedReply::chat("I cannot answer in JSON.").with_delay(kDelay); };
  server_.script_chat({valid(), prose(), valid(),                                       // llamacpp
                       prose(), prose(), valid(),                                       // response_format
                       prose(), prose(), prose(),                                       // none: a fallback,
                       ScriptedReply::error(400, "no such slot").with_delay(kDelay)});  // then an error

  const CommandOutcome run = run_command("(PLANFIRST_LLM_MAX_REASKS=1 " +
                                         planfirst("llm bench --base-url " + server_.base_url() +
                                                   " --model test-model --contract intent --samples 2") +
                                         " 2>&1)");

  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(server_.requests(kChatPath).size(), 10u);
  const BenchRow grammar = bench_row(run.output, "intent", "llamacpp");
  EXPECT_EQ(grammar.first_try, "1/2") << run.output;
  EXPECT_EQ(grammar.reasks, 1) << run.output;
  EXPECT_EQ(grammar.fallbacks, 0) << run.output;
  const BenchRow schema = bench_row(run.output, "intent", "response_format");
  EXPECT_EQ(schema.first_try, "1/2") << run.output;
  EXPECT_EQ(schema.reasks, 1) << run.output;
  EXPECT_EQ(schema.fallbacks, 1) << run.output;
  const BenchRow none = bench_row(run.output, "intent", "none");
  EXPECT_EQ(none.first_try, "0/2") << run.output;
  EXPECT_EQ(none.reasks, 2) << run.output;
  EXPECT_EQ(none.fallbacks, 2) << run.output;
  // s/call is the mean over every call, the failed one included: each took at least the delay. tok/s
  // is the tokens over that same time, so tok/s x s/call is the tokens per call (21 over 4 for none).
  for (const auto& [row, tokens_per_call] :
       {std::pair{grammar, 7.0}, std::pair{schema, 7.0}, std::pair{none, 21.0 / 4}}) {
    EXPECT_GE(row.seconds_per_call, 0.2) << run.output;
    EXPECT_NEAR(row.tokens_per_second * row.seconds_per_call, tokens_per_call, 0.3) << run.output;
  }
}

TEST_F(LlmCli, BenchKeepsALongContractNameApartFromItsMode) {
  const auto prose = [] { return ScriptedReply::chat("I cannot answer in JSON."); };
  server_.script_chat({prose(), prose(), prose(), prose(), prose(), prose()});  // 3 modes x (1 + 1 re-ask)

  const CommandOutcome run = run_command("(PLANFIRST_LLM_MAX_REASKS=1 " +
                                         planfirst("llm bench --base-url " + server_.base_url() +
                                                   " --model test-model --contract friction_discovery_answer "
                                                   "--samples 1") +
                                         " 2>&1)");

  ASSERT_EQ(run.exit_code, 0) << run.output;
  for (const char* mode : {"llamacpp", "response_format", "none"}) {
    const BenchRow row = bench_row(run.output, "friction_discovery_answer", mode);
    EXPECT_EQ(row.first_try, "0/1") << mode << "\n" << run.output;
    EXPECT_EQ(row.fallbacks, 1) << mode << "\n" << run.output;
  }
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
