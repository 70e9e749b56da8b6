// YouTrackSource against YouTrackTestServer: the query language reaches the server, $top/$skip paging,
// the bearer token, the failure cases (missing or refused token, 429 then success, 500 after retries,
// malformed payloads, cancellation), the evidence items, and two fetches in parallel.
#include "sources/youtrack_source.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <future>
#include <thread>

#include "core/cancellation.hpp"
#include "sources/field_counts.hpp"
#include "sources/source_fixture.hpp"
#include "sources/youtrack_query.hpp"
#include "sources/youtrack_response.hpp"
#include "support/youtrack_test_server.hpp"

namespace planfirst::sources {
namespace {

using namespace std::chrono;
using test_support::YouTrackTestServer;

struct YouTrackSourceTest : SourceFixture<YouTrackTestServer, YouTrackSource, YouTrackOptions> {
  YouTrackSourceTest() : SourceFixture("YOUTRACK_TOKEN") {}
};

SourceQuery query(std::vector<std::string> projects = {"PRJ"}, std::string kind = "issues") {
  SourceQuery q;
  q.kind = std::move(kind);
  q.projects = std::move(projects);
  q.text = "Retrieve issue data from YouTrack projects:PRJ";
  return q;
}

TEST(YouTrackQuery, WritesProjectsStatesAndDaysInTheQueryLanguage) {
  SourceQuery q = query({"PRJ", "Mobile App"});
  q.statuses = {"open", "in-progress"};
  q.time = TimeRange{kJan1, kJan1 + days(31)};

  auto text = youtrack_query(q, q.projects);

  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(*text,
            "project: PRJ, {Mobile App} State: Open, {In Progress} created: 2024-01-01 .. 2024-01-31 "
            "sort by: created desc");
}

TEST(YouTrackQuery, UsesResolutionTagsAndOrForMixedStatuses) {
  SourceQuery only = query({});
  only.statuses = {"unresolved"};
  SourceQuery mixed = query({});
  mixed.statuses = {"fixed", "unresolved"};

  EXPECT_EQ(*youtrack_query(only, {}), "#Unresolved sort by: created desc");
  EXPECT_EQ(*youtrack_query(mixed, {}), "(State: Fixed or #Unresolved) sort by: created desc");
}

TEST(YouTrackQuery, WritesAssigneesAsForAndAuthorsAsReporter) {
  SourceQuery q = query({"MOB"});
  q.statuses = {"open"};
  q.assignees = {"alice", "dana"};
  q.authors = {"bob"};

  auto text = youtrack_query(q, q.projects);

  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(*text, "project: MOB State: Open for: alice, dana reporter: bob sort by: created desc");
}

TEST(YouTrackQuery, RefusesAValueItCannotQuote) {
  auto text = youtrack_query(query({"evil} or {x"}), {"evil} or {x"});

  ASSERT_FALSE(text.has_value());
  EXPECT_EQ(text.error().code, core::ErrorCode::kInvalidArgument);
}

TEST_F(YouTrackSourceTest, SendsTheQueryFieldsAndBearerToken) {
  SourceQuery q = query({"Mobile App"});
  q.statuses = {"in-progress"};

  auto items = source()->fetch(q, nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  ASSERT_FALSE(items->empty());
  const auto request = server.requests().at(0);
  EXPECT_EQ(request.raw_path, "/api/issues");
  EXPECT_EQ(request.param("query"), "project: {Mobile App} State: {In Progress} sort by: created desc");
  EXPECT_EQ(request.param("fields"), std::string(kYouTrackIssueFields));
  EXPECT_EQ(request.header("Authorization"), std::string("Bearer ") + YouTrackTestServer::kToken);
  for (const EvidenceItem& item : *items) {
    EXPECT_EQ(field_value(item, "project"), "MOB");
    EXPECT_EQ(field_value(item, "state"), "In Progress");
  }
}

TEST_F(YouTrackSourceTest, FiltersByAssigneeAndReporterOnTheServer) {
  SourceQuery q = query({"MOB"});
  q.assignees = {"alice"};
  q.authors = {"bob"};

  auto items = source()->fetch(q, nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  EXPECT_EQ(server.requests().at(0).param("query"),
            "project: MOB for: alice reporter: bob sort by: created desc");
  std::vector<std::string> ids;
  for (const EvidenceItem& item : *items) {
    ids.push_back(item.id);
    EXPECT_EQ(field_value(item, "reporter"), "bob") << item.id;
  }
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<std::string>{"youtrack:MOB-11", "youtrack:MOB-8"}));
}

TEST_F(YouTrackSourceTest, FiltersByCreatedDaysAndTheExactRange) {
  SourceQuery q = query();
  q.time = TimeRange{kJan1 + days(31) + 12h, kJan1 + days(60)};

  auto items = source()->fetch(q, nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  EXPECT_NE(server.requests()[0].param("query").find("created: 2024-02-01 .. 2024-02-29"), std::string::npos);
  ASSERT_FALSE(items->empty());
  for (const EvidenceItem& item : *items) {
    EXPECT_GE(field_value(item, "created_at"), "2024-02-01T12:00:00Z");
    EXPECT_LT(field_value(item, "created_at"), "2024-03-01");
  }
}

TEST_F(YouTrackSourceTest, PagesWithTopAndSkipUntilAShortPage) {
  auto items = source()->fetch(query(), nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  EXPECT_EQ(items->size(), 30u);
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_EQ(requests[3].param("$skip"), "30");
  EXPECT_EQ(requests[3].param("$top"), "10");
}

TEST_F(YouTrackSourceTest, StopsAtTheLimit) {
  SourceQuery q = query({});
  q.limit = 25;

  auto items = source()->fetch(q, nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  EXPECT_EQ(items->size(), 25u);
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[2].param("$top"), "5");
  EXPECT_EQ(requests[2].param("$skip"), "20");
}

TEST_F(YouTrackSourceTest, AMissingTokenVariableIsAnErrorAtCreate) {
  auto made = YouTrackSource::create(options(), clock, sleeper, core::Environment{});

  ASSERT_FALSE(made.has_value());
  EXPECT_EQ(made.error().code, core::ErrorCode::kFailedPrecondition);
  EXPECT_NE(made.error().message.find("YOUTRACK_TOKEN"), std::string::npos);
}

TEST_F(YouTrackSourceTest, ARefusedTokenNamesItsVariable) {
  server.rest().set_token("Bearer perm:other");

  auto items = source()->fetch(query(), nullptr);

  ASSERT_FALSE(items.has_value());
  EXPECT_EQ(items.error().code, core::ErrorCode::kFailedPrecondition);
  EXPECT_NE(
      items.error().message.find("YouTrack refused the token from the environment variable YOUTRACK_TOKEN"),
      std::string::npos)
      << items.error().message;
}

TEST_F(YouTrackSourceTest, WaitsForRetryAfterOn429ThenSucceeds) {
  server.rest().script({test_support::RestReply::too_many_requests(7)});
  SourceQuery q = query();
  q.limit = 3;

  auto items = source()->fetch(q, nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  EXPECT_EQ(items->size(), 3u);
  EXPECT_EQ(sleeper.sleeps(), std::vector<milliseconds>{seconds(7)});
}

TEST_F(YouTrackSourceTest, Gives500AsUnavailableAfterTheRetries) {
  server.rest().fail_next(3, 500);

  auto items = source()->fetch(query(), nullptr);

  ASSERT_FALSE(items.has_value());
  EXPECT_EQ(items.error().code, core::ErrorCode::kUnavailable);
  EXPECT_EQ(server.requests().size(), 3u);
}

TEST_F(YouTrackSourceTest, AMalformedPayloadIsAnErrorNamingUrlAndField) {
  server.rest().script(
      {test_support::RestReply::json(200, R"([{"idReadable": "PRJ-1", "created": "yesterday"}])"),
       test_support::RestReply::json(200, R"([{"idReadable": "PRJ-1", "created": 1,
                            "customFields": [{"name": "State", "value": [[1]]}]}])"),
       test_support::RestReply::json(200, "[1, 2")});

  auto wrong_type = source()->fetch(query(), nullptr);
  auto bad_custom = source()->fetch(query(), nullptr);
  auto truncated = source()->fetch(query(), nullptr);

  ASSERT_FALSE(wrong_type.has_value());
  EXPECT_EQ(wrong_type.error().where, "/0/created");
  EXPECT_NE(wrong_type.error().message.find("/api/issues?query="), std::string::npos);
  ASSERT_FALSE(bad_custom.has_value());
  EXPECT_EQ(bad_custom.error().where, "/0/customFields");
  ASSERT_FALSE(truncated.has_value());
  EXPECT_EQ(truncated.error().code, core::ErrorCode::kInvalidArgument);
}

TEST_F(YouTrackSourceTest, ACancelledFetchStopsWithUnavailable) {
  core::CancellationToken cancel;
  server.rest().script({test_support::RestReply::json(200, "[]").with_delay(seconds(5))});
  std::thread canceller([&] {
    std::this_thread::sleep_for(milliseconds(50));
    cancel.cancel();
  });

  const auto started = steady_clock::now();
  auto items = source()->fetch(query(), &cancel);
  canceller.join();

  ASSERT_FALSE(items.has_value());
  EXPECT_EQ(items.error().code, core::ErrorCode::kUnavailable);
  EXPECT_LT(steady_clock::now() - started, seconds(4));
}

TEST_F(YouTrackSourceTest, ItemsCarryIdsFieldsAndProvenance) {
  SourceQuery q = query();
  q.limit = 1;

  auto items = source()->fetch(q, nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  const EvidenceItem& item = items->at(0);
  EXPECT_EQ(item.source, "youtrack");
  EXPECT_EQ(item.id.rfind("youtrack:PRJ-", 0), 0u) << item.id;
  EXPECT_FALSE(item.title.empty());
  EXPECT_FALSE(field_value(item, "state").empty());
  EXPECT_FALSE(field_value(item, "reporter").empty());
  EXPECT_EQ(field_value(item, "web_url"), server.base_url() + "/issue/" + item.id.substr(9));
  EXPECT_EQ(item.provenance.locator.rfind("/api/issues?query=project%3A%20PRJ", 0), 0u)
      << item.provenance.locator;
  EXPECT_EQ(item.provenance.query, "Retrieve issue data from YouTrack projects:PRJ");
  EXPECT_EQ(item.provenance.fetched_at, "2024-04-10T12:00:00Z");
}

TEST_F(YouTrackSourceTest, MetricsCountIssuesPerState) {
  SourceQuery q = query({}, "metrics");

  auto metrics = source()->fetch(q, nullptr);

  ASSERT_TRUE(metrics.has_value()) << metrics.error().describe();
  std::size_t total = 0;
  for (const EvidenceItem& item : *metrics) {
    EXPECT_EQ(field_value(item, "metric"), "issues_by_state");
    EXPECT_EQ(item.id, "youtrack:" + field_value(item, "project") + "~state/" + field_value(item, "state"));
    total += std::stoul(field_value(item, "count"));
  }
  EXPECT_EQ(total, 60u);
}

TEST_F(YouTrackSourceTest, TwoFetchesInParallelEachGetTheirOwnPages) {
  const std::unique_ptr<YouTrackSource> shared = source();

  auto prj = std::async(std::launch::async, [&] { return shared->fetch(query({"PRJ"}), nullptr); });
  auto ops = std::async(std::launch::async, [&] { return shared->fetch(query({"OPS"}), nullptr); });
  auto prj_items = prj.get();
  auto ops_items = ops.get();

  ASSERT_TRUE(prj_items.has_value() && ops_items.has_value());
  EXPECT_EQ(prj_items->size(), 30u);
  EXPECT_EQ(ops_items->size(), 18u);
  for (const EvidenceItem& item : *ops_items) EXPECT_EQ(field_value(item, "project"), "OPS");
}

}  // namespace
}  // namespace planfirst::sources
