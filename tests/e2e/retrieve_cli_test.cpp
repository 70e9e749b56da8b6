// planfirst retrieve as a user runs it: the plan-only JSON in the seed's shape, the same output for
// the same question, sources reported as not configured with how to configure them, and the errors
// a user can cause.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "e2e/command_runner.hpp"
#include "support/gitlab_test_server.hpp"
#include "support/temp_dir.hpp"
#include "support/youtrack_test_server.hpp"

namespace planfirst::e2e {
namespace {

constexpr const char* kQuestion = "'show commits in project billing-api last week and open issues'";

TEST(RetrievalCli, PlanOnlyJsonHasIntentsHypothesesPlansAndQueries) {
  const CommandOutcome run =
      run_command(planfirst(std::string("retrieve ") + kQuestion + " --plan-only --json"));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json output = parsed(run);
  EXPECT_EQ(output["reasoning"]["intents"][0]["type"], "query_commits");
  EXPECT_EQ(output["reasoning"]["hypotheses"].size(), 3u);
  EXPECT_EQ(output["retrieval"]["plans"][0], nlohmann::json::parse(R"({"id": "plan0",
      "description": "Retrieve commit data from GitLab", "sources": ["gitlab"],
      "filters": {"projects": ["billing-api"], "dates": ["last week"]}, "priority": 10})"));
  EXPECT_EQ(output["retrieval"]["queries"][1]["query_string"],
            "Retrieve issue data from YouTrack projects:billing-api dates:last week statuses:open");
  EXPECT_FALSE(output["retrieval"].contains("results"));
  EXPECT_EQ(output["capabilities"]["agent_id"], "retrieval_planner");
}

TEST(RetrievalCli, SameQuestionSamePlans) {
  const std::string command = planfirst(std::string("retrieve ") + kQuestion + " --plan-only --json");

  const nlohmann::json first = parsed(run_command(command));
  const nlohmann::json second = parsed(run_command(command));

  EXPECT_EQ(first["retrieval"].dump(), second["retrieval"].dump());
  EXPECT_EQ(first["reasoning"].dump(), second["reasoning"].dump());
}

TEST(RetrievalCli, WithoutSourcesEachPlanIsReportedNotConfiguredWithHowToConfigureIt) {
  const CommandOutcome run = run_command(planfirst(std::string("retrieve ") + kQuestion));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("plan0_query  gitlab: source \"gitlab\" is not configured"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("to configure gitlab: pass --gitlab URL"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("# Context"), std::string::npos) << run.output;
}

TEST(RetrievalCli, CommitsComeFromTheGitLabServerTheFlagNames) {
  test_support::GitLabTestServer gitlab;
  const std::string token = std::string("GITLAB_TOKEN=") + test_support::GitLabTestServer::kToken + " ";

  const CommandOutcome run =
      run_command(token + planfirst("retrieve 'show commits in project group/app on 2024-03-23' "
                                    "--json --gitlab " +
                                    gitlab.base_url()));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json output = parsed(run);
  const nlohmann::json& result = output["retrieval"]["results"][0];
  EXPECT_EQ(result["source"], "gitlab") << result;
  ASSERT_FALSE(result["items"].empty()) << result;
  EXPECT_EQ(result["items"][0]["title"], "Document dark mode") << result;
  ASSERT_FALSE(gitlab.requests().empty());
  const test_support::RestRequest request = gitlab.requests().front();
  EXPECT_EQ(request.path, "/api/v4/projects/group/app/repository/commits");
  EXPECT_EQ(request.param("since"), "2024-03-23T00:00:00Z");
  EXPECT_EQ(request.header("PRIVATE-TOKEN"), test_support::GitLabTestServer::kToken);
}

TEST(RetrievalCli, AsOfIsTheDayLastWeekCountsBackFrom) {
  test_support::GitLabTestServer gitlab;
  const std::string token = std::string("GITLAB_TOKEN=") + test_support::GitLabTestServer::kToken + " ";

  const CommandOutcome run = run_command(
      token +
      planfirst("retrieve 'show commits in project group/app last week' --as-of 2024-03-27 --json --gitlab " +
                gitlab.base_url()));
  const CommandOutcome text =
      run_command(planfirst("retrieve 'commits last week' --plan-only --as-of 2024-03-27"));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json output = parsed(run);
  EXPECT_EQ(output["as_of"]["date"], "2024-03-27");
  EXPECT_EQ(output["as_of"]["origin"], "flag");
  ASSERT_FALSE(gitlab.requests().empty());
  EXPECT_EQ(gitlab.requests().front().param("since"), "2024-03-18T00:00:00Z");  // Monday of the week before
  EXPECT_EQ(gitlab.requests().front().param("until"), "2024-03-24T23:59:59Z");  // GitLab: inclusive
  EXPECT_NE(text.output.find("As of: 2024-03-27 (set by --as-of)"), std::string::npos) << text.output;
}

TEST(RetrievalCli, AnAsOfThatIsNotADayIsAUsageError) {
  const CommandOutcome run = run_command(planfirst("retrieve 'commits last week' --as-of 27.03.2024"));

  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("--as-of: not a day written YYYY-MM-DD: '27.03.2024'"), std::string::npos)
      << run.output;
}

TEST(RetrievalCli, OpenIssuesComeFromTheYouTrackServerTheFlagNames) {
  test_support::YouTrackTestServer youtrack;
  const std::string token = std::string("YOUTRACK_TOKEN=") + test_support::YouTrackTestServer::kToken + " ";

  const CommandOutcome run =
      run_command(token + planfirst("retrieve 'list open issues in project OPS' --json --youtrack " +
                                    youtrack.base_url()));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json output = parsed(run);
  const nlohmann::json& result = output["retrieval"]["results"][0];
  EXPECT_EQ(result["source"], "youtrack") << result;
  ASSERT_FALSE(result["items"].empty()) << result;
  for (const auto& item : result["items"])
    EXPECT_EQ(item["id"].get<std::string>().rfind("youtrack:OPS-", 0), 0u) << item;
  ASSERT_FALSE(youtrack.requests().empty());
  EXPECT_NE(youtrack.requests().front().param("query").find("project: OPS"), std::string::npos)
      << youtrack.requests().front().param("query");
}

// "open issues assigned to alice in project mobile-app" dropped the assignee: the plan, the text
// output and YouTrack's query now carry it.
TEST(RetrievalCli, AnAssigneeReachesYouTrackAsFor) {
  test_support::YouTrackTestServer youtrack;
  const std::string token = std::string("YOUTRACK_TOKEN=") + test_support::YouTrackTestServer::kToken + " ";
  const std::string question = "'open issues assigned to alice in project MOB'";

  const CommandOutcome run =
      run_command(token + planfirst("retrieve " + question + " --json --youtrack " + youtrack.base_url()));
  const CommandOutcome text = run_command(planfirst("retrieve " + question + " --plan-only"));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json output = parsed(run);
  EXPECT_EQ(output["reasoning"]["entities"]["assignees"], nlohmann::json::array({"alice"}));
  EXPECT_EQ(output["retrieval"]["plans"][0]["filters"], nlohmann::json::parse(R"({"projects": ["MOB"],
      "statuses": ["open"], "assignees": ["alice"]})"));
  ASSERT_EQ(youtrack.requests().size(), 1u);
  EXPECT_EQ(youtrack.requests()[0].param("query"),
            "project: MOB State: Open for: alice sort by: created desc");
  const nlohmann::json& items = output["retrieval"]["results"][0]["items"];
  ASSERT_EQ(items.size(), 1u) << output["retrieval"]["results"][0];
  EXPECT_EQ(items[0]["id"], "youtrack:MOB-8");
  ASSERT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find("Entities: projects=MOB statuses=open assignees=alice"), std::string::npos)
      << text.output;
  EXPECT_NE(text.output.find("sources=youtrack  projects=MOB statuses=open assignees=alice"),
            std::string::npos)
      << text.output;
  EXPECT_NE(
      text.output.find("\"Retrieve issue data from YouTrack projects:MOB statuses:open assignees:alice\""),
      std::string::npos)
      << text.output;
}

TEST(RetrievalCli, AnAssigneeReachesGitLabIssuesAsAssigneeUsername) {
  test_support::GitLabTestServer gitlab;
  const std::string token = std::string("GITLAB_TOKEN=") + test_support::GitLabTestServer::kToken + " ";

  // No YouTrack: the issue plan falls back to GitLab.
  const CommandOutcome run = run_command(
      token + planfirst("retrieve 'open issues assigned to alice in project group/app' --json --gitlab " +
                        gitlab.base_url()));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json result = parsed(run)["retrieval"]["results"][0];
  EXPECT_EQ(result["answered_by"], "gitlab") << result;
  ASSERT_EQ(gitlab.requests().size(), 1u);
  const test_support::RestRequest request = gitlab.requests()[0];
  EXPECT_EQ(request.path, "/api/v4/projects/group/app/issues");
  EXPECT_EQ(request.param("assignee_username"), "alice");
  EXPECT_EQ(request.param("state"), "opened");
  std::vector<std::string> ids;
  for (const auto& item : result["items"]) ids.push_back(item["id"]);
  EXPECT_EQ(ids,
            (std::vector<std::string>{"gitlab:group/app#25", "gitlab:group/app#28", "gitlab:group/app#21"}));
}

TEST(RetrievalCli, AnAuthorReachesGitLabCommitsAsAuthor) {
  test_support::GitLabTestServer gitlab;
  const std::string token = std::string("GITLAB_TOKEN=") + test_support::GitLabTestServer::kToken + " ";

  const CommandOutcome run = run_command(
      token + planfirst("retrieve \"bob's merge requests in project group/app\" --json --gitlab " +
                        gitlab.base_url()));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json output = parsed(run);
  EXPECT_EQ(output["reasoning"]["entities"]["authors"], nlohmann::json::array({"bob"}));
  EXPECT_EQ(output["retrieval"]["queries"][0]["query_string"],
            "Retrieve commit data from GitLab projects:group/app authors:bob");
  ASSERT_FALSE(gitlab.requests().empty());
  EXPECT_EQ(gitlab.requests()[0].path, "/api/v4/projects/group/app/repository/commits");
  EXPECT_EQ(gitlab.requests()[0].param("author"), "bob");
  const nlohmann::json& items = output["retrieval"]["results"][0]["items"];
  ASSERT_FALSE(items.empty()) << output["retrieval"]["results"][0];
  for (const auto& item : items) EXPECT_EQ(item["fields"]["author"], "Bob Jones") << item;
}

TEST(RetrievalCli, SamePeopleQuestionSamePlans) {
  const std::string command = planfirst(
      "retrieve 'issues assigned to alice or dana created by bob and commits by carol' --plan-only --json");

  const nlohmann::json first = parsed(run_command(command));
  const nlohmann::json second = parsed(run_command(command));

  EXPECT_EQ(first["reasoning"]["entities"]["assignees"], nlohmann::json::array({"alice", "dana"}));
  EXPECT_EQ(first["reasoning"]["entities"]["authors"], nlohmann::json::array({"bob", "carol"}));
  EXPECT_EQ(first["retrieval"].dump(), second["retrieval"].dump());
  EXPECT_EQ(first["reasoning"].dump(), second["reasoning"].dump());
}

// "status of group/app" (a README example) lost its project, and the GitLab plan then failed with
// C++ option names.
TEST(RetrievalCli, StatusOfAProjectAsksBothSourcesAboutThatProject) {
  test_support::GitLabTestServer gitlab;
  test_support::YouTrackTestServer youtrack;
  const std::string tokens = std::string("GITLAB_TOKEN=") + test_support::GitLabTestServer::kToken +
                             " YOUTRACK_TOKEN=" + test_support::YouTrackTestServer::kToken + " ";

  const CommandOutcome run =
      run_command(tokens + planfirst("retrieve 'status of group/app' --json --as-of 2024-03-27 --gitlab " +
                                     gitlab.base_url() + " --youtrack " + youtrack.base_url()));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json output = parsed(run);
  for (const auto& plan : output["retrieval"]["plans"])
    EXPECT_EQ(plan["filters"]["projects"], nlohmann::json::array({"group/app"})) << plan;
  for (const auto& result : output["retrieval"]["results"]) EXPECT_EQ(result["status"], "ok") << result;
  ASSERT_EQ(gitlab.requests().size(), 1u);
  EXPECT_EQ(gitlab.requests()[0].path, "/api/v4/projects/group/app/repository/commits");
  EXPECT_EQ(gitlab.requests()[0].param("since"), "2024-03-18T00:00:00Z");
  ASSERT_EQ(youtrack.requests().size(), 1u);
  EXPECT_EQ(youtrack.requests()[0].param("query"),
            "project: {group/app} State: Open, {In Progress} sort by: created desc");
}

TEST(RetrievalCli, AQuestionWithoutAProjectNamesTheFlagThatSetsOne) {
  test_support::GitLabTestServer gitlab;
  const std::string token = std::string("GITLAB_TOKEN=") + test_support::GitLabTestServer::kToken + " ";

  const CommandOutcome run =
      run_command(token + planfirst("retrieve 'commits last week' --gitlab " + gitlab.base_url()));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("the GitLab query names no project"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("pass --gitlab-project group/app"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("GitLabOptions::"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("SourceQuery::"), std::string::npos) << run.output;
  EXPECT_TRUE(gitlab.requests().empty());
}

TEST(RetrievalCli, AGitLabUrlWithoutATokenNamesTheVariable) {
  const CommandOutcome run =
      run_command("env -u GITLAB_TOKEN " + planfirst("retrieve 'commits' --gitlab http://127.0.0.1:1"));

  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("GITLAB_TOKEN"), std::string::npos) << run.output;
}

TEST(RetrievalCli, AnEmptyQuestionOrBadZoneIsAnErrorNotACrash) {
  const CommandOutcome empty = run_command(planfirst("retrieve '   '"));
  const CommandOutcome zone = run_command(planfirst("retrieve 'commits' --timezone Mars/Base"));

  EXPECT_EQ(empty.exit_code, 2) << empty.output;  // a blank argument is a usage error, as for ask and chat
  EXPECT_NE(empty.output.find("the question is empty"), std::string::npos) << empty.output;
  EXPECT_EQ(zone.exit_code, 2) << zone.output;
  EXPECT_NE(zone.output.find("unknown time zone"), std::string::npos) << zone.output;
}

TEST(RetrievalCli, EachStageRunsAloneThroughGraphNode) {
  test_support::TempDir dir;
  const std::string state =
      dir.write("state.json", R"({"question": "open tickets in project ops"})").string();

  const CommandOutcome run = run_command(planfirst("graph node retrieval intent_detection --state " + state));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json delta = parsed(run);
  EXPECT_EQ(delta["reasoning"]["intents"][0]["type"], "query_issues");
  EXPECT_EQ(delta["reasoning"]["entities"]["projects"], nlohmann::json::array({"ops"}));
}

}  // namespace
}  // namespace planfirst::e2e
