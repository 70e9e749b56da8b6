#include "pipelines/retrieval/plan_executor.hpp"

#include <gtest/gtest.h>

#include "core/clock.hpp"
#include "retrieval_fixture.hpp"

namespace planfirst::retrieval {
namespace {

using testing::RecordingSource;
using Behaviour = RecordingSource::Behaviour;
using std::chrono::sys_days;
using namespace std::chrono_literals;

class RetrievalPlanExecutor : public ::testing::Test {
 protected:
  RetrievalPlanExecutor()
      : clock_(sys_days(std::chrono::year(2024) / 1 / 17) + 10h), rules_(testing::shipped_plan_rules()) {}

  std::shared_ptr<RecordingSource> add(const std::string& name, Behaviour behaviour, std::size_t items = 2) {
    auto source = std::make_shared<RecordingSource>(name, behaviour, items);
    sources_[name] = source;
    return source;
  }
  std::vector<QueryOutcome> execute(const std::vector<RetrievalPlan>& plans) const {
    return PlanExecutor(sources_, rules_, clock_).execute(plans, DateResolver(clock_.now(), {}));
  }
  static RetrievalPlan commits_plan(std::string id = "plan0") {
    return {std::move(id),
            "Retrieve commit data from GitLab",
            {"gitlab"},
            {{"projects", {"group/app"}}, {"dates", {"last week"}}},
            10};
  }
  static RetrievalPlan issues_plan(std::string id = "plan1") {
    return {std::move(id), "Retrieve issue data from YouTrack", {"youtrack"}, {{"statuses", {"open"}}}, 10};
  }

  core::ManualClock clock_;
  PlanRules rules_;
  SourceMap sources_;
};

TEST_F(RetrievalPlanExecutor, TurnsAPlanIntoASourceQueryWithResolvedTimes) {
  auto gitlab = add("gitlab", Behaviour::kAnswer);

  const std::vector<QueryOutcome> results = execute({commits_plan()});

  ASSERT_EQ(gitlab->queries().size(), 1u);
  const sources::SourceQuery query = gitlab->queries()[0];
  EXPECT_EQ(query.kind, "commits");
  EXPECT_EQ(query.projects, std::vector<std::string>{"group/app"});
  ASSERT_TRUE(query.time.has_value());
  EXPECT_EQ(iso_utc(query.time->since), "2024-01-08T00:00:00Z");
  EXPECT_EQ(iso_utc(query.time->until), "2024-01-15T00:00:00Z");
  EXPECT_EQ(query.text, "Retrieve commit data from GitLab projects:group/app dates:last week");
  EXPECT_EQ(query.limit, 100u);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].query_id, "plan0_query");
  EXPECT_EQ(results[0].answered_by, "gitlab");
  EXPECT_EQ(results[0].items.size(), 2u);
}

TEST_F(RetrievalPlanExecutor, HandsThePlansAssigneesAndAuthorsToTheSource) {
  auto youtrack = add("youtrack", Behaviour::kAnswer);
  RetrievalPlan plan = issues_plan();
  plan.filters.push_back({"assignees", {"alice"}});
  plan.filters.push_back({"authors", {"bob", "carol"}});

  (void)execute({plan});

  ASSERT_EQ(youtrack->queries().size(), 1u);
  EXPECT_EQ(youtrack->queries()[0].assignees, std::vector<std::string>{"alice"});
  EXPECT_EQ(youtrack->queries()[0].authors, (std::vector<std::string>{"bob", "carol"}));
}

TEST_F(RetrievalPlanExecutor, AnUnconfiguredSourceIsARecordedFailureAndTheRestReturn) {
  add("gitlab", Behaviour::kAnswer);
  rules_.execution.sources["youtrack"].fallbacks.clear();

  const std::vector<QueryOutcome> results = execute({commits_plan(), issues_plan()});

  ASSERT_EQ(results.size(), 2u);
  EXPECT_TRUE(results[0].ok());
  EXPECT_FALSE(results[1].ok());
  EXPECT_EQ(results[1].failure_message(), "source \"youtrack\" is not configured");
  EXPECT_EQ(results[1].attempts[0].status, AttemptStatus::kNotConfigured);
}

TEST_F(RetrievalPlanExecutor, AFailingSourceGivesAPartialResult) {
  add("gitlab", Behaviour::kFail);
  add("youtrack", Behaviour::kAnswer);

  const std::vector<QueryOutcome> results = execute({commits_plan(), issues_plan()});

  EXPECT_FALSE(results[0].ok());
  EXPECT_EQ(results[0].failure_message(), "source \"gitlab\": gitlab answered 500");
  EXPECT_TRUE(results[1].ok());
  EXPECT_EQ(results[1].items.size(), 2u);
}

TEST_F(RetrievalPlanExecutor, AFailedSourceFallsBackToTheNextInOrder) {
  add("youtrack", Behaviour::kFail);
  auto gitlab = add("gitlab", Behaviour::kAnswer);

  const std::vector<QueryOutcome> results = execute({issues_plan()});

  ASSERT_TRUE(results[0].ok());
  EXPECT_EQ(results[0].source, "youtrack");
  EXPECT_EQ(results[0].answered_by, "gitlab");
  ASSERT_EQ(results[0].attempts.size(), 2u);
  EXPECT_EQ(results[0].attempts[0].status, AttemptStatus::kFailed);
  EXPECT_EQ(gitlab->queries().at(0).kind, "issues");
  EXPECT_EQ(gitlab->queries().at(0).statuses, std::vector<std::string>{"open"});
}

TEST_F(RetrievalPlanExecutor, ASlowSourceIsCancelledAtItsTimeout) {
  add("gitlab", Behaviour::kStallUntilCancelled);
  rules_.execution.sources["gitlab"].timeout = 50ms;

  const std::vector<QueryOutcome> results = execute({commits_plan()});

  ASSERT_FALSE(results[0].ok());
  EXPECT_EQ(results[0].attempts[0].status, AttemptStatus::kTimedOut);
  EXPECT_EQ(results[0].failure_message(), "source \"gitlab\" timed out after 50 ms");
}

TEST_F(RetrievalPlanExecutor, KeepsAtMostTheSourcesVolumeLimit) {
  auto gitlab = add("gitlab", Behaviour::kAnswer, 7);
  rules_.execution.sources["gitlab"].limit = 3;

  const std::vector<QueryOutcome> results = execute({commits_plan()});

  EXPECT_EQ(gitlab->queries().at(0).limit, 3u);
  EXPECT_EQ(results[0].items.size(), 3u);
  EXPECT_TRUE(results[0].truncated);
}

TEST_F(RetrievalPlanExecutor, RunsIndependentPlansInParallelAndReturnsThemInPlanOrder) {
  auto gitlab = add("gitlab", Behaviour::kAnswerWithPartner);

  const std::vector<QueryOutcome> results = execute({commits_plan("plan0"), commits_plan("plan1")});

  EXPECT_EQ(gitlab->max_in_flight(), 2);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].query_id, "plan0_query");
  EXPECT_EQ(results[1].query_id, "plan1_query");
}

TEST_F(RetrievalPlanExecutor, OneAtATimeWhenMaxParallelIsOne) {
  auto gitlab = add("gitlab", Behaviour::kAnswer);
  rules_.execution.max_parallel = 1;

  (void)execute({commits_plan("plan0"), commits_plan("plan1"), commits_plan("plan2")});

  EXPECT_EQ(gitlab->max_in_flight(), 1);
  EXPECT_EQ(gitlab->queries().size(), 3u);
}

TEST_F(RetrievalPlanExecutor, ADateThatDoesNotResolveSkipsTheQueryWithItsReason) {
  auto gitlab = add("gitlab", Behaviour::kAnswer);
  RetrievalPlan plan = commits_plan();
  plan.filters = {{"dates", {"the day after never"}}};

  const std::vector<QueryOutcome> results = execute({plan});

  EXPECT_TRUE(gitlab->queries().empty());
  EXPECT_EQ(results[0].attempts.at(0).status, AttemptStatus::kSkipped);
  EXPECT_EQ(results[0].failure_message(), "cannot resolve the date \"the day after never\"");
}

}  // namespace
}  // namespace planfirst::retrieval
