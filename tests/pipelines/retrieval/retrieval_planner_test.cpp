#include "pipelines/retrieval/retrieval_planner.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "retrieval_fixture.hpp"

namespace planfirst::retrieval {
namespace {

using testing::reasoning_with;

const RetrievalPlanner& planner() {
  static const RetrievalPlanner kPlanner(testing::shipped_plan_rules());
  return kPlanner;
}

PlannerOutput planned(const Reasoning& reasoning) {
  core::Result<PlannerOutput> output = planner().plan(reasoning);
  EXPECT_TRUE(output.has_value()) << (output ? "" : output.error().describe());
  return output ? *output : PlannerOutput{};
}

nlohmann::json json_of(const PlannerOutput& output) {
  nlohmann::json plans = nlohmann::json::array();
  for (const RetrievalPlan& plan : output.plans) plans.push_back(to_json(plan));
  nlohmann::json queries = nlohmann::json::array();
  for (const RetrievalQuery& query : output.queries) queries.push_back(to_json(query));
  return {{"retrieval", {{"plans", plans}, {"queries", queries}}}};
}

TEST(RetrievalPlanner, QueryCommitsIsTheSeedsFullOutputExample) {
  const PlannerOutput output =
      planned(reasoning_with({{"query_commits", 0.9}}, {{"projects", {"repo1"}}, {"dates", {"last week"}}}));

  EXPECT_EQ(json_of(output), nlohmann::json::parse(R"({"retrieval": {
      "plans": [{"id": "plan0", "description": "Retrieve commit data from GitLab", "sources": ["gitlab"],
                 "filters": {"projects": ["repo1"], "dates": ["last week"]}, "priority": 10}],
      "queries": [{"id": "plan0_query",
                   "query_string": "Retrieve commit data from GitLab projects:repo1 dates:last week",
                   "source": "gitlab", "filters": {"projects": ["repo1"], "dates": ["last week"]}}]}})"));
}

TEST(RetrievalPlanner, QueryIssuesTakesProjectsDatesAndStatusesFromYouTrack) {
  const PlannerOutput output = planned(reasoning_with(
      {{"query_issues", 0.85}},
      {{"projects", {"proj-123"}}, {"dates", {"this month"}}, {"statuses", {"open", "in-progress"}}}));

  ASSERT_EQ(output.plans.size(), 1u);
  EXPECT_EQ(to_json(output.plans[0]), nlohmann::json::parse(R"({"id": "plan0",
      "description": "Retrieve issue data from YouTrack", "sources": ["youtrack"],
      "filters": {"projects": ["proj-123"], "dates": ["this month"], "statuses": ["open", "in-progress"]},
      "priority": 10})"));
}

TEST(RetrievalPlanner, QueryAnalyticsMakesGitLabAndYouTrackMetricPlansAtPriorityNine) {
  const PlannerOutput output = planned(
      reasoning_with({{"query_analytics", 0.85}}, {{"projects", {"repo1"}}, {"dates", {"2024-01-15"}}}));

  ASSERT_EQ(output.plans.size(), 2u);
  EXPECT_EQ(output.plans[0].description, "Retrieve commit metrics from GitLab");
  EXPECT_EQ(output.plans[0].sources, std::vector<std::string>{"gitlab"});
  EXPECT_EQ(output.plans[1].description, "Retrieve issue metrics from YouTrack");
  EXPECT_EQ(output.plans[1].sources, std::vector<std::string>{"youtrack"});
  EXPECT_EQ(output.plans[0].priority, 9);
  EXPECT_EQ(output.plans[1].priority, 9);
  EXPECT_EQ(output.queries[0].query_string,
            "Retrieve commit metrics from GitLab projects:repo1 dates:2024-01-15");
}

TEST(RetrievalPlanner, QueryStatusUsesTheSeedsFixedFiltersAtPriorityEight) {
  const PlannerOutput output = planned(reasoning_with({{"query_status", 0.7}}, {{"dates", {"yesterday"}}}));

  ASSERT_EQ(output.plans.size(), 2u);
  EXPECT_EQ(to_json(output.plans[0]), nlohmann::json::parse(R"({"id": "plan0",
      "description": "Retrieve recent commits for activity status", "sources": ["gitlab"],
      "filters": {"dates": ["last week"]}, "priority": 8})"));
  EXPECT_EQ(to_json(output.plans[1]), nlohmann::json::parse(R"({"id": "plan1",
      "description": "Retrieve open issues for health status", "sources": ["youtrack"],
      "filters": {"statuses": ["open", "in-progress"]}, "priority": 8})"));
  EXPECT_EQ(output.queries[1].query_string,
            "Retrieve open issues for health status statuses:open,in-progress");
}

// "status of group/app": the project was recognised and then dropped from both plans.
TEST(RetrievalPlanner, QueryStatusKeepsTheProjectTheQuestionNames) {
  const PlannerOutput output =
      planned(reasoning_with({{"query_status", 0.6}}, {{"projects", {"group/app"}}}));

  ASSERT_EQ(output.plans.size(), 2u);
  EXPECT_EQ(output.queries[0].query_string,
            "Retrieve recent commits for activity status projects:group/app dates:last week");
  EXPECT_EQ(output.queries[1].query_string,
            "Retrieve open issues for health status projects:group/app statuses:open,in-progress");
}

TEST(RetrievalPlanner, IssuePlansFilterByAssigneesAndAuthorsAfterTheSeedsFilters) {
  const PlannerOutput output = planned(reasoning_with({{"query_issues", 0.9}}, {{"projects", {"mobile-app"}},
                                                                                {"statuses", {"open"}},
                                                                                {"assignees", {"alice"}},
                                                                                {"authors", {"bob"}}}));

  ASSERT_EQ(output.plans.size(), 1u);
  EXPECT_EQ(to_json(output.plans[0])["filters"], nlohmann::json::parse(R"({"projects": ["mobile-app"],
      "statuses": ["open"], "assignees": ["alice"], "authors": ["bob"]})"));
  EXPECT_EQ(
      output.queries[0].query_string,
      "Retrieve issue data from YouTrack projects:mobile-app statuses:open assignees:alice authors:bob");
}

TEST(RetrievalPlanner, CommitPlansTakeAuthorsButNoAssignees) {
  const PlannerOutput output =
      planned(reasoning_with({{"query_commits", 0.9}}, {{"assignees", {"alice"}}, {"authors", {"bob"}}}));

  ASSERT_EQ(output.plans.size(), 1u);
  EXPECT_EQ(output.queries[0].query_string, "Retrieve commit data from GitLab authors:bob");
}

TEST(RetrievalPlanner, IntentsWithoutRulesGetTheGenericFallbackAtPriorityFive) {
  for (const char* intent : {"command_action", "request_help", "conversation", "something_new"}) {
    const PlannerOutput output = planned(reasoning_with({{intent, 0.8}}, {{"providers", {"openai"}}}));

    ASSERT_EQ(output.plans.size(), 1u) << intent;
    EXPECT_EQ(output.plans[0].sources, std::vector<std::string>{"generic"});
    EXPECT_EQ(output.plans[0].priority, 5);
    EXPECT_EQ(output.queries[0].query_string,
              "Retrieve related information from general sources providers:openai");
  }
}

TEST(RetrievalPlanner, ConsolidatesSeveralIntentsAndSortsByPriorityStably) {
  const PlannerOutput output = planned(reasoning_with({{"request_help", 0.9},
                                                       {"query_status", 0.8},
                                                       {"query_commits", 0.9},
                                                       {"query_analytics", 0.6},
                                                       {"query_issues", 0.8}}));

  std::vector<std::pair<std::string, int>> order;
  for (const RetrievalPlan& plan : output.plans) order.emplace_back(plan.id, plan.priority);

  EXPECT_EQ(order, (std::vector<std::pair<std::string, int>>{{"plan3", 10},
                                                             {"plan6", 10},
                                                             {"plan4", 9},
                                                             {"plan5", 9},
                                                             {"plan1", 8},
                                                             {"plan2", 8},
                                                             {"plan0", 5}}));
  ASSERT_EQ(output.queries.size(), 7u);
  EXPECT_EQ(output.queries[0].id, "plan3_query");
}

TEST(RetrievalPlanner, TwoHighConfidenceIntentsMakeTwoPriorityTenPlansInIntentOrder) {
  const PlannerOutput output = planned(reasoning_with({{"query_issues", 0.8}, {"query_commits", 0.9}}));

  ASSERT_EQ(output.plans.size(), 2u);
  EXPECT_EQ(output.plans[0].sources, std::vector<std::string>{"youtrack"});
  EXPECT_EQ(output.plans[1].sources, std::vector<std::string>{"gitlab"});
}

TEST(RetrievalPlanner, SkipsIntentsBelowThePointThreeThreshold) {
  const PlannerOutput output =
      planned(reasoning_with({{"query_commits", 0.29}, {"query_issues", 0.3}, {"query_analytics", 0.1}}));

  ASSERT_EQ(output.plans.size(), 1u);
  EXPECT_EQ(output.plans[0].description, "Retrieve issue data from YouTrack");
  ASSERT_EQ(output.skipped.size(), 2u);
  EXPECT_EQ(output.skipped[0].type, "query_commits");
}

TEST(RetrievalPlanner, AllIntentsBelowThresholdGiveEmptyPlansNotAnError) {
  const PlannerOutput output = planned(reasoning_with({{"query_commits", 0.2}}));

  EXPECT_TRUE(output.plans.empty());
  EXPECT_TRUE(output.queries.empty());
}

TEST(RetrievalPlanner, RepeatedIntentsDoNotRepeatPlans) {
  const PlannerOutput output = planned(reasoning_with({{"query_commits", 0.9}, {"query_commits", 0.5}}));

  ASSERT_EQ(output.plans.size(), 1u);
}

TEST(RetrievalPlanner, QueryStringsNameFiltersInTheSeedsOrderWithCommaJoinedValues) {
  const PlannerOutput output =
      planned(reasoning_with({{"query_commits", 0.9}}, {{"projects", {"proj1", "proj2"}},
                                                        {"dates", {"last week"}},
                                                        {"statuses", {"open"}},
                                                        {"providers", {"gitlab"}}}));

  EXPECT_EQ(output.queries[0].query_string,
            "Retrieve commit data from GitLab projects:proj1,proj2 dates:last week");
}

TEST(RetrievalPlanner, NoFiltersLeaveTheBareDescription) {
  const PlannerOutput output = planned(reasoning_with({{"query_commits", 0.9}}));

  EXPECT_EQ(output.queries[0].query_string, "Retrieve commit data from GitLab");
  EXPECT_TRUE(output.plans[0].filters.empty());
}

TEST(RetrievalPlanner, NoIntentsIsThePreconditionErrorOfTheSeed) {
  Reasoning reasoning = reasoning_with({});

  core::Result<PlannerOutput> output = planner().plan(reasoning);

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().message, "No intents found in context");
  EXPECT_EQ(output.error().code, core::ErrorCode::kFailedPrecondition);
}

TEST(RetrievalPlanner, NoHypothesesIsThePreconditionErrorOfTheSeed) {
  Reasoning reasoning = reasoning_with({{"query_commits", 0.9}});
  reasoning.hypotheses.clear();

  core::Result<PlannerOutput> output = planner().plan(reasoning);

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().message, "No hypotheses found in context");
}

TEST(RetrievalPlanner, LeavesItsInputUnchanged) {
  const Reasoning reasoning = reasoning_with({{"query_status", 0.9}, {"query_commits", 0.2}},
                                             {{"projects", {"a"}}, {"dates", {"today"}}});
  const std::string before = to_json(reasoning).dump();

  (void)planned(reasoning);

  EXPECT_EQ(to_json(reasoning).dump(), before);
}

TEST(RetrievalPlanner, SameInputSameOutputByteForByte) {
  const Reasoning reasoning =
      reasoning_with({{"query_analytics", 0.7}, {"query_issues", 0.7}, {"conversation", 0.4}},
                     {{"projects", {"x"}}, {"dates", {"last month"}}, {"statuses", {"open"}}});

  const std::string first = json_of(planned(reasoning)).dump();
  const std::string second = json_of(planned(reasoning)).dump();

  EXPECT_EQ(first, second);
}

TEST(RetrievalPlanner, CapabilitiesAreTheSeeds) {
  const nlohmann::json capabilities = to_json(RetrievalPlanner::capabilities());

  EXPECT_EQ(capabilities["agent_id"], "retrieval_planner");
  EXPECT_EQ(capabilities["version"], "1.0.0");
  EXPECT_EQ(capabilities["supports_parallel_execution"], false);
  EXPECT_EQ(capabilities["supports_retry"], true);
  EXPECT_EQ(capabilities["requires_llm"], false);
  EXPECT_EQ(capabilities["is_deterministic"], true);
  EXPECT_EQ(capabilities["estimated_duration_ms"], 80);
  EXPECT_DOUBLE_EQ(kConfidenceThreshold, 0.3);
}

}  // namespace
}  // namespace planfirst::retrieval
