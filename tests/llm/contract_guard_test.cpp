// ContractGuard against a scripted server: each kind of model reply, re-asks with the error payload,
// and the typed failure after the last re-ask.
#include "llm/contract_guard.hpp"

#include <gtest/gtest.h>

#include "llm/model_fixture.hpp"

namespace planfirst::llm {
namespace {

using test_support::ScriptedReply;

GuardOptions reasks(int n) {
  GuardOptions options;
  options.max_reasks = n;
  return options;
}

constexpr const char* kWrongEnum = R"({"primary": "forecasting", "confidence": 0.7})";

TEST(ContractGuard, AcceptsValidJsonAtTheFirstAttempt) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat(kValidIntent)});
  const OpenAiCompatibleModel model = f.model();
  const ContractGuard guard(model, builtin_contracts(), {}, &f.metrics);

  GuardedCompletion result = guard.generate(ask("intent", "rank regions by revenue"));

  ASSERT_TRUE(result.has_value()) << result.failure().describe();
  ASSERT_NE(result->json, nullptr);
  EXPECT_EQ((*result->json)["primary"], "ranking");
  EXPECT_EQ(result->attempts, 1);
}

TEST(ContractGuard, FindsJsonInsideProse) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat(std::string("Sure! Here is the answer: ") + kValidIntent +
                                            " Let me know if you need more.")});
  const OpenAiCompatibleModel model = f.model();
  const ContractGuard guard(model, builtin_contracts());

  GuardedCompletion result = guard.generate(ask("intent", "q"));

  ASSERT_TRUE(result.has_value()) << result.failure().describe();
  EXPECT_EQ((*result->json)["confidence"], 0.8);
}

TEST(ContractGuard, SkipsABracketedCitationBeforeTheObject) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat(std::string("As shown in [1], the answer is ") + kValidIntent)});
  const OpenAiCompatibleModel model = f.model();
  const ContractGuard guard(model, builtin_contracts());

  GuardedCompletion result = guard.generate(ask("intent", "q"));

  ASSERT_TRUE(result.has_value()) << result.failure().describe();
  EXPECT_EQ(result->attempts, 1);
}

TEST(ContractGuard, FindsFencedJson) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat(std::string("```json\n") + kValidIntent + "\n```")});
  const OpenAiCompatibleModel model = f.model();
  const ContractGuard guard(model, builtin_contracts());

  GuardedCompletion result = guard.generate(ask("intent", "q"));

  ASSERT_TRUE(result.has_value()) << result.failure().describe();
  EXPECT_EQ((*result->json)["primary"], "ranking");
}

TEST(ContractGuard, ReasksWithEachErrorByPointerAndAcceptsTheCorrection) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat(kWrongEnum, 10, 5), ScriptedReply::chat(kValidIntent, 20, 6)});
  const OpenAiCompatibleModel model = f.model();
  const ContractGuard guard(model, builtin_contracts(), {}, &f.metrics);

  GuardedCompletion result = guard.generate(ask("intent", "q"));

  ASSERT_TRUE(result.has_value()) << result.failure().describe();
  EXPECT_EQ(result->attempts, 2);
  EXPECT_EQ(result->usage.prompt, 30);
  const nlohmann::json second = f.request_json(1);
  ASSERT_EQ(second["messages"].size(), 3u);
  EXPECT_EQ(second["messages"][1]["role"], "assistant");
  EXPECT_EQ(second["messages"][1]["content"], kWrongEnum);
  const std::string payload = second["messages"][2]["content"];
  EXPECT_NE(payload.find("/primary [enum]"), std::string::npos) << payload;
  EXPECT_NE(payload.find("\"intent\""), std::string::npos) << payload;
  EXPECT_EQ(f.metrics.counter("guard_failures_total", {{"contract", "intent"}, {"reason", "schema"}}).value(),
            1.0);
}

TEST(ContractGuard, FallsBackAfterTheLastReaskWithEveryViolation) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat(kWrongEnum), ScriptedReply::chat(kWrongEnum),
                        ScriptedReply::chat(R"({"primary": "forecasting", "confidence": 7})")});
  const OpenAiCompatibleModel model = f.model();
  const ContractGuard guard(model, builtin_contracts(), reasks(2), &f.metrics);

  GuardedCompletion result = guard.generate(ask("intent", "q"));

  ASSERT_FALSE(result.has_value());
  const GuardFailure& failure = result.failure();
  EXPECT_EQ(failure.reason, "schema");
  EXPECT_EQ(failure.attempts.size(), 3u);
  ASSERT_EQ(failure.violations.size(), 2u);
  EXPECT_EQ(failure.violations[0].pointer, "/confidence");
  EXPECT_EQ(failure.violations[1].pointer, "/primary");
  EXPECT_NE(failure.describe().find("schema after 3 attempts"), std::string::npos) << failure.describe();
  EXPECT_EQ(failure.error().code, core::ErrorCode::kFailedPrecondition);
  EXPECT_EQ(f.server.requests("/v1/chat/completions").size(), 3u);
  EXPECT_EQ(
      f.metrics.counter("guard_failures_total", {{"contract", "intent"}, {"reason", "fallback"}}).value(),
      1.0);
}

TEST(ContractGuard, ReasksAfterTruncatedJsonAndSaysTheReplyHitMaxTokens) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat(R"({"primary": "ranki)", 10, 1024, "length")});
  const OpenAiCompatibleModel model = f.model();
  const ContractGuard guard(model, builtin_contracts(), reasks(0));

  GuardedCompletion result = guard.generate(ask("intent", "q"));

  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.failure().reason, "truncated");
  ASSERT_EQ(result.failure().violations.size(), 1u);
  EXPECT_NE(result.failure().violations[0].message.find("max_tokens"), std::string::npos);
}

TEST(ContractGuard, ReportsProseWithoutJsonAsNoJson) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat("This is not JSON"), ScriptedReply::chat(kValidIntent)});
  const OpenAiCompatibleModel model = f.model();
  const ContractGuard guard(model, builtin_contracts());

  GuardedCompletion result = guard.generate(ask("intent", "q"));

  ASSERT_TRUE(result.has_value());
  const std::string payload = f.request_json(1)["messages"][2]["content"];
  EXPECT_NE(payload.find("(no_json)"), std::string::npos) << payload;
}

TEST(ContractGuard, StopsAtAModelErrorWithoutReasking) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::error(400, "context length exceeded")});
  const OpenAiCompatibleModel model = f.model();
  const ContractGuard guard(model, builtin_contracts());

  GuardedCompletion result = guard.generate(ask("intent", "q"));

  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.failure().reason, "model_error");
  ASSERT_TRUE(result.failure().model_error.has_value());
  EXPECT_NE(result.failure().model_error->message.find("context length exceeded"), std::string::npos);
  EXPECT_EQ(f.server.requests("/v1/chat/completions").size(), 1u);
}

TEST(ContractGuard, FailsOnAnUnknownContractWithoutCallingTheModel) {
  ModelFixture f;
  const OpenAiCompatibleModel model = f.model();
  const ContractGuard guard(model, builtin_contracts());

  GuardedCompletion result = guard.generate(ask("nope", "q"));

  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.failure().error().code, core::ErrorCode::kNotFound);
  EXPECT_TRUE(f.server.requests().empty());
}

TEST(ContractGuard, ValidatesTheContractsCrossFieldRules) {
  ModelFixture f;  // seed 000: STATUS_METRIC must not name doc
  f.server.script_chat({ScriptedReply::chat(
      R"({"intent": "sprint_rate", "request_type": "STATUS_METRIC", "track": "QUALITY", "required_sources": ["db", "doc"],
          "missing_info_questions": [], "expected_output_schema": "status_metric_v1_json"})")});
  const OpenAiCompatibleModel model = f.model();
  const ContractGuard guard(model, builtin_contracts(), reasks(0));

  GuardedCompletion result = guard.generate(ask("analyst_plan", "What's the sprint completion rate?"));

  ASSERT_FALSE(result.has_value());
  ASSERT_FALSE(result.failure().violations.empty());
  EXPECT_EQ(result.failure().violations[0].pointer.rfind("/required_sources", 0), 0u)
      << result.failure().describe();
}

// A stage's check refusing a valid reply: "ranking" is not an intent this caller can use.
std::vector<contracts::Violation> refuse_ranking(const core::Json& reply) {
  if (reply.value("primary", "") != "ranking") return {};
  return {{"/primary", "template", "no template for ranking here"}};
}

TEST(ContractGuard, ReasksWhenTheStagesCheckRefusesAValidReply) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat(kValidIntent),
                        ScriptedReply::chat(R"({"primary": "distribution", "confidence": 0.6})")});
  const OpenAiCompatibleModel model = f.model();
  const ContractGuard guard(model, builtin_contracts(), {}, &f.metrics);

  GuardedCompletion result = guard.generate(ask("intent", "rank regions by revenue"), refuse_ranking);

  ASSERT_TRUE(result.has_value()) << result.failure().describe();
  EXPECT_EQ((*result->json)["primary"], "distribution");
  EXPECT_EQ(result->attempts, 2);
  const std::string reask = f.request_json(1)["messages"].back()["content"].get<std::string>();
  EXPECT_NE(reask.find("meets the contract \"intent\" but cannot be used"), std::string::npos) << reask;
  EXPECT_NE(reask.find("- /primary [template] no template for ranking here"), std::string::npos) << reask;
  EXPECT_EQ(
      f.metrics.counter("guard_failures_total", {{"contract", "intent"}, {"reason", "rejected"}}).value(),
      1.0);
}

TEST(ContractGuard, GivesUpWithReasonRejectedWhenTheCheckKeepsRefusing) {
  ModelFixture f;
  f.server.script_chat({ScriptedReply::chat(kValidIntent), ScriptedReply::chat(kValidIntent)});
  const OpenAiCompatibleModel model = f.model();
  const ContractGuard guard(model, builtin_contracts(), reasks(1));

  GuardedCompletion result = guard.generate(ask("intent", "rank regions by revenue"), refuse_ranking);

  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.failure().reason, "rejected");
  EXPECT_EQ(result.failure().attempts.size(), 2u);
  EXPECT_EQ(result.failure().violations[0].pointer, "/primary");
}

}  // namespace
}  // namespace planfirst::llm
