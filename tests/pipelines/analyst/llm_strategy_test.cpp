// tests/pipelines/analyst/llm_strategy_test.cpp: the model strategies against the loopback
// OpenAI-compatible test server: every fallback path of the analyst plan (seed 000 §2, §8) and the
// citation check of the model's answer.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "core/config.hpp"
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
  // seed 000 §3: KNOWLEDGE_QA requires doc and neo4j; the model's neo4j-only plan gets doc added.
  EXPECT_EQ(result->state.json()["analyst_plan"]["required_sources"], json::array({"neo4j", "doc"}));
  EXPECT_EQ(result->state.json()["plan_review"]["strategy"], "llm");
  EXPECT_EQ(testing::counter(*h.metrics, "analyst_plan_success_total"), 1.0);
}

// seed 000 §2 _fallback_plan, held to §2's own rule: a STATUS_* fallback keeps db.
TEST(AnalystLlm, NonJsonReplyFallsBackToTheSafeQualityPlanThatKeepsDb) {
  LlmHarness h;
  h.server.script_chat({ScriptedReply::chat("This is not JSON"), ScriptedReply::chat("no citations here")});

  core::Result<graph::RunResult> result = h.graph->ask("What's the sprint completion rate?");

  ASSERT_TRUE(result.has_value());
  const json& state = result->state.json();
  EXPECT_EQ(state["analyst_plan"]["intent"], "parse_error");
  EXPECT_EQ(state["analyst_plan"]["track"], "QUALITY");
  EXPECT_EQ(state["analyst_plan"]["required_sources"], json::array({"policy", "db"}));
  EXPECT_EQ(state["analyst_plan"]["request_type"], "STATUS_METRIC");
  EXPECT_EQ(state["route_reason"].get<std::string>().rfind("analyst_plan_fallback:", 0), 0u);
  EXPECT_EQ(state["plan_review"]["fell_back"], true);
  EXPECT_EQ(state["plan_review"]["fallback_reason"], "parse_error");
  EXPECT_EQ(h.orbit.calls("policy"), 1u);
  EXPECT_EQ(h.orbit.calls("db"), 1u);
  EXPECT_EQ(h.orbit.calls("doc"), 0u);
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
  EXPECT_EQ(answer["citations"],
            json::array({"doc:architecture.md#Component map", "neo4j:component/billing-engine"}));
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

// The state's record of a plan the rules made because the model failed: a fallback, with its reason.
void expect_model_error_fallback(const json& state) {
  EXPECT_EQ(state["plan_review"]["fell_back"], true) << state["plan_review"];
  EXPECT_EQ(state["plan_review"]["fallback_reason"], "model_error");
  EXPECT_EQ(state["plan_review"]["strategy"], "rules");
  EXPECT_EQ(state["route_reason"].get<std::string>().rfind("analyst_plan_fallback:model_error:", 0), 0u)
      << state["route_reason"];
  EXPECT_EQ(state["analyst_plan"]["intent"], "list_issues_overdue");  // the rules' plan, not parse_error
}

// seed 000 §8 (fallback, "Log for investigation") and §10 (analyst_plan_fallback_total{reason}).
TEST(AnalystLlm, AnUnreachableServerPlansWithTheRulesAndRecordsAFallback) {
  AnalystOptions options;
  testing::OrbitSources orbit = testing::all_orbit_sources();
  options.sources = orbit.map();
  options.llm_base_url = test_support::unreachable_base_url();
  auto metrics = std::make_shared<core::MetricsRegistry>();
  options.metrics = metrics;
  testing::GraphHarness graph(testing::load_services(std::move(options)));

  core::Result<graph::RunResult> result = graph.ask("Which issues are overdue?");

  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(result->status, graph::RunStatus::kDone);
  EXPECT_EQ(result->state.json()["analyst_plan"]["required_sources"], json::array({"db"}));
  expect_model_error_fallback(result->state.json());
  EXPECT_EQ(testing::counter(*metrics, "analyst_plan_fallback_total{reason=\"model_error\"}"), 1.0);
  EXPECT_EQ(testing::counter(*metrics, "analyst_plan_success_total"), 0.0);
}

TEST(AnalystLlm, AnHttpErrorFromTheModelPlansWithTheRulesAndRecordsAFallback) {
  LlmHarness h;
  h.server.script_chat(
      {ScriptedReply::error(404, "model \"orbit-analyst\" not found"), ScriptedReply::chat("x")});

  core::Result<graph::RunResult> result = h.graph->ask("Which issues are overdue?");

  ASSERT_TRUE(result.has_value());
  const json& state = result->state.json();
  expect_model_error_fallback(state);
  EXPECT_NE(state["route_reason"].get<std::string>().find("not found"), std::string::npos)
      << state["route_reason"];
  EXPECT_EQ(h.orbit.calls("db"), 1u);
  EXPECT_EQ(testing::counter(*h.metrics, "analyst_plan_fallback_total{reason=\"model_error\"}"), 1.0);
}

TEST(AnalystLlm, AModelThatTimesOutPlansWithTheRulesAndRecordsAFallback) {
  OpenAiTestServer server;
  server.script_chat(
      {ScriptedReply::chat("{}").with_delay(std::chrono::milliseconds(3000)), ScriptedReply::chat("x")});
  core::Config config;
  ASSERT_TRUE(config.set_flag("llm.timeout_seconds", "1").has_value());
  AnalystOptions options;
  testing::OrbitSources orbit = testing::all_orbit_sources();
  options.sources = orbit.map();
  options.config = &config;
  options.llm_base_url = server.base_url();
  testing::GraphHarness graph(testing::load_services(std::move(options)));

  core::Result<graph::RunResult> result = graph.ask("Which issues are overdue?");

  ASSERT_TRUE(result.has_value());
  expect_model_error_fallback(result->state.json());
  EXPECT_EQ(orbit.calls("db"), 1u);
}

// seed 000 §2 ("Sync with router values (analyst can refine)"): the plan's type and track are the
// state's, the router's stay under "router".
TEST(AnalystLlm, ThePlansRequestTypeAndTrackAreSyncedIntoTheState) {
  LlmHarness h;
  h.server.script_chat(
      {ScriptedReply::chat(
           R"({"intent": "list_connector_owners", "request_type": "STATUS_LIST", "track": "QUALITY",
      "required_sources": ["db"], "missing_info_questions": [], "expected_output_schema": "answer_v1_markdown"})"),
       ScriptedReply::chat("Priya [db:metric/sprint_completion_rate/13]")});

  core::Result<graph::RunResult> result = h.graph->ask("Who owns the payments-connector?");

  ASSERT_TRUE(result.has_value());
  const json& state = result->state.json();
  EXPECT_NE(state["router"]["reason"].get<std::string>().find(" KNOWLEDGE_QA QUALITY ("), std::string::npos)
      << state["router"];
  EXPECT_EQ(state["request_type"], "STATUS_LIST");
  EXPECT_EQ(state["track"], "QUALITY");
  EXPECT_EQ(h.orbit.calls("db"), 1u);
  EXPECT_EQ(h.orbit.calls("neo4j"), 0u);
}

// seed 000 §5 row 1: router FAST, analyst QUALITY -> QUALITY, in the state.
TEST(AnalystLlm, ConflictAnalystQualityPromotesTheRoutersFastInTheState) {
  LlmHarness h;
  json plan = json::parse(kStatusWithDoc);
  plan["required_sources"] = {"db"};
  h.server.script_chat({ScriptedReply::chat(plan.dump()), ScriptedReply::chat("{}")});

  core::Result<graph::RunResult> result = h.graph->ask("What's the sprint completion rate?");

  ASSERT_TRUE(result.has_value());
  const json& state = result->state.json();
  EXPECT_EQ(state["router"]["reason"].get<std::string>().rfind("router:agree STATUS_METRIC FAST", 0), 0u)
      << state["router"];
  EXPECT_EQ(state["track"], "QUALITY");
}

// seed 000 §5 row 2: router DESIGN_ARCH, analyst CASUAL -> DESIGN_ARCH on QUALITY, with doc and policy.
TEST(AnalystLlm, ConflictTheRoutersDesignTypeSurvivesACasualPlanInTheState) {
  LlmHarness h;
  h.server.script_chat({ScriptedReply::chat(R"({"intent": "chat", "request_type": "CASUAL", "track": "FAST",
      "required_sources": [], "missing_info_questions": [], "expected_output_schema": "answer_v1_markdown"})"),
                        ScriptedReply::chat("x")});

  core::Result<graph::RunResult> result = h.graph->ask("Design the new authentication module");

  ASSERT_TRUE(result.has_value());
  const json& state = result->state.json();
  EXPECT_EQ(state["request_type"], "DESIGN_ARCH");
  EXPECT_EQ(state["track"], "QUALITY");
  EXPECT_EQ(state["analyst_plan"]["required_sources"], json::array({"doc", "policy"}));
  EXPECT_EQ(h.orbit.calls("doc"), 1u);
  EXPECT_EQ(h.orbit.calls("policy"), 1u);
}

// seed 000 §5: a CASUAL plan needs no evidence, so it may stay FAST against a QUALITY router.
TEST(AnalystLlm, ConflictACasualPlanStaysFastInTheState) {
  LlmHarness h;
  h.server.script_chat(
      {ScriptedReply::chat(R"({"intent": "small_talk", "request_type": "CASUAL", "track": "FAST",
      "required_sources": [], "missing_info_questions": [], "expected_output_schema": "answer_v1_markdown"})")});

  core::Result<graph::RunResult> result = h.graph->ask("Who owns the payments-connector?");

  ASSERT_TRUE(result.has_value());
  const json& state = result->state.json();
  EXPECT_EQ(state["request_type"], "CASUAL");
  EXPECT_EQ(state["track"], "FAST");
  EXPECT_FALSE(state.contains("source_status"));
}

// seed 000 §3-§4 through a model: a DESIGN_ARCH plan naming no source retrieves doc and policy.
TEST(AnalystLlm, ADesignPlanWithoutSourcesRetrievesDocAndPolicyAndLogsTheRepair) {
  LlmHarness h;
  h.server.script_chat(
      {ScriptedReply::chat(R"({"intent": "design_auth", "request_type": "DESIGN_ARCH", "track": "QUALITY",
      "required_sources": [], "missing_info_questions": [], "expected_output_schema": "design_doc_v1_markdown"})"),
       ScriptedReply::chat("x")});

  core::Result<graph::RunResult> result = h.graph->ask("Design the new authentication module");

  ASSERT_TRUE(result.has_value());
  const json& state = result->state.json();
  EXPECT_EQ(state["analyst_plan"]["required_sources"], json::array({"doc", "policy"}));
  EXPECT_EQ(state["plan_review"]["warnings"],
            json::array({"repair:required_sources added doc, policy to a DESIGN_ARCH plan"}));
  EXPECT_EQ(state["plan_review"]["fell_back"], false);
}

// Lenient reading (seed 000 §8, "Parse Failure" is for what cannot be read): the optional members
// are completed and a trailing comma is repaired, both logged in plan_review.
TEST(AnalystLlm, AReplyMissingOptionalMembersWithATrailingCommaIsCompletedNotRejected) {
  LlmHarness h;
  h.server.script_chat(
      {ScriptedReply::chat(
           R"({"intent": "who_owns_connector", "request_type": "KNOWLEDGE_QA", "track": "QUALITY",
      "required_sources": ["doc", "neo4j",],})"),
       ScriptedReply::chat("It is in the component map [doc:architecture.md#Component map].")});

  core::Result<graph::RunResult> result = h.graph->ask("Who owns the payments-connector?");

  ASSERT_TRUE(result.has_value());
  const json& state = result->state.json();
  EXPECT_EQ(state["plan_review"]["fell_back"], false) << state["plan_review"];
  EXPECT_EQ(state["analyst_plan"]["intent"], "who_owns_connector");
  EXPECT_EQ(state["analyst_plan"]["missing_info_questions"], json::array());
  EXPECT_EQ(state["analyst_plan"]["expected_output_schema"], "answer_v1_markdown");
  EXPECT_EQ(state["plan_review"]["warnings"],
            json::array({"lenient:trailing_comma removed 2 comma(s) before } or ]",
                         "lenient:missing_info_questions absent, completed with []",
                         "lenient:expected_output_schema absent, completed with answer_v1_markdown"}));
  EXPECT_EQ(state["answer"]["strategy"], "llm");
}

// Issue 31, row "What's the weather in Paris?": out of scope is the router's call; no model is asked.
TEST(AnalystLlm, AnOutOfScopeQuestionAsksNoModel) {
  LlmHarness h;

  core::Result<graph::RunResult> result = h.graph->ask("What's the weather in Paris?");

  ASSERT_TRUE(result.has_value());
  EXPECT_TRUE(h.server.requests("/v1/chat/completions").empty());
  EXPECT_EQ(result->state.json()["analyst_plan"]["intent"], "out_of_scope");
  EXPECT_EQ(result->state.json()["plan_review"]["strategy"], "rules");
}

}  // namespace
}  // namespace planfirst::analyst
