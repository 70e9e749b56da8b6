// tests/pipelines/analyst/llm_strategy_test.cpp: the model strategies against the loopback
// OpenAI-compatible test server: every fallback path of the analyst plan (seed 000 §2, §8) and the
// citation check of the model's answer.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "pipelines/analyst/analyst_fixture.hpp"
#include "support/openai_test_server.hpp"

namespace planfirst::analyst {
namespace {

using nlohmann::json;
using test_support::OpenAiTestServer;
using test_support::ScriptedReply;

struct LlmHarness {
  LlmHarness() {
    AnalystOptions options;
    options.sources = orbit.map();
    options.metrics = metrics;
    options.llm_base_url = server.base_url();
    graph.emplace(testing::load_services(std::move(options)));
  }
  OpenAiTestServer server;
  testing::OrbitSources orbit = testing::all_orbit_sources();
  std::shared_ptr<core::MetricsRegistry> metrics = std::make_shared<core::MetricsRegistry>();
  std::optional<testing::GraphHarness> graph;
};

const char* kStatusWithDoc =
    R"({"intent": "query_sprint_completion_rate", "request_type": "STATUS_METRIC", "track": "QUALITY",
  "required_sources": ["doc"], "missing_info_questions": [], "expected_output_schema": "status_metric_v1_json"})";

TEST(AnalystLlm, SendsTheSeedPromptUnderTheAnalystContract) {
  LlmHarness h;
  h.server.script_chat(
      {ScriptedReply::chat(R"({"intent": "who_owns_payments_connector", "request_type": "KNOWLEDGE_QA",
      "track": "QUALITY", "required_sources": ["neo4j"], "missing_info_questions": [], "expected_output_schema": "answer_v1_markdown"})"),
       ScriptedReply::chat("Priya Raman owns it [neo4j:component/billing-engine].")});

  core::Result<graph::RunResult> result = h.graph->ask("Who owns the payments-connector?");

  ASSERT_TRUE(result.has_value()) << result.error().describe();
  const std::vector<test_support::RecordedRequest> requests = h.server.requests("/v1/chat/completions");
  ASSERT_EQ(requests.size(), 2u);
  const json body = json::parse(requests[0].body);
  const std::string prompt = body["messages"][0]["content"];
  EXPECT_EQ(prompt.rfind("You are BMAD Analyst.", 0), 0u);
  EXPECT_NE(prompt.find("User query: Who owns the payments-connector?"), std::string::npos);
  EXPECT_EQ(result->state.json()["analyst_plan"]["required_sources"], json::array({"neo4j"}));
  EXPECT_EQ(result->state.json()["plan_review"]["strategy"], "llm");
  EXPECT_EQ(testing::counter(*h.metrics, "analyst_plan_success_total"), 1.0);
}

TEST(AnalystLlm, NonJsonReplyFallsBackToPolicyOnlyQuality) {
  LlmHarness h;
  h.server.script_chat({ScriptedReply::chat("This is not JSON"), ScriptedReply::chat("no citations here")});

  core::Result<graph::RunResult> result = h.graph->ask("What's the sprint completion rate?");

  ASSERT_TRUE(result.has_value());
  const json& state = result->state.json();
  EXPECT_EQ(state["analyst_plan"]["intent"], "parse_error");
  EXPECT_EQ(state["analyst_plan"]["track"], "QUALITY");
  EXPECT_EQ(state["analyst_plan"]["required_sources"], json::array({"policy"}));
  EXPECT_EQ(state["analyst_plan"]["request_type"], "STATUS_METRIC");
  EXPECT_EQ(state["route_reason"].get<std::string>().rfind("analyst_plan_fallback:", 0), 0u);
  EXPECT_EQ(h.orbit.calls("policy"), 1u);
  EXPECT_EQ(h.orbit.calls("db"), 0u);
  EXPECT_EQ(testing::counter(*h.metrics, "analyst_plan_fallback_total{reason=\"parse_error\"}"), 1.0);
}

TEST(AnalystLlm, JsonFailingTheContractFallsBack) {
  LlmHarness h;
  h.server.script_chat(
      {ScriptedReply::chat(
           R"(Here you go: {"intent": "x", "request_type": "STATUS_REPORT", "track": "SLOW"})"),
       ScriptedReply::chat("x")});

  core::Result<graph::RunResult> result = h.graph->ask("How is sprint 14 going?");

  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->state.json()["route_reason"].get<std::string>().rfind(
                "analyst_plan_fallback:validation_failed:", 0),
            0u);
  EXPECT_EQ(testing::counter(*h.metrics, "analyst_plan_fallback_total{reason=\"validation_failed\"}"), 1.0);
}

TEST(AnalystLlm, StatusPlanWithDocIsRepairedToDb) {
  LlmHarness h;
  h.server.script_chat(
      {ScriptedReply::chat(kStatusWithDoc),
       ScriptedReply::chat(R"({"value": 87.5, "unit": "percent", "period": "Sprint 13", "sql": "SELECT 1",
                                                "evidence": ["db:metric/sprint_completion_rate/13"]})")});

  core::Result<graph::RunResult> result = h.graph->ask("What's the sprint completion rate?");

  ASSERT_TRUE(result.has_value());
  const json& state = result->state.json();
  EXPECT_EQ(state["analyst_plan"]["required_sources"], json::array({"db"}));
  EXPECT_EQ(state["plan_review"]["guard_failures"].size(), 1u);
  EXPECT_EQ(h.orbit.calls("doc"), 0u);
  EXPECT_EQ(h.orbit.calls("db"), 1u);
  EXPECT_EQ(state["answer"]["strategy"], "llm");
  EXPECT_EQ(state["answer"]["content"]["value"], 87.5);
  EXPECT_EQ(testing::counter(*h.metrics, "analyst_output_guard_failures_total{reason=\"source_forbidden\"}"),
            1.0);
}

TEST(AnalystLlm, StatusPlanStillInvalidAfterTheRepairFallsBack) {
  LlmHarness h;
  json plan = json::parse(kStatusWithDoc);
  plan["expected_output_schema"] = "Status Metric!";
  h.server.script_chat({ScriptedReply::chat(plan.dump()), ScriptedReply::chat("x")});

  core::Result<graph::RunResult> result = h.graph->ask("What's the sprint completion rate?");

  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->state.json()["analyst_plan"]["intent"], "parse_error");
  EXPECT_EQ(testing::counter(*h.metrics, "analyst_output_guard_failures_total{reason=\"source_forbidden\"}"),
            1.0);
  EXPECT_EQ(testing::counter(*h.metrics, "analyst_plan_fallback_total{reason=\"validation_failed\"}"), 1.0);
}

TEST(AnalystLlm, AModelQuestionOnFastIsDroppedAndOnQualityAsked) {
  LlmHarness h;
  json fast = json::parse(kStatusWithDoc);
  fast["required_sources"] = {"db"};
  fast["track"] = "FAST";
  fast["missing_info_questions"] = {"Which sprint?"};
  json quality = fast;
  quality["track"] = "QUALITY";
  quality["missing_info_questions"] = {"Which sprint are you asking about?", "And which team?"};
  h.server.script_chat(
      {ScriptedReply::chat(fast.dump()), ScriptedReply::chat("{}"), ScriptedReply::chat(quality.dump())});

  core::Result<graph::RunResult> first = h.graph->ask("What's the sprint completion rate?", "fast");
  core::Result<graph::RunResult> second = h.graph->ask("What's the sprint completion rate?", "quality");

  ASSERT_TRUE(first.has_value() && second.has_value());
  EXPECT_EQ(first->status, graph::RunStatus::kDone);
  EXPECT_EQ(first->state.json()["plan_review"]["warnings"][0],
            "question_limit: FAST track, dropped 1 question(s)");
  ASSERT_EQ(second->status, graph::RunStatus::kInterrupted);
  EXPECT_EQ(second->prompt, "Which sprint are you asking about?");
}

TEST(AnalystLlm, AnAnswerCitingEvidenceNotRetrievedIsReplacedByTheComposer) {
  LlmHarness h;
  h.server.script_chat(
      {ScriptedReply::chat(R"({"intent": "who_owns", "request_type": "KNOWLEDGE_QA", "track": "QUALITY",
      "required_sources": ["doc"], "missing_info_questions": [], "expected_output_schema": "answer_v1_markdown"})"),
       ScriptedReply::chat("Priya owns it [doc:people.md#Owners].")});

  core::Result<graph::RunResult> result = h.graph->ask("Who owns the payments-connector?");

  ASSERT_TRUE(result.has_value());
  const json& answer = result->state.json()["answer"];
  EXPECT_EQ(answer["strategy"], "rules");
  EXPECT_NE(answer["fallback"].get<std::string>().find("doc:people.md#Owners"), std::string::npos);
  EXPECT_EQ(answer["citations"], json::array({"doc:architecture.md#Component map"}));
}

TEST(AnalystLlm, AJsonAnswerCitingAnIdThatWasNotRetrievedIsReplacedByTheComposer) {
  LlmHarness h;
  h.server.script_chat(
      {ScriptedReply::chat(kStatusWithDoc),
       ScriptedReply::chat(R"({"value": 87.5, "unit": "percent", "period": "Sprint 13", "sql": "SELECT 1",
                                                "evidence": ["bogus"]})")});

  core::Result<graph::RunResult> result = h.graph->ask("What's the sprint completion rate?");

  ASSERT_TRUE(result.has_value());
  const json& answer = result->state.json()["answer"];
  EXPECT_EQ(answer["strategy"], "rules");
  EXPECT_EQ(answer["fallback"], "cites evidence that was not retrieved: bogus");
}

TEST(AnalystLlm, AnUnreachableServerPlansWithTheRules) {
  AnalystOptions options;
  testing::OrbitSources orbit = testing::all_orbit_sources();
  options.sources = orbit.map();
  options.llm_base_url = test_support::unreachable_base_url();
  testing::GraphHarness graph(testing::load_services(std::move(options)));

  core::Result<graph::RunResult> result = graph.ask("Which issues are overdue?");

  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->status, graph::RunStatus::kDone);
  EXPECT_EQ(result->state.json()["analyst_plan"]["required_sources"], json::array({"db"}));
  EXPECT_NE(result->state.json()["route_reason"].get<std::string>().find("model unavailable"),
            std::string::npos);
}

}  // namespace
}  // namespace planfirst::analyst
