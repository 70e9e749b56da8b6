#include "pipelines/retrieval/intent_detector.hpp"

#include <gtest/gtest.h>

#include "retrieval_fixture.hpp"

namespace planfirst::retrieval {
namespace {

const IntentDetector& detector() {
  static const IntentDetector kDetector(testing::shipped_intent_rules());
  return kDetector;
}

std::string primary(std::string_view question) {
  return detector().detect(question).intents.front().type;
}

TEST(RetrievalIntentDetector, DetectsEachOfTheSevenIntents) {
  EXPECT_EQ(primary("show me the commits pushed to billing-api"), "query_commits");
  EXPECT_EQ(primary("which tickets are assigned to me"), "query_issues");
  EXPECT_EQ(primary("how many merge requests per week on average"), "query_analytics");
  EXPECT_EQ(primary("what is the status of the backend project"), "query_status");
  EXPECT_EQ(primary("deploy the api to staging"), "command_action");
  EXPECT_EQ(primary("how do i configure the planner"), "request_help");
  EXPECT_EQ(primary("hello, thanks for the help yesterday!"), "conversation");
}

TEST(RetrievalIntentDetector, ScoresSeveralIntentsHighestFirstWithPrimaryAndOverallScores) {
  const DetectedIntents detected =
      detector().detect("commits and open issues in project billing-api last week");

  ASSERT_EQ(detected.intents.size(), 2u);
  EXPECT_EQ(detected.intents[0].type, "query_commits");  // 0.6 each: the rule order breaks the tie
  EXPECT_EQ(detected.intents[1].type, "query_issues");
  EXPECT_DOUBLE_EQ(detected.primary_score, 0.6);
  EXPECT_DOUBLE_EQ(detected.overall_score, 0.6);
}

TEST(RetrievalIntentDetector, CapsConfidenceAndCountsAKeywordOnce) {
  const DetectedIntents detected =
      detector().detect("commit commit commits pushed changes to the branch diff");

  EXPECT_EQ(detected.intents.front().type, "query_commits");
  EXPECT_DOUBLE_EQ(detected.intents.front().confidence, 0.95);
}

TEST(RetrievalIntentDetector, FallsBackToConversationWhenNothingMatches) {
  const DetectedIntents detected = detector().detect("zzz qqq");

  ASSERT_EQ(detected.intents.size(), 1u);
  EXPECT_EQ(detected.intents[0].type, "conversation");
  EXPECT_LT(detected.intents[0].confidence, 0.3);
}

TEST(RetrievalIntentDetector, ReadsProjectsDatesStatusesAndProviders) {
  const Entities entities =
      detector()
          .detect(
              "In GitLab, show commits for project Billing-API and group/app from last week and 2024-01-15; "
              "also in-progress and closed issues in the backend repo from the last 3 days")
          .entities;

  EXPECT_EQ(entities.projects, (std::vector<std::string>{"Billing-API", "group/app", "backend"}));
  EXPECT_EQ(entities.dates, (std::vector<std::string>{"last week", "2024-01-15", "last 3 days"}));
  EXPECT_EQ(entities.statuses, (std::vector<std::string>{"in-progress", "closed"}));
  EXPECT_EQ(entities.providers, (std::vector<std::string>{"gitlab"}));
}

TEST(RetrievalIntentDetector, ReadsRelativeDatesAsWritten) {
  EXPECT_EQ(detector().detect("issues closed yesterday").entities.dates,
            (std::vector<std::string>{"yesterday"}));
  EXPECT_EQ(detector().detect("commits this month?").entities.dates,
            (std::vector<std::string>{"this month"}));
  EXPECT_EQ(detector().detect("work in progress issues").entities.statuses,
            (std::vector<std::string>{"in-progress"}));
}

TEST(RetrievalIntentDetector, AnyBytesAreSafe) {
  using namespace std::string_literals;
  const std::string noisy = "\xff\xfe commit \0 issue \xc3\xa9t\xc3\xa9 ////  --- 9999-99-99"s;

  const DetectedIntents detected = detector().detect(noisy);

  EXPECT_FALSE(detected.intents.empty());
  EXPECT_TRUE(detected.entities.dates.empty());
}

}  // namespace
}  // namespace planfirst::retrieval
