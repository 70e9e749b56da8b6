// GitLabSource against GitLabTestServer: filters and paging reach the server, the token header, the
// failure cases (missing or refused token, 429 then success, 500 after retries, malformed payloads,
// cancellation), the evidence items, and two fetches in parallel. No test sleeps: RecordingSleeper.
#include "sources/gitlab_source.hpp"

#include <gtest/gtest.h>

#include <future>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/cancellation.hpp"
#include "sources/field_counts.hpp"
#include "sources/gitlab_response.hpp"
#include "sources/source_fixture.hpp"
#include "support/gitlab_test_server.hpp"

namespace planfirst::sources {
namespace {

using namespace std::chrono;
using test_support::GitLabTestServer;

struct GitLabSourceTest : SourceFixture<GitLabTestServer, GitLabSource, GitLabOptions> {
  GitLabSourceTest() : SourceFixture("GITLAB_TOKEN") {}
};

SourceQuery query(std::string kind, std::vector<std::string> projects = {"group/app"}) {
  SourceQuery q;
  q.kind = std::move(kind);
  q.projects = std::move(projects);
  q.text = "Retrieve commit data from GitLab projects:group/app";
  return q;
}

TEST_F(GitLabSourceTest, SendsTheDateRangeAsSinceAndUntilWithAnEncodedProjectId) {
  SourceQuery q = query("commits");
  q.time = TimeRange{kJan1 + days(31), kJan1 + days(60)};

  auto items = source()->fetch(q, nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  ASSERT_FALSE(items->empty());
  const auto requests = server.requests();
  EXPECT_EQ(requests[0].raw_path, "/api/v4/projects/group%2Fapp/repository/commits");
  EXPECT_EQ(requests[0].param("since"), "2024-02-01T00:00:00Z");
  EXPECT_EQ(requests[0].param("until"), "2024-02-29T23:59:59Z");
  // The day the source derives is the commit time's UTC day, not the date it was written with:
  // 2024-02-17T00:00+02:00 is 2024-02-16 and 2024-02-06T19:00-05:00 is 2024-02-07.
  std::vector<std::string> days;
  for (const EvidenceItem& item : *items) days.push_back(item.id + " " + field_value(item, "day"));
  EXPECT_EQ(days, (std::vector<std::string>{
                      "gitlab:group/app@f098381b 2024-02-29", "gitlab:group/app@a9697a5d 2024-02-27",
                      "gitlab:group/app@d4d270a0 2024-02-23", "gitlab:group/app@0caab5b8 2024-02-20",
                      "gitlab:group/app@1c912cba 2024-02-20", "gitlab:group/app@ab7e4285 2024-02-19",
                      "gitlab:group/app@12558c31 2024-02-18", "gitlab:group/app@fc5a382f 2024-02-17",
                      "gitlab:group/app@71ebbc77 2024-02-16", "gitlab:group/app@69f7a493 2024-02-13",
                      "gitlab:group/app@9f636d09 2024-02-12", "gitlab:group/app@546c7d41 2024-02-11",
                      "gitlab:group/app@2bb2c019 2024-02-11", "gitlab:group/app@d2d063d8 2024-02-10",
                      "gitlab:group/app@e09e86c4 2024-02-07", "gitlab:group/app@f091926f 2024-02-02"}));
}

TEST_F(GitLabSourceTest, PagesWithXNextPageUntilTheLastPage) {
  auto items = source()->fetch(query("commits"), nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  EXPECT_EQ(items->size(), 40u);
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_EQ(requests[3].param("page"), "4");
  EXPECT_EQ(requests[3].param("per_page"), "10");
}

TEST_F(GitLabSourceTest, StopsPagingAtTheLimit) {
  SourceQuery q = query("commits");
  q.limit = 15;

  auto items = source()->fetch(q, nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  EXPECT_EQ(items->size(), 15u);
  EXPECT_EQ(server.requests().size(), 2u);
}

TEST(GitLabSource, FollowsTheLinkHeaderWhenThereIsNoXNextPage) {
  GitLabTestServer server(test_support::GitLabPaging::kLinkOnly);
  core::RecordingSleeper sleeper;
  core::ManualClock clock;
  GitLabOptions options;
  options.base_url = server.base_url();
  options.page_size = 4;
  auto source = GitLabSource::create(options, clock, sleeper, {{"GITLAB_TOKEN", GitLabTestServer::kToken}});
  ASSERT_TRUE(source.has_value());

  auto items = (*source)->fetch(query("issues", {"group/api"}), nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  EXPECT_EQ(items->size(), 15u);
  EXPECT_EQ(server.requests().size(), 4u);
}

TEST_F(GitLabSourceTest, ReadsSeveralProjectsUpToOneLimit) {
  GitLabOptions o = options();
  o.default_projects = {"tools/cli", "group/api"};
  SourceQuery q = query("merge_requests", {});
  q.limit = 5;

  auto items = source(o)->fetch(q, nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  ASSERT_EQ(items->size(), 5u);
  EXPECT_EQ(field_value((*items)[0], "project"), "tools/cli");
  EXPECT_EQ(field_value((*items)[4], "project"), "group/api");
  EXPECT_EQ(server.requests()[1].param("per_page"), "2");
}

TEST_F(GitLabSourceTest, MapsStatusesToGitLabStates) {
  SourceQuery open = query("issues");
  open.statuses = {"open", "in-progress"};
  SourceQuery mixed = query("merge_requests");
  mixed.statuses = {"merged", "closed"};

  auto opened = source()->fetch(open, nullptr);
  auto finished = source()->fetch(mixed, nullptr);

  ASSERT_TRUE(opened.has_value()) << opened.error().describe();
  ASSERT_TRUE(finished.has_value()) << finished.error().describe();
  EXPECT_EQ(server.requests()[0].param("state"), "opened");
  for (const EvidenceItem& item : *opened) EXPECT_EQ(field_value(item, "state"), "opened");
  EXPECT_EQ(server.requests().back().param("state"), "all");
  ASSERT_FALSE(finished->empty());
  for (const EvidenceItem& item : *finished) EXPECT_NE(field_value(item, "state"), "opened");
}

TEST_F(GitLabSourceTest, SendsCreatedAfterAndBeforeForIssues) {
  SourceQuery q = query("issues");
  q.time = TimeRange{kJan1, kJan1 + days(14)};

  auto items = source()->fetch(q, nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  EXPECT_EQ(server.requests()[0].param("created_after"), "2024-01-01T00:00:00Z");
  EXPECT_EQ(server.requests()[0].param("created_before"), "2024-01-14T23:59:59Z");
  for (const EvidenceItem& item : *items) EXPECT_LT(field_value(item, "created_at"), "2024-01-15");
}

TEST_F(GitLabSourceTest, SendsEachAssigneeAsAssigneeUsernameAndKeepsEachIssueOnce) {
  SourceQuery q = query("issues");
  q.assignees = {"alice", "chen"};

  auto items = source()->fetch(q, nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);  // GitLab's free tier takes one assignee per request
  EXPECT_EQ(requests[0].param("assignee_username"), "alice");
  EXPECT_EQ(requests[1].param("assignee_username"), "chen");
  ASSERT_FALSE(items->empty());
  std::set<std::string> ids;
  for (const EvidenceItem& item : *items) {
    const std::string assignees = field_value(item, "assignees");
    EXPECT_TRUE(assignees.find("alice") != std::string::npos || assignees.find("chen") != std::string::npos)
        << item.id << " " << assignees;
    EXPECT_TRUE(ids.insert(item.id).second) << item.id;
  }
}

TEST_F(GitLabSourceTest, SendsMergeRequestPeopleAsAssigneeAndAuthorUsernames) {
  SourceQuery q = query("merge_requests");
  q.assignees = {"alice"};
  q.authors = {"chen"};

  auto items = source()->fetch(q, nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  const test_support::RestRequest request = server.requests().at(0);
  EXPECT_EQ(request.param("assignee_username"), "alice");
  EXPECT_EQ(request.param("author_username"), "chen");
  std::vector<std::string> ids;
  for (const EvidenceItem& item : *items) ids.push_back(item.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"gitlab:group/app!12", "gitlab:group/app!8"}));
}

TEST_F(GitLabSourceTest, SendsCommitAuthorsAsAuthor) {
  SourceQuery q = query("commits");
  q.authors = {"bob"};

  auto items = source()->fetch(q, nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  EXPECT_EQ(server.requests().at(0).param("author"), "bob");
  EXPECT_FALSE(server.requests().at(0).has_param("author_username"));
  ASSERT_FALSE(items->empty());
  for (const EvidenceItem& item : *items) EXPECT_EQ(field_value(item, "author"), "Bob Jones") << item.id;
}

TEST_F(GitLabSourceTest, CommitsHaveNoAssignee) {
  SourceQuery q = query("commits");
  q.assignees = {"alice"};

  auto items = source()->fetch(q, nullptr);

  ASSERT_FALSE(items.has_value());
  EXPECT_EQ(items.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(items.error().message.find("commits have no assignee"), std::string::npos)
      << items.error().message;
  EXPECT_TRUE(server.requests().empty());
}

TEST_F(GitLabSourceTest, RefusesAnUnknownStatusOrKind) {
  SourceQuery bad_status = query("issues");
  bad_status.statuses = {"blocked"};

  auto status = source()->fetch(bad_status, nullptr);
  auto kind = source()->fetch(query("pipelines"), nullptr);

  ASSERT_FALSE(status.has_value());
  EXPECT_NE(status.error().message.find("\"blocked\""), std::string::npos);
  ASSERT_FALSE(kind.has_value());
  EXPECT_NE(kind.error().message.find("commits, issues, merge_requests, metrics"), std::string::npos);
  EXPECT_TRUE(server.requests().empty());
}

TEST_F(GitLabSourceTest, SendsTheTokenAsPrivateToken) {
  auto items = source()->fetch(query("issues"), nullptr);

  ASSERT_TRUE(items.has_value());
  EXPECT_EQ(server.requests()[0].header("PRIVATE-TOKEN"), GitLabTestServer::kToken);
}

TEST_F(GitLabSourceTest, AMissingTokenVariableIsAnErrorAtCreate) {
  GitLabOptions o = options();
  o.token_env = "MY_GITLAB_TOKEN";

  auto made = GitLabSource::create(o, clock, sleeper, env);

  ASSERT_FALSE(made.has_value());
  EXPECT_EQ(made.error().code, core::ErrorCode::kFailedPrecondition);
  EXPECT_NE(made.error().message.find("MY_GITLAB_TOKEN"), std::string::npos);
  EXPECT_NE(made.error().message.find("GitLabOptions::token_env"), std::string::npos);
}

TEST_F(GitLabSourceTest, ARefusedTokenNamesItsVariable) {
  server.rest().set_token("another-token");

  auto items = source()->fetch(query("commits"), nullptr);

  ASSERT_FALSE(items.has_value());
  EXPECT_EQ(items.error().code, core::ErrorCode::kFailedPrecondition);
  EXPECT_NE(items.error().message.find("GitLab refused the token from the environment variable GITLAB_TOKEN"),
            std::string::npos)
      << items.error().message;
  EXPECT_EQ(server.requests().size(), 1u);
}

TEST_F(GitLabSourceTest, NoProjectAnywhereSaysWhichOptionToSet) {
  auto items = source()->fetch(query("commits", {}), nullptr);

  ASSERT_FALSE(items.has_value());
  EXPECT_EQ(items.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(items.error().message.find("GitLabOptions::default_projects"), std::string::npos);
}

TEST_F(GitLabSourceTest, NoProjectAnywhereEndsWithTheHintTheCallerGave) {
  GitLabOptions o = options();
  o.default_projects_hint = "pass --gitlab-project group/app";

  auto items = source(o)->fetch(query("commits", {}), nullptr);

  ASSERT_FALSE(items.has_value());
  EXPECT_NE(items.error().message.find("pass --gitlab-project group/app"), std::string::npos)
      << items.error().message;
  EXPECT_EQ(items.error().message.find("::"), std::string::npos) << items.error().message;
}

TEST_F(GitLabSourceTest, AnUnknownProjectIsNotFound) {
  auto items = source()->fetch(query("commits", {"group/nope"}), nullptr);

  ASSERT_FALSE(items.has_value());
  EXPECT_EQ(items.error().code, core::ErrorCode::kNotFound);
  EXPECT_NE(items.error().message.find("project group/nope"), std::string::npos);
}

TEST_F(GitLabSourceTest, WaitsForRetryAfterOn429ThenSucceeds) {
  server.rest().script({test_support::RestReply::too_many_requests(3)});
  SourceQuery q = query("commits");
  q.limit = 5;

  auto items = source()->fetch(q, nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  EXPECT_EQ(items->size(), 5u);
  EXPECT_EQ(sleeper.sleeps(), std::vector<milliseconds>{seconds(3)});
  EXPECT_EQ(server.requests().size(), 2u);
}

TEST_F(GitLabSourceTest, Gives500AsUnavailableAfterTheRetries) {
  server.rest().fail_next(3, 500);

  auto items = source()->fetch(query("commits"), nullptr);

  ASSERT_FALSE(items.has_value());
  EXPECT_EQ(items.error().code, core::ErrorCode::kUnavailable);
  EXPECT_NE(items.error().message.find("HTTP 500"), std::string::npos);
  EXPECT_EQ(server.requests().size(), 3u);
  EXPECT_EQ(sleeper.sleeps().size(), 2u);
}

TEST_F(GitLabSourceTest, AMalformedPayloadIsAnErrorNamingUrlAndField) {
  server.rest().script(
      {test_support::RestReply::json(200, "[{\"id\": 42, \"title\": \"x\"}]"),
       test_support::RestReply::json(200, "{\"message\": \"not a list\"}"),
       test_support::RestReply::json(200,
                                     "[{\"iid\": 1, \"title\": \"t\", \"state\": \"opened\", "
                                     "\"created_at\": \"last tuesday\"}]"),
       test_support::RestReply::json(200, "<html>oops")});

  auto wrong_type = source()->fetch(query("commits"), nullptr);
  auto not_array = source()->fetch(query("commits"), nullptr);
  auto bad_time = source()->fetch(query("issues"), nullptr);
  auto not_json = source()->fetch(query("issues"), nullptr);

  ASSERT_FALSE(wrong_type.has_value());
  EXPECT_EQ(wrong_type.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(wrong_type.error().where, "/0/id");
  EXPECT_NE(wrong_type.error().message.find("/api/v4/projects/group%2Fapp/repository/commits"),
            std::string::npos);
  ASSERT_FALSE(not_array.has_value());
  EXPECT_NE(not_array.error().message.find("expected an array"), std::string::npos);
  ASSERT_FALSE(bad_time.has_value());
  EXPECT_EQ(bad_time.error().where, "/0/created_at");
  ASSERT_FALSE(not_json.has_value());
  EXPECT_NE(not_json.error().message.find("not valid JSON"), std::string::npos);
}

TEST_F(GitLabSourceTest, ACancelledFetchStopsWithUnavailable) {
  core::CancellationToken cancel;
  server.rest().script({test_support::RestReply::json(200, "[]").with_delay(seconds(5))});
  std::thread canceller([&] {
    std::this_thread::sleep_for(milliseconds(50));
    cancel.cancel();
  });

  const auto started = steady_clock::now();
  auto items = source()->fetch(query("commits"), &cancel);
  canceller.join();

  ASSERT_FALSE(items.has_value());
  EXPECT_EQ(items.error().code, core::ErrorCode::kUnavailable);
  EXPECT_NE(items.error().message.find("cancelled"), std::string::npos);
  EXPECT_LT(steady_clock::now() - started, seconds(4));
}

TEST_F(GitLabSourceTest, AnAlreadyCancelledFetchSendsNothing) {
  core::CancellationToken cancel;
  cancel.cancel();

  auto items = source()->fetch(query("commits"), &cancel);

  ASSERT_FALSE(items.has_value());
  EXPECT_EQ(items.error().code, core::ErrorCode::kUnavailable);
  EXPECT_TRUE(server.requests().empty());
}

TEST_F(GitLabSourceTest, ItemsCarryIdsFieldsAndProvenance) {
  SourceQuery commits = query("commits");
  commits.limit = 1;
  SourceQuery issues = query("issues");
  issues.limit = 1;
  SourceQuery merges = query("merge_requests");
  merges.limit = 1;

  auto commit = source()->fetch(commits, nullptr);
  auto issue = source()->fetch(issues, nullptr);
  auto merge = source()->fetch(merges, nullptr);

  ASSERT_TRUE(commit.has_value() && issue.has_value() && merge.has_value());
  const EvidenceItem& c = commit->at(0);
  EXPECT_EQ(c.source, "gitlab");
  EXPECT_EQ(c.id, "gitlab:group/app@" + field_value(c, "sha").substr(0, 8));
  EXPECT_FALSE(c.title.empty());
  EXPECT_FALSE(field_value(c, "author").empty());
  EXPECT_NE(field_value(c, "web_url").find("/group/app/-/commit/"), std::string::npos);
  EXPECT_EQ(c.provenance.source, "gitlab");
  EXPECT_EQ(c.provenance.locator, "/api/v4/projects/group%2Fapp/repository/commits?per_page=1&page=1");
  EXPECT_EQ(c.provenance.query, "Retrieve commit data from GitLab projects:group/app");
  EXPECT_EQ(c.provenance.fetched_at, "2024-04-10T12:00:00Z");
  const EvidenceItem& i = issue->at(0);
  EXPECT_EQ(i.id, "gitlab:group/app#" + field_value(i, "iid"));
  EXPECT_FALSE(field_value(i, "state").empty());
  EXPECT_FALSE(field_value(i, "created_at").empty());
  EXPECT_EQ(merge->at(0).id, "gitlab:group/app!" + field_value(merge->at(0), "iid"));
  EXPECT_EQ(field_value(merge->at(0), "target_branch"), "main");
}

TEST_F(GitLabSourceTest, MetricsCountCommitsPerAuthorAndDay) {
  SourceQuery q = query("metrics");
  q.limit = 1000;

  auto metrics = source()->fetch(q, nullptr);

  ASSERT_TRUE(metrics.has_value()) << metrics.error().describe();
  std::size_t total = 0;
  for (const EvidenceItem& item : *metrics) {
    EXPECT_EQ(field_value(item, "metric"), "commits_per_author_day");
    EXPECT_EQ(item.id,
              "gitlab:group/app~commits/" + field_value(item, "day") + "/" + field_value(item, "author"));
    total += std::stoul(field_value(item, "count"));
  }
  EXPECT_EQ(total, 40u);
  EXPECT_TRUE(std::is_sorted(metrics->begin(), metrics->end(), [](const auto& a, const auto& b) {
    return field_value(a, "day") < field_value(b, "day");
  }));
}

TEST_F(GitLabSourceTest, TwoFetchesInParallelEachGetTheirOwnPages) {
  const std::unique_ptr<GitLabSource> shared = source();

  auto app =
      std::async(std::launch::async, [&] { return shared->fetch(query("commits", {"group/app"}), nullptr); });
  auto api =
      std::async(std::launch::async, [&] { return shared->fetch(query("commits", {"group/api"}), nullptr); });
  auto app_items = app.get();
  auto api_items = api.get();

  ASSERT_TRUE(app_items.has_value() && api_items.has_value());
  EXPECT_EQ(app_items->size(), 40u);
  EXPECT_EQ(api_items->size(), 25u);
  for (const EvidenceItem& item : *api_items) EXPECT_EQ(field_value(item, "project"), "group/api");
}

TEST(GitLabResponse, ParsesACommitPageWithoutTheServer) {
  const ResponseOrigin origin{"http://x/api/v4/projects/1/repository/commits",
                              "/api/v4/projects/1/repository/commits", "q", "2024-01-01T00:00:00Z"};

  auto items = parse_gitlab_commits(R"([{"id": "0123456789abcdef", "title": "Fix", "author_name": "Ann",
      "committed_date": "2024-01-15T23:30:00.000-02:00"}])",
                                    "group/app", origin);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  EXPECT_EQ(items->at(0).id, "gitlab:group/app@01234567");
  EXPECT_EQ(field_value(items->at(0), "day"), "2024-01-16");
}

}  // namespace
}  // namespace planfirst::sources
