// tests/pipelines/analyst/plan_guard_test.cpp: the rules strategy for every request type, the output
// guard, every row of the conflict table, the question limits and the seed's fallback (§2-§5, §8).
#include "pipelines/analyst/plan_guard.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "contracts/contract_registry.hpp"
#include "core/metrics.hpp"
#include "pipelines/analyst/analyst_fixture.hpp"
#include "pipelines/analyst/rule_analyst.hpp"
#include "pipelines/analyst/source_policy.hpp"

namespace planfirst::analyst {
namespace {

using nlohmann::json;

class PlanGuardTest : public ::testing::Test {
 protected:
  PlanGuardTest()
      : contracts_(*contracts::ContractRegistry::load(core::AssetStore())),
        guard_(contracts_, AnalystMetrics(&metrics_)) {}

  static RouterChoice router(RequestType type, Track track) { return {type, track, "router:test"}; }

  core::MetricsRegistry metrics_;
  contracts::ContractRegistry contracts_;
  PlanGuard guard_;
  RuleAnalyst rules_ = *RuleAnalyst::load(core::AssetStore());
};

json plan_json(std::string type, std::string track, json sources, json questions = json::array(),
               std::string schema = "answer_v1_markdown") {
  return {{"intent", "test_intent"},
          {"request_type", type},
          {"track", track},
          {"required_sources", sources},
          {"missing_info_questions", questions},
          {"expected_output_schema", schema}};
}

struct TypeCase {
  RequestType type;
  const char* question;  // an Orbit question of that type
  std::vector<std::string> sources;
  const char* schema;
};

TEST_F(PlanGuardTest, RulesStrategyPlansEveryRequestTypeFromTheSeedTables) {
  const std::vector<TypeCase> cases = {
      {RequestType::kStatusMetric, "What's the sprint completion rate?", {"db"}, "status_metric_v1_json"},
      {RequestType::kStatusSummary, "How is sprint 14 going?", {"db"}, "answer_v1_markdown"},
      {RequestType::kStatusList, "Which issues are overdue?", {"db"}, "answer_v1_markdown"},
      {RequestType::kHowtoPolicy,
       "How do I request a production hotfix?",
       {"policy", "doc"},
       "answer_v1_markdown"},
      {RequestType::kDesignArch,
       "Design the new authentication module",
       {"doc", "policy"},
       "design_doc_v1_markdown"},
      {RequestType::kDataDefinition, "How is velocity defined?", {"policy", "doc"}, "answer_v1_markdown"},
      {RequestType::kTroubleshooting,
       "Why is the api-gateway returning 502 errors?",
       {"db", "neo4j", "doc"},  // the seed's db, neo4j and this project's doc (additional_sources_by_type)
       "answer_v1_markdown"},
      {RequestType::kKnowledgeQa, "Who owns the payments-connector?", {"doc", "neo4j"}, "answer_v1_markdown"},
      {RequestType::kCasual, "thanks!", {}, "answer_v1_markdown"},
  };
  for (const TypeCase& c : cases) {
    const AnalystPlan proposed = rules_.plan(c.question, c.type, Track::kQuality, true);

    const PlanDecision decision = guard_.accept(to_json(proposed), router(c.type, Track::kQuality), "rules");

    EXPECT_FALSE(decision.fell_back) << c.question << ": " << decision.route_reason;
    EXPECT_EQ(decision.plan.request_type, c.type) << c.question;
    EXPECT_EQ(decision.plan.required_sources, c.sources) << c.question;
    EXPECT_EQ(decision.plan.expected_output_schema, c.schema) << c.question;
    EXPECT_TRUE(decision.plan.missing_info_questions.empty()) << c.question;
  }
  EXPECT_EQ(testing::counter(metrics_, "analyst_plan_success_total"), 9.0);
}

TEST_F(PlanGuardTest, StatusMetricPlanHasDbAndNoDoc) {
  const PlanDecision decision =
      guard_.accept(to_json(rules_.plan("What's the sprint completion rate?", RequestType::kStatusMetric,
                                        Track::kFast, true)),
                    router(RequestType::kStatusMetric, Track::kFast), "rules");

  EXPECT_EQ(decision.plan.intent, "query_sprint_completion_rate");
  EXPECT_EQ(decision.plan.required_sources, std::vector<std::string>{"db"});
}

TEST_F(PlanGuardTest, AVagueMetricQuestionAsksOneQuestionAndPromotesToQuality) {
  const AnalystPlan plan = rules_.plan("What's our rate?", RequestType::kStatusMetric, Track::kFast, true);

  const PlanDecision decision =
      guard_.accept(to_json(plan), router(RequestType::kStatusMetric, Track::kFast), "rules");

  ASSERT_EQ(decision.plan.missing_info_questions.size(), 1u);
  EXPECT_EQ(decision.plan.track, Track::kQuality);
  EXPECT_EQ(decision.plan.expected_output_schema, "clarification_v1");
  EXPECT_NE(decision.route_reason.find("conflict:analyst_promotes FAST -> QUALITY"), std::string::npos);
  EXPECT_EQ(testing::counter(metrics_, "analyst_questions_generated_total"), 1.0);
}

TEST_F(PlanGuardTest, NoQuestionOnceTheThreadWasClarified) {
  const AnalystPlan plan =
      rules_.plan("What's our rate?", RequestType::kStatusMetric, Track::kQuality, false);

  EXPECT_TRUE(plan.missing_info_questions.empty());
}

// Conflict table row 1: Router FAST, Analyst QUALITY -> Analyst wins (promotes to QUALITY).
TEST_F(PlanGuardTest, ConflictAnalystPromotesFastToQuality) {
  const PlanDecision decision = guard_.accept(plan_json("STATUS_LIST", "QUALITY", {"db"}),
                                              router(RequestType::kStatusList, Track::kFast), "llm");

  EXPECT_FALSE(decision.fell_back);
  EXPECT_EQ(decision.plan.track, Track::kQuality);
}

// The analyst may promote, never demote: a QUALITY router track stays QUALITY.
TEST_F(PlanGuardTest, ConflictRouterQualityIsNotDemoted) {
  const PlanDecision decision = guard_.accept(plan_json("STATUS_LIST", "FAST", {"db"}),
                                              router(RequestType::kStatusList, Track::kQuality), "llm");

  EXPECT_EQ(decision.plan.track, Track::kQuality);
}

// Conflict table row 2: Router DESIGN_ARCH, Analyst CASUAL -> Router wins (high-stakes type kept).
TEST_F(PlanGuardTest, ConflictHighStakesRouterTypeSurvivesADowngrade) {
  const PlanDecision decision = guard_.accept(plan_json("CASUAL", "FAST", json::array()),
                                              router(RequestType::kDesignArch, Track::kQuality), "llm");

  EXPECT_FALSE(decision.fell_back);
  EXPECT_EQ(decision.plan.request_type, RequestType::kDesignArch);
  EXPECT_EQ(decision.plan.track, Track::kQuality);
  EXPECT_EQ(decision.plan.required_sources, (std::vector<std::string>{"doc", "policy"}));
  EXPECT_EQ(decision.plan.expected_output_schema, "design_doc_v1_markdown");
  EXPECT_NE(decision.route_reason.find("conflict:router_wins DESIGN_ARCH kept over analyst CASUAL"),
            std::string::npos);
}

TEST_F(PlanGuardTest, ConflictEveryHighStakesTypeSurvivesADowngradeToStatus) {
  for (RequestType type : {RequestType::kDesignArch, RequestType::kHowtoPolicy, RequestType::kDataDefinition,
                           RequestType::kTroubleshooting}) {
    const PlanDecision decision =
        guard_.accept(plan_json("STATUS_SUMMARY", "QUALITY", {"db"}), router(type, Track::kQuality), "llm");

    EXPECT_EQ(decision.plan.request_type, type) << to_string(type);
  }
}

TEST_F(PlanGuardTest, ConflictAnalystMayRefineANonHighStakesType) {
  const PlanDecision decision =
      guard_.accept(plan_json("STATUS_METRIC", "QUALITY", {"db"}, json::array(), "status_metric_v1_json"),
                    router(RequestType::kKnowledgeQa, Track::kQuality), "llm");

  EXPECT_EQ(decision.plan.request_type, RequestType::kStatusMetric);
}

// Conflict table row 3: Router STATUS_METRIC, Analyst adds "doc" -> output_guard FAIL (source_forbidden).
TEST_F(PlanGuardTest, ConflictStatusPlanNamingDocFailsTheGuardAndIsRepaired) {
  const PlanDecision decision =
      guard_.accept(plan_json("STATUS_METRIC", "QUALITY", {"doc"}, json::array(), "status_metric_v1_json"),
                    router(RequestType::kStatusMetric, Track::kFast), "llm");

  EXPECT_FALSE(decision.fell_back);
  EXPECT_EQ(decision.plan.required_sources, std::vector<std::string>{"db"});
  ASSERT_EQ(decision.guard_failures.size(), 1u);
  EXPECT_EQ(decision.guard_failures[0].rfind("source_forbidden", 0), 0u);
  EXPECT_EQ(testing::counter(metrics_, "analyst_output_guard_failures_total{reason=\"source_forbidden\"}"),
            1.0);
}

TEST_F(PlanGuardTest, AStatusPlanStillInvalidAfterTheRepairFallsBack) {
  const PlanDecision decision =
      guard_.accept(plan_json("STATUS_LIST", "QUALITY", {"db", "doc"}, json::array(), "Not An Id"),
                    router(RequestType::kStatusList, Track::kQuality), "llm");

  EXPECT_TRUE(decision.fell_back);
  EXPECT_EQ(decision.guard_failures.size(), 1u);
  EXPECT_EQ(decision.route_reason.rfind("analyst_plan_fallback:validation_failed:", 0), 0u)
      << decision.route_reason;
}

TEST_F(PlanGuardTest, FastTrackQuestionsAreDroppedWithAWarning) {
  const PlanDecision decision = guard_.accept(plan_json("STATUS_LIST", "FAST", {"db"}, {"Which sprint?"}),
                                              router(RequestType::kStatusList, Track::kFast), "llm");

  EXPECT_FALSE(decision.fell_back);
  EXPECT_TRUE(decision.plan.missing_info_questions.empty());
  ASSERT_FALSE(decision.warnings.empty());
  EXPECT_EQ(decision.warnings[0], "question_limit: FAST track, dropped 1 question(s)");
}

TEST_F(PlanGuardTest, AFastClarificationWhoseQuestionIsDroppedAnswersInItsTypesSchema) {
  const PlanDecision decision =
      guard_.accept(plan_json("STATUS_METRIC", "FAST", {"db"}, {"Which sprint?"}, "clarification_v1"),
                    router(RequestType::kStatusMetric, Track::kFast), "llm");

  EXPECT_FALSE(decision.fell_back) << decision.route_reason;
  EXPECT_TRUE(decision.plan.missing_info_questions.empty());
  EXPECT_EQ(decision.plan.expected_output_schema, "status_metric_v1_json");
}

TEST_F(PlanGuardTest, AFastClarificationWithARequestTypeOrSchemaThatIsNotTextFallsBackInsteadOfThrowing) {
  for (const char* field : {"request_type", "expected_output_schema"}) {
    json candidate = plan_json("STATUS_METRIC", "FAST", {"db"}, {"Which sprint?"}, "clarification_v1");
    candidate[field] = 7;

    const PlanDecision decision =
        guard_.accept(candidate, router(RequestType::kStatusMetric, Track::kFast), "llm");

    EXPECT_TRUE(decision.fell_back) << field;
    EXPECT_EQ(decision.fallback_reason, "validation_failed") << field;
  }
}

TEST_F(PlanGuardTest, QualityTrackKeepsAtMostOneQuestion) {
  const PlanDecision decision = guard_.accept(
      plan_json("STATUS_METRIC", "QUALITY", {"db"}, {"Which sprint?", "Which team?"}, "clarification_v1"),
      router(RequestType::kStatusMetric, Track::kQuality), "llm");

  EXPECT_EQ(decision.plan.missing_info_questions, std::vector<std::string>{"Which sprint?"});
}

TEST_F(PlanGuardTest, NonJsonReplyFallsBackToTheSeedsSafePlan) {
  const PlanDecision decision =
      guard_.accept_reply("This is not JSON", router(RequestType::kStatusMetric, Track::kFast), "llm");

  EXPECT_TRUE(decision.fell_back);
  EXPECT_EQ(decision.fallback_reason, "parse_error");
  EXPECT_EQ(to_json(decision.plan), to_json(fallback_plan(RequestType::kStatusMetric)));
  EXPECT_EQ(decision.plan.intent, "parse_error");
  EXPECT_EQ(decision.plan.track, Track::kQuality);
  EXPECT_EQ(decision.plan.required_sources, (std::vector<std::string>{"policy", "db"}));
  EXPECT_EQ(decision.plan.expected_output_schema, "answer_v1_markdown");
  EXPECT_EQ(decision.route_reason.rfind("analyst_plan_fallback:no_json", 0), 0u) << decision.route_reason;
  EXPECT_EQ(testing::counter(metrics_, "analyst_plan_fallback_total{reason=\"parse_error\"}"), 1.0);
}

TEST_F(PlanGuardTest, ContractViolationFallsBackWithTheErrors) {
  const PlanDecision decision =
      guard_.accept_reply(R"({"intent": "x", "request_type": "STATUS_REPORT"})",
                          router(RequestType::kKnowledgeQa, Track::kQuality), "llm");

  EXPECT_TRUE(decision.fell_back);
  EXPECT_EQ(decision.fallback_reason, "validation_failed");
  EXPECT_EQ(decision.plan.request_type, RequestType::kKnowledgeQa);
  EXPECT_NE(decision.route_reason.find("/request_type"), std::string::npos) << decision.route_reason;
  EXPECT_EQ(testing::counter(metrics_, "analyst_plan_fallback_total{reason=\"validation_failed\"}"), 1.0);
}

TEST_F(PlanGuardTest, CountsTheSourcesEachPlanSelects) {
  (void)guard_.accept(plan_json("TROUBLESHOOTING", "QUALITY", {"db", "neo4j"}),
                      router(RequestType::kTroubleshooting, Track::kQuality), "llm");

  EXPECT_EQ(
      testing::counter(metrics_, "analyst_source_selection{request_type=\"TROUBLESHOOTING\",source=\"db\"}"),
      1.0);
  EXPECT_EQ(testing::counter(metrics_,
                             "analyst_source_selection{request_type=\"TROUBLESHOOTING\",source=\"neo4j\"}"),
            1.0);
}

// seed 000 §3-§4 ("Enforce STATUS→DB, DESIGN→doc/policy"): the type's sources are added, not only
// recommended, and the repair is logged.
TEST_F(PlanGuardTest, ADesignPlanWithNoSourcesGetsDocAndPolicyAndLogsTheRepair) {
  const PlanDecision decision = guard_.accept(
      plan_json("DESIGN_ARCH", "QUALITY", json::array(), json::array(), "design_doc_v1_markdown"),
      router(RequestType::kDesignArch, Track::kQuality), "llm");

  EXPECT_FALSE(decision.fell_back) << decision.route_reason;
  EXPECT_EQ(decision.plan.required_sources, (std::vector<std::string>{"doc", "policy"}));
  EXPECT_EQ(decision.warnings, std::vector<std::string>{"repair:required_sources added doc, policy to a "
                                                        "DESIGN_ARCH plan"});
}

// seed 000 §3 (TROUBLESHOOTING -> db, neo4j) plus doc, which the seed does not forbid for it (§3's
// FORBIDDEN_SOURCES_BY_TYPE names STATUS_* only): incident reviews are documents.
TEST_F(PlanGuardTest, ATroubleshootingPlanWithNoSourcesGetsDbNeo4jAndDoc) {
  const PlanDecision decision = guard_.accept(plan_json("TROUBLESHOOTING", "QUALITY", json::array()),
                                              router(RequestType::kTroubleshooting, Track::kQuality), "llm");

  EXPECT_EQ(decision.plan.required_sources, (std::vector<std::string>{"db", "neo4j", "doc"}));
  ASSERT_EQ(decision.warnings.size(), 1u);
  EXPECT_EQ(decision.warnings[0], "repair:required_sources added db, neo4j, doc to a TROUBLESHOOTING plan");
}

// seed 000 §2 ("required_sources MUST include db") and §8: a STATUS_* plan without db gets db instead of
// falling back to the policy-only plan.
TEST_F(PlanGuardTest, AStatusPlanWithoutDbGetsDbInsteadOfFallingBack) {
  const PlanDecision decision = guard_.accept(plan_json("STATUS_SUMMARY", "QUALITY", {"policy", "doc"}),
                                              router(RequestType::kStatusSummary, Track::kQuality), "llm");

  EXPECT_FALSE(decision.fell_back) << decision.route_reason;
  EXPECT_EQ(decision.plan.required_sources, (std::vector<std::string>{"policy", "db"}));
  EXPECT_EQ(decision.warnings,
            (std::vector<std::string>{"repair:source_forbidden removed doc from a STATUS_SUMMARY plan",
                                      "repair:required_sources added db to a STATUS_SUMMARY plan"}));
  EXPECT_EQ(decision.guard_failures.size(), 1u);  // doc on a STATUS_* plan is still an output guard FAIL
}

// seed 000 §3: every type's plan ends with its required sources and none it forbids, whatever it named.
TEST_F(PlanGuardTest, EveryTypesPlanEndsWithItsRequiredSourcesAndNoForbiddenOne) {
  for (RequestType type : kAllRequestTypes) {
    const PlanDecision decision = guard_.accept(plan_json(std::string(to_string(type)), "QUALITY", {"doc"}),
                                                router(type, Track::kQuality), "llm");

    ASSERT_FALSE(decision.fell_back) << to_string(type) << ": " << decision.route_reason;
    const std::vector<std::string>& sources = decision.plan.required_sources;
    for (const std::string& required : required_sources_by_type(type)) {
      EXPECT_NE(std::find(sources.begin(), sources.end(), required), sources.end())
          << to_string(type) << " lacks " << required;
    }
    for (const std::string& forbidden : forbidden_sources_by_type(type)) {
      EXPECT_EQ(std::find(sources.begin(), sources.end(), forbidden), sources.end())
          << to_string(type) << " keeps " << forbidden;
    }
  }
}

// seed 000 §5: high-stakes types run on QUALITY, even when router and analyst both said FAST.
TEST_F(PlanGuardTest, ConflictAHighStakesPlanRunsOnQuality) {
  const PlanDecision decision = guard_.accept(plan_json("TROUBLESHOOTING", "FAST", {"db", "neo4j", "doc"}),
                                              router(RequestType::kStatusList, Track::kFast), "llm");

  EXPECT_EQ(decision.plan.request_type, RequestType::kTroubleshooting);
  EXPECT_EQ(decision.plan.track, Track::kQuality);
  EXPECT_NE(decision.route_reason.find("conflict:high_stakes_quality TROUBLESHOOTING runs on QUALITY"),
            std::string::npos)
      << decision.route_reason;
}

// seed 000 §5: the analyst never demotes QUALITY, except that a CASUAL plan (no retrieval) may stay FAST.
TEST_F(PlanGuardTest, ConflictACasualPlanMayStayFast) {
  const PlanDecision decision = guard_.accept(plan_json("CASUAL", "FAST", json::array()),
                                              router(RequestType::kKnowledgeQa, Track::kQuality), "llm");

  EXPECT_EQ(decision.plan.request_type, RequestType::kCasual);
  EXPECT_EQ(decision.plan.track, Track::kFast);
  EXPECT_NE(decision.route_reason.find("conflict:casual_stays_fast"), std::string::npos)
      << decision.route_reason;
}

// seed 000 §2 (_fallback_plan) under §2's own rule: the fallback of every type passes the guard it
// stands in for; a STATUS_* fallback keeps db.
TEST_F(PlanGuardTest, TheFallbackPlanOfEveryTypePassesThePlansOwnGuard) {
  for (RequestType type : kAllRequestTypes) {
    const PlanDecision decision =
        guard_.accept_reply("This is not JSON", router(type, Track::kQuality), "llm");

    ASSERT_TRUE(decision.fell_back) << to_string(type);
    core::Result<contracts::ValidationReport> report =
        contracts::validate_role_output(contracts_, "ANALYST", to_json(decision.plan));
    ASSERT_TRUE(report.has_value()) << report.error().describe();
    EXPECT_TRUE(report->ok()) << to_string(type) << ": " << report->describe();
    EXPECT_TRUE(enforce_sources(type, decision.plan.required_sources).notes.empty()) << to_string(type);
    EXPECT_EQ(decision.plan.required_sources.front(), "policy") << to_string(type);  // the seed's own source
  }
  const PlanDecision status =
      guard_.accept_reply("not JSON", router(RequestType::kStatusList, Track::kFast), "llm");
  EXPECT_EQ(status.plan.required_sources, (std::vector<std::string>{"policy", "db"}));
  EXPECT_EQ(status.warnings, std::vector<std::string>{
                                 "repair:required_sources added db to a STATUS_LIST plan (fallback plan)"});
}

// seed 000 §2's schema marks missing_info_questions and expected_output_schema as the plan's; a model
// that leaves them out gets the seed's defaults (§2 _fallback_plan's [] and answer_v1_markdown).
TEST_F(PlanGuardTest, AReplyWithoutTheOptionalMembersIsCompletedWithDefaults) {
  const PlanDecision decision = guard_.accept_reply(
      R"({"intent": "who_owns_billing", "request_type": "KNOWLEDGE_QA", "track": "QUALITY",
          "required_sources": ["doc", "neo4j"]})",
      router(RequestType::kKnowledgeQa, Track::kQuality), "llm");

  EXPECT_FALSE(decision.fell_back) << decision.route_reason;
  EXPECT_TRUE(decision.plan.missing_info_questions.empty());
  EXPECT_EQ(decision.plan.expected_output_schema, "answer_v1_markdown");
  EXPECT_EQ(
      decision.warnings,
      (std::vector<std::string>{"lenient:missing_info_questions absent, completed with []",
                                "lenient:expected_output_schema absent, completed with answer_v1_markdown"}));
}

// seed 000 §8 ("Parse Failure"): a trailing comma is repaired and logged, not a fallback.
TEST_F(PlanGuardTest, ATrailingCommaIsRepairedAndLogged) {
  const PlanDecision decision = guard_.accept_reply(
      "```json\n{\"intent\": \"list_overdue\", \"request_type\": \"STATUS_LIST\", \"track\": \"FAST\",\n"
      " \"required_sources\": [\"db\",], \"missing_info_questions\": [], \"expected_output_schema\": "
      "\"answer_v1_markdown\",\n}\n```",
      router(RequestType::kStatusList, Track::kFast), "llm");

  EXPECT_FALSE(decision.fell_back) << decision.route_reason;
  EXPECT_EQ(decision.plan.intent, "list_overdue");
  EXPECT_EQ(decision.plan.required_sources, std::vector<std::string>{"db"});
  EXPECT_EQ(decision.warnings,
            std::vector<std::string>{"lenient:trailing_comma removed 2 comma(s) before } or ]"});
}

TEST_F(PlanGuardTest, AReplyInvalidBeyondATrailingCommaStillFallsBack) {
  const PlanDecision decision = guard_.accept_reply(R"({"intent": "x", "request_type": STATUS_LIST,})",
                                                    router(RequestType::kStatusList, Track::kFast), "llm");

  EXPECT_TRUE(decision.fell_back);
  EXPECT_EQ(decision.route_reason.rfind("analyst_plan_fallback:invalid:", 0), 0u) << decision.route_reason;
}

}  // namespace
}  // namespace planfirst::analyst
