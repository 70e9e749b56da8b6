#include "sources/db_source.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/cancellation.hpp"
#include "core/timestamp.hpp"
#include "orbit_fixture.hpp"

namespace planfirst::sources {
namespace {

using orbit::Issue;
using orbit::kReferenceDay;
using std::chrono::days;
using std::chrono::sys_days;

std::string field(const EvidenceItem& item, std::string_view name) {
  for (const auto& [key, value] : item.fields) {
    if (key == name) return value;
  }
  ADD_FAILURE() << item.id << " has no field " << name;
  return {};
}

double number(const EvidenceItem& item, std::string_view name) {
  return std::stod(field(item, name));
}

sys_days day_of(std::chrono::sys_seconds t) {
  return std::chrono::floor<days>(t);
}

bool done_by(const Issue& issue, sys_days last_day) {
  return issue.status == "done" && issue.resolved && day_of(*issue.resolved) <= last_day;
}

// The items of a metric's rows, without its headline item (the figure over them).
std::vector<EvidenceItem> rows_of(const std::vector<EvidenceItem>& items) {
  std::vector<EvidenceItem> rows;
  for (const EvidenceItem& item : items) {
    const bool headline = std::any_of(item.fields.begin(), item.fields.end(),
                                      [](const auto& field) { return field.first == "headline"; });
    if (!headline) rows.push_back(item);
  }
  return rows;
}

std::vector<std::string> keys_of(const std::vector<EvidenceItem>& items) {
  std::vector<std::string> keys;
  for (const EvidenceItem& item : items) keys.push_back(field(item, "key"));
  return keys;
}

class DbSourceTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    source_ = orbit::source(GetParam());
    ASSERT_NE(source_, nullptr);
  }

  std::vector<EvidenceItem> fetch(const std::string& question, const std::string& kind = "",
                                  std::size_t limit = 100) {
    SourceQuery query;
    query.text = question;
    query.kind = kind;
    query.limit = limit;
    auto items = source_->fetch(query, nullptr);
    EXPECT_TRUE(items) << question << ": " << items.error().describe();
    return items ? *items : std::vector<EvidenceItem>();
  }

  // The error a fetch of `question` must fail with.
  core::Error fetch_error(const std::string& question) {
    SourceQuery query;
    query.text = question;
    auto items = source_->fetch(query, nullptr);
    EXPECT_FALSE(items) << question;
    return items ? core::Error{} : items.error();
  }

  const orbit::Orbit& data() const { return orbit::direct().orbit; }
  const DbSource* source_ = nullptr;
};

TEST_P(DbSourceTest, SprintCompletionRateIsDonePointsOverCommittedPoints) {
  const orbit::Sprint& sprint = data().sprints.at(12);
  std::int64_t committed = 0, done = 0;
  for (const auto& [id, key] : data().commitments) {
    if (id != 12) continue;
    const Issue& issue = *data().issue(key);
    committed += issue.points.value_or(0);
    if (done_by(issue, sprint.end)) done += issue.points.value_or(0);
  }

  const auto items = fetch("What was the sprint completion rate in sprint 12?");

  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(field(items[0], "metric"), "sprint_completion_rate");
  EXPECT_EQ(number(items[0], "committed_points"), committed);
  EXPECT_EQ(number(items[0], "done_points"), done);
  EXPECT_NEAR(number(items[0], "completion_rate_pct"), 100.0 * done / committed, 0.006);
  EXPECT_EQ(field(items[0], "unit"), "percent");
  EXPECT_EQ(field(items[0], "period"), "Sprint 12 (2026-10-26 .. 2026-11-08)");
}

TEST_P(DbSourceTest, CompletionRateWithoutASprintIsTheLastClosedSprints) {
  const auto items = fetch("what is the sprint completion rate?");

  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(field(items[0], "sprint_id"), "13");
  EXPECT_EQ(items[0].provenance.locator, "builtin:sources/metrics.yaml#sprint_completion_rate/completion");
  EXPECT_NE(items[0].provenance.query.find("-- bound: $1 sprint = 13"), std::string::npos);
  EXPECT_EQ(items[0].provenance.fetched_at, "2026-11-25T12:00:00Z");
}

TEST_P(DbSourceTest, VelocityAveragesTheLastThreeClosedSprints) {
  std::map<std::int64_t, std::int64_t> points;
  for (const Issue& issue : data().issues) {
    if (!issue.sprint || *issue.sprint < 11 || *issue.sprint > 13) continue;
    const orbit::Sprint& sprint = data().sprints.at(*issue.sprint);
    if (done_by(issue, sprint.end) && day_of(*issue.resolved) >= sprint.start)
      points[*issue.sprint] += *issue.points;
  }

  const auto all = fetch("what is our velocity?");
  const auto items = rows_of(all);

  ASSERT_EQ(all.size(), 4u);
  ASSERT_EQ(items.size(), 3u);
  double sum = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(field(items[i], "sprint_id"), std::to_string(11 + i));
    EXPECT_EQ(number(items[i], "completed_points"), points[11 + static_cast<std::int64_t>(i)]);
    sum += points[11 + static_cast<std::int64_t>(i)];
  }
  EXPECT_NEAR(number(items[0], "average_points"), sum / 3, 0.006);
  EXPECT_EQ(field(all[0], "headline"), "mean");
  EXPECT_NEAR(number(all[0], "value"), sum / 3, 0.006);
  EXPECT_EQ(field(all[0], "computed"),
            "mean of completed_points over 3 rows (Sprint 11, Sprint 12, Sprint 13)");
}

TEST_P(DbSourceTest, OpenBugsAreCountedForEveryPriority) {
  std::map<std::string, int> expected{{"P1", 0}, {"P2", 0}, {"P3", 0}, {"P4", 0}};
  for (const Issue& issue : data().issues) {
    if (issue.type == "bug" && issue.status != "done") ++expected[issue.priority];
  }

  const auto all = fetch("How many open bugs do we have by priority?");
  const auto items = rows_of(all);

  ASSERT_EQ(items.size(), 4u);
  int total = 0;
  for (const EvidenceItem& item : items) {
    EXPECT_EQ(number(item, "open_bugs"), expected[field(item, "priority")]);
    total += expected[field(item, "priority")];
  }
  EXPECT_EQ(field(all[0], "headline"), "sum");
  EXPECT_EQ(number(all[0], "value"), total);
}

TEST_P(DbSourceTest, OpenBugsOfOnePriorityCountOnlyThatPriority) {
  int expected = 0;
  for (const Issue& issue : data().issues)
    expected += issue.type == "bug" && issue.status != "done" && issue.priority == "P2";

  const auto all = fetch("How many open P2 bugs are there?");

  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(number(all[0], "value"), expected);
  EXPECT_EQ(field(all[1], "priority"), "P2");
}

TEST_P(DbSourceTest, OpenBugsOfOneComponentByItsName) {
  int expected = 0;
  for (const Issue& issue : data().issues) {
    expected +=
        issue.type == "bug" && issue.status != "done" && issue.component == "payments-connector" ? 1 : 0;
  }

  const auto all = fetch("open bugs by priority in the Payments Connector");

  int total = 0;
  for (const EvidenceItem& item : rows_of(all)) total += static_cast<int>(number(item, "open_bugs"));
  EXPECT_EQ(total, expected);
  EXPECT_EQ(number(all[0], "value"), expected);
}

TEST_P(DbSourceTest, LeadTimeIsTheMedianOverTheDefaultThirtyDays) {
  const sys_days start = kReferenceDay - days(29), end = kReferenceDay + days(1);
  std::vector<double> lead;
  for (const Issue& issue : data().issues) {
    if (issue.status != "done" || !issue.resolved) continue;
    if (*issue.resolved < start || *issue.resolved >= end) continue;
    lead.push_back(static_cast<double>((*issue.resolved - issue.created).count()) / 86400.0);
  }
  std::sort(lead.begin(), lead.end());
  const std::size_t n = lead.size();
  const double median = n % 2 == 1 ? lead[n / 2] : (lead[n / 2 - 1] + lead[n / 2]) / 2;

  const auto items = fetch("what is the lead time?");

  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(number(items[0], "resolved_issues"), static_cast<double>(n));
  EXPECT_NEAR(number(items[0], "median_lead_time_days"), median, 0.006);
  EXPECT_EQ(field(items[0], "period"), "2026-10-27 .. 2026-11-25");
}

TEST_P(DbSourceTest, AverageLeadTimeOfBugsIsTheMeanOverResolvedBugs) {
  const sys_days start = kReferenceDay - days(29), end = kReferenceDay + days(1);
  double sum = 0;
  int n = 0;
  for (const Issue& issue : data().issues) {
    if (issue.type != "bug" || issue.status != "done" || !issue.resolved) continue;
    if (*issue.resolved < start || *issue.resolved >= end) continue;
    sum += static_cast<double>((*issue.resolved - issue.created).count()) / 86400.0;
    ++n;
  }
  ASSERT_GT(n, 0);

  const auto items = fetch("What is the average lead time for bugs?");

  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(number(items[0], "resolved_issues"), n);
  EXPECT_NEAR(number(items[0], "value"), sum / n, 0.006);
  EXPECT_EQ(field(items[0], "computed"), "the average (average_lead_time_days)");
}

TEST_P(DbSourceTest, ThroughputThisMonthIsTheCountResolvedInTheMonth) {
  const sys_days first = sys_days{std::chrono::year{2026} / 11 / 1},
                 next = sys_days{std::chrono::year{2026} / 12 / 1};
  int resolved = 0;
  for (const Issue& issue : data().issues) {
    resolved +=
        issue.status == "done" && issue.resolved && *issue.resolved >= first && *issue.resolved < next;
  }

  const auto items = fetch("What's the throughput this month?");

  ASSERT_FALSE(items.empty());
  EXPECT_EQ(number(items[0], "value"), resolved);
  EXPECT_EQ(field(items[0], "period"), "2026-11-01 .. 2026-11-30");
}

TEST_P(DbSourceTest, CommitsInANamedMonthAndOfAPersonLastWeek) {
  const sys_days first = sys_days{std::chrono::year{2026} / 11 / 1},
                 next = sys_days{std::chrono::year{2026} / 12 / 1};
  const sys_days monday = sys_days{std::chrono::year{2026} / 11 / 16};
  int in_november = 0, ben_last_week = 0;
  for (const orbit::Commit& commit : data().commits) {
    in_november += commit.at >= first && commit.at < next;
    ben_last_week += commit.author == "ben.carter" && commit.at >= monday && commit.at < monday + days(7);
  }

  const auto november = fetch("How many commits were made in November?", "STATUS_METRIC");
  const auto ben = fetch("how many commits did Ben make last week?", "STATUS_METRIC");

  ASSERT_FALSE(november.empty());
  ASSERT_FALSE(ben.empty());
  EXPECT_EQ(field(november[0], "metric"), "commits");
  EXPECT_EQ(number(november[0], "value"), in_november);
  EXPECT_EQ(field(november[0], "period"), "2026-11-01 .. 2026-11-30");
  EXPECT_EQ(number(ben[0], "value"), ben_last_week);
  EXPECT_EQ(rows_of(ben).size(), 1u);
}

TEST_P(DbSourceTest, AMetricTheCatalogLacksIsNotFoundEvenWhenThePlanNamesTheKind) {
  SourceQuery query;
  query.text = "How many deployments failed this month?";
  query.kind = "STATUS_METRIC";

  const auto items = source_->fetch(query, nullptr);

  ASSERT_FALSE(items);
  EXPECT_EQ(items.error().code, core::ErrorCode::kNotFound);
  EXPECT_NE(items.error().message.find("no metric in the catalog matches"), std::string::npos)
      << items.error().message;
}

TEST_P(DbSourceTest, WhatTheFigureDoesNotFollowIsNoted) {
  const auto velocity = fetch("what is the velocity of Priya?");
  const auto mean = fetch("what is the mean time to resolve for stories?");

  ASSERT_FALSE(velocity.empty());
  EXPECT_NE(field(velocity[0], "note").find("names person priya.raman, but velocity is not kept per person"),
            std::string::npos);
  ASSERT_FALSE(mean.empty());
  EXPECT_EQ(field(mean[0], "computed"), "the average (average_lead_time_days)");
}

TEST_P(DbSourceTest, ListsCarryHowManyRowsThereAreBeyondTheLimit) {
  int open = 0;
  for (const Issue& issue : data().issues) open += issue.type == "bug" && issue.status != "done";

  const auto items = fetch("list open bugs", "", 5);

  ASSERT_EQ(items.size(), 5u);
  EXPECT_EQ(number(items[0], "total_rows"), open);
}

TEST_P(DbSourceTest, ThroughputCountsResolutionsPerIsoWeek) {
  const sys_days start = kReferenceDay + days(1) - days(56);
  std::map<sys_days, int> weeks;
  for (const Issue& issue : data().issues) {
    if (issue.status != "done" || !issue.resolved || *issue.resolved < start) continue;
    const sys_days d = day_of(*issue.resolved);
    ++weeks[d - days((std::chrono::weekday(d).c_encoding() + 6) % 7)];
  }

  const auto all = fetch("show the weekly throughput");
  const auto items = rows_of(all);

  ASSERT_EQ(items.size(), weeks.size());
  int total = 0;
  for (const auto& [monday, count] : weeks) total += count;
  EXPECT_EQ(number(all[0], "value"), total);
  EXPECT_EQ(field(all[0], "unit"), "issues resolved");
  std::size_t i = 0;
  for (const auto& [monday, count] : weeks) {
    EXPECT_EQ(field(items[i], "week_start"), core::format_utc_day(std::chrono::sys_seconds(monday)));
    EXPECT_EQ(number(items[i], "resolved_issues"), count);
    ++i;
  }
}

TEST_P(DbSourceTest, OverdueItemsAreOpenIssuesDueBeforeTheReferenceDay) {
  std::vector<std::string> expected;
  for (const Issue& issue : data().issues) {
    if (issue.status != "done" && issue.due && *issue.due < kReferenceDay) expected.push_back(issue.key);
  }
  ASSERT_FALSE(expected.empty());

  const auto count = fetch("how many overdue items are there?");
  auto listed = keys_of(fetch("list overdue items"));

  ASSERT_EQ(count.size(), 1u);
  EXPECT_EQ(number(count[0], "overdue_items"), static_cast<double>(expected.size()));
  std::sort(expected.begin(), expected.end());
  std::sort(listed.begin(), listed.end());
  EXPECT_EQ(listed, expected);
}

TEST_P(DbSourceTest, AsOfMovesTheReferenceDay) {
  const sys_days as_of = sys_days{std::chrono::year{2026} / 10 / 1};
  int expected = 0;
  for (const Issue& issue : data().issues) {
    expected += issue.status != "done" && issue.due && *issue.due < as_of ? 1 : 0;
  }

  const auto items = fetch("how many overdue items as of 2026-10-01");

  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(number(items[0], "overdue_items"), expected);
}

TEST_P(DbSourceTest, TheQueryReferenceDayReplacesTheClocksDay) {
  const sys_days reference = sys_days{std::chrono::year{2026} / 10 / 1};
  int expected = 0;
  for (const Issue& issue : data().issues) {
    expected += issue.status != "done" && issue.due && *issue.due < reference ? 1 : 0;
  }
  SourceQuery query;
  query.text = "how many overdue items are there?";
  query.reference_day = reference;

  const auto items = source_->fetch(query, nullptr);

  ASSERT_TRUE(items) << items.error().describe();
  ASSERT_EQ(items->size(), 1u);
  EXPECT_EQ(number((*items)[0], "overdue_items"), expected);
  EXPECT_EQ(field((*items)[0], "period"), "as of 2026-10-01");
}

TEST_P(DbSourceTest, AnAsOfInTheQuestionWinsOverTheQueryReferenceDay) {
  SourceQuery query;
  query.text = "how many overdue items as of 2026-11-25";
  query.reference_day = sys_days{std::chrono::year{2026} / 10 / 1};

  const auto items = source_->fetch(query, nullptr);

  ASSERT_TRUE(items) << items.error().describe();
  ASSERT_EQ(items->size(), 1u);
  EXPECT_EQ(field((*items)[0], "period"), "as of 2026-11-25");
}

TEST_P(DbSourceTest, WorkInProgressPerAssignee) {
  std::map<std::string, int> expected;
  for (const Issue& issue : data().issues) {
    if (issue.status == "in_progress" || issue.status == "in_review") ++expected[issue.assignee];
  }

  const auto all = fetch("show work in progress per person");
  const auto items = rows_of(all);

  ASSERT_EQ(items.size(), expected.size());
  int total = 0;
  for (const auto& [person, count] : expected) total += count;
  EXPECT_EQ(number(all[0], "value"), total);
  for (const EvidenceItem& item : items)
    EXPECT_EQ(number(item, "work_in_progress"), expected[field(item, "assignee_id")]);
}

TEST_P(DbSourceTest, SprintSummaryOfTheCurrentSprint) {
  const orbit::Sprint& sprint = data().sprints.at(14);
  int committed = 0, done = 0;
  for (const auto& [id, key] : data().commitments) {
    if (id != 14) continue;
    ++committed;
    done += done_by(*data().issue(key), sprint.end) ? 1 : 0;
  }
  std::set<std::string> open_p1_p2;
  for (const Issue& issue : data().issues) {
    if (issue.type == "bug" && issue.status != "done" && (issue.priority == "P1" || issue.priority == "P2")) {
      open_p1_p2.insert(issue.key);
    }
  }

  const auto items = fetch("give me a summary of the current sprint", "summary");

  ASSERT_GE(items.size(), 1u);
  EXPECT_EQ(field(items[0], "query"), "commitment");
  EXPECT_EQ(field(items[0], "sprint_id"), "14");
  EXPECT_EQ(number(items[0], "committed_issues"), committed);
  EXPECT_EQ(number(items[0], "done_issues"), done);
  std::set<std::string> listed;
  std::size_t top = 0;
  for (const EvidenceItem& item : items) {
    if (field(item, "query") == "open_p1_p2_bugs") listed.insert(field(item, "key"));
    if (field(item, "query") == "top_assignees") ++top;
  }
  EXPECT_EQ(listed, open_p1_p2);
  EXPECT_GE(top, 1u);
  EXPECT_LE(top, 3u);
}

TEST_P(DbSourceTest, ListsOpenBugsOfOnePriority) {
  std::vector<std::string> expected;
  for (const Issue& issue : data().issues) {
    if (issue.type == "bug" && issue.status != "done" && issue.priority == "P2")
      expected.push_back(issue.key);
  }

  auto listed = keys_of(fetch("list open P2 bugs"));

  std::sort(expected.begin(), expected.end());
  std::sort(listed.begin(), listed.end());
  EXPECT_EQ(listed, expected);
}

TEST_P(DbSourceTest, ListsTheIssuesOfASprintAPersonAndAComponent) {
  std::set<std::string> sprint12, priya, renderer;
  for (const Issue& issue : data().issues) {
    if (issue.sprint == 12) sprint12.insert(issue.key);
    if (issue.assignee == "priya.raman" && issue.status != "done") priya.insert(issue.key);
    if (issue.component == "invoice-renderer" && issue.status != "done") renderer.insert(issue.key);
  }

  const auto in_sprint = keys_of(fetch("list the issues in sprint 12"));
  const auto of_priya = keys_of(fetch("what is assigned to Priya?"));
  const auto of_renderer = keys_of(fetch("list issues in invoice-renderer"));

  EXPECT_EQ(std::set<std::string>(in_sprint.begin(), in_sprint.end()), sprint12);
  EXPECT_EQ(std::set<std::string>(of_priya.begin(), of_priya.end()), priya);
  EXPECT_EQ(std::set<std::string>(of_renderer.begin(), of_renderer.end()), renderer);
}

TEST_P(DbSourceTest, ListsStopAtTheQueryLimit) {
  const auto items = fetch("list the issues in sprint 12", "", 5);

  EXPECT_EQ(items.size(), 5u);
}

TEST_P(DbSourceTest, AQuestionNamingNoMetricIsNotFoundWithTheCatalogsNames) {
  const core::Error error = fetch_error("what is the weather in Lisbon?");

  EXPECT_EQ(error.code, core::ErrorCode::kNotFound);
  for (const std::string& name : source_->catalog().names()) {
    EXPECT_NE(error.message.find(name), std::string::npos) << name;
  }
}

TEST_P(DbSourceTest, AnUnknownSprintNumberIsRefused) {
  const core::Error error = fetch_error("completion rate of sprint 40");

  EXPECT_EQ(error.code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(error.message.find("1..14"), std::string::npos);
}

TEST_P(DbSourceTest, AnEntryNamedByKindStillNeedsItsRequiredPerson) {
  SourceQuery query;
  query.text = "what is assigned to Robert";
  query.kind = "list_person_issues";

  auto items = source_->fetch(query, nullptr);

  ASSERT_FALSE(items);
  EXPECT_EQ(items.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(items.error().message.find("Priya Raman (priya.raman)"), std::string::npos)
      << items.error().message;
}

TEST_P(DbSourceTest, SqlInTheQuestionIsNeverExecuted) {
  const std::size_t issues_before = data().issues.size();

  const auto items = fetch(
      "list open bugs in component x'); DROP TABLE issues; -- assigned to Robert'); DELETE FROM people; --");
  auto count = source_->database().query("SELECT COUNT(*) FROM issues");
  auto people = source_->database().query("SELECT COUNT(*) FROM people");

  ASSERT_FALSE(items.empty());
  EXPECT_EQ(field(items[0], "metric"), "list_open_bugs");
  for (const EvidenceItem& item : items) {
    EXPECT_EQ(item.provenance.query.find("DROP"), std::string::npos);
    EXPECT_EQ(item.provenance.query.find("Robert"), std::string::npos);
  }
  ASSERT_TRUE(count) << count.error().describe();
  EXPECT_EQ(count->at(0, 0), data::Value(static_cast<std::int64_t>(issues_before)));
  ASSERT_TRUE(people) << people.error().describe();
  EXPECT_EQ(people->at(0, 0), data::Value(std::int64_t{8}));
}

TEST_P(DbSourceTest, TheSourcesConnectionRefusesWrites) {
  auto deleted = source_->database().query("DELETE FROM issues WHERE key = 'ORB-1'");
  auto created = source_->database().query("CREATE TABLE scratch (a INTEGER)");
  auto still = source_->database().query("SELECT COUNT(*) FROM issues WHERE key = 'ORB-1'");

  ASSERT_FALSE(deleted);
  EXPECT_EQ(deleted.error().code, core::ErrorCode::kFailedPrecondition) << deleted.error().describe();
  ASSERT_FALSE(created);
  EXPECT_EQ(created.error().code, core::ErrorCode::kFailedPrecondition) << created.error().describe();
  ASSERT_TRUE(still) << still.error().describe();
  EXPECT_EQ(still->at(0, 0), data::Value(std::int64_t{1}));
}

TEST_P(DbSourceTest, ACancelledFetchStopsBeforeQuerying) {
  core::CancellationToken cancel;
  cancel.cancel();
  SourceQuery query;
  query.text = "velocity";

  auto items = source_->fetch(query, &cancel);

  ASSERT_FALSE(items);
  EXPECT_EQ(items.error().code, core::ErrorCode::kUnavailable);
}

TEST_P(DbSourceTest, SameQuestionSameEvidence) {
  const auto first = fetch("summarize sprint 13");
  const auto second = fetch("summarize sprint 13");

  ASSERT_EQ(first.size(), second.size());
  for (std::size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(first[i].id, second[i].id);
    EXPECT_EQ(first[i].fields, second[i].fields);
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, DbSourceTest, ::testing::Values("duckdb", "postgresql"),
                         [](const auto& info) { return info.param; });

// The question a test asks of `entry`: its first phrase plus whatever it requires.
std::string question_for(const MetricEntry& entry) {
  std::string question = entry.phrases.front();
  if (const MetricParameter* p = entry.parameter("person"); p != nullptr && p->required)
    question += " Daniel Okafor";
  if (const MetricParameter* p = entry.parameter("component"); p != nullptr && p->required)
    question += " billing-engine";
  return question;
}

TEST(DbSource, EveryCatalogEntryGivesTheSameEvidenceOnDuckDbAndPostgres) {
  const DbSource* duckdb = orbit::source("duckdb");
  const DbSource* postgres = orbit::source("postgresql");
  ASSERT_NE(duckdb, nullptr);
  ASSERT_NE(postgres, nullptr);

  for (const MetricEntry& entry : duckdb->catalog().entries()) {
    SourceQuery query;
    query.text = question_for(entry);
    query.kind = entry.name;
    auto duck = duckdb->fetch(query, nullptr);
    auto pg = postgres->fetch(query, nullptr);

    ASSERT_TRUE(duck) << entry.name << ": " << duck.error().describe();
    ASSERT_TRUE(pg) << entry.name << ": " << pg.error().describe();
    ASSERT_EQ(duck->size(), pg->size()) << entry.name;
    ASSERT_FALSE(duck->empty()) << entry.name;
    for (std::size_t i = 0; i < duck->size(); ++i) {
      auto without_database = [](std::vector<std::pair<std::string, std::string>> fields) {
        std::erase_if(fields, [](const auto& f) { return f.first == "database"; });
        return fields;
      };
      EXPECT_EQ((*duck)[i].id, (*pg)[i].id) << entry.name;
      EXPECT_EQ(without_database((*duck)[i].fields), without_database((*pg)[i].fields)) << entry.name;
      EXPECT_EQ((*duck)[i].provenance.locator, (*pg)[i].provenance.locator) << entry.name;
    }
    EXPECT_NE(field(duck->front(), "database").find("duckdb:"), std::string::npos);
    EXPECT_NE(field(pg->front(), "database").find("postgresql://"), std::string::npos);
  }
}

TEST(DbSource, BuildsTheDuckDbCacheOnceBesideTheScripts) {
  ASSERT_NE(orbit::source("duckdb"), nullptr);
  const std::filesystem::path cache = orbit::project_dir() / "status" / "status.duckdb";
  ASSERT_TRUE(std::filesystem::exists(cache));
  const auto built = std::filesystem::last_write_time(cache);

  auto again = StatusDatabase::open((orbit::project_dir() / "status").string());

  ASSERT_TRUE(again) << again.error().describe();
  EXPECT_EQ((*again)->location(), cache.string());
  EXPECT_EQ(std::filesystem::last_write_time(cache), built);
}

TEST(DbSource, AFolderWithoutScriptsIsNotFound) {
  auto opened = StatusDatabase::open(::testing::TempDir());

  ASSERT_FALSE(opened);
  EXPECT_EQ(opened.error().code, core::ErrorCode::kNotFound);
}

}  // namespace
}  // namespace planfirst::sources
