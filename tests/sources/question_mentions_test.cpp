#include "sources/question_mentions.hpp"

#include <gtest/gtest.h>

namespace planfirst::sources {
namespace {

using std::chrono::days;
using std::chrono::sys_days;

constexpr sys_days kToday = sys_days{std::chrono::year{2026} / 11 / 25};  // a Wednesday in sprint 14

StatusDirectory orbit_directory() {
  StatusDirectory directory;
  directory.people = {
      {"daniel.okafor", "Daniel Okafor"}, {"priya.raman", "Priya Raman"}, {"sofia.alvarez", "Sofia Alvarez"}};
  directory.components = {{"billing-engine", "Billing Engine"}, {"invoice-renderer", "Invoice Renderer"}};
  for (std::int64_t k = 1; k <= 14; ++k) {
    const sys_days start = sys_days{std::chrono::year{2026} / 5 / 25} + days(14 * (k - 1));
    directory.sprints.push_back({k, "Sprint " + std::to_string(k), start, start + days(13)});
  }
  return directory;
}

QuestionMentions read(std::string_view question) {
  auto mentions = read_mentions(question, orbit_directory(), kToday);
  EXPECT_TRUE(mentions) << question << ": " << mentions.error().describe();
  return mentions ? *mentions : QuestionMentions{};
}

TEST(QuestionMentions, ReadsSprintsByNumberAndByPosition) {
  EXPECT_EQ(read("completion rate of sprint 12").sprint, 12);
  EXPECT_EQ(read("completion rate of Sprint12").sprint, 12);
  EXPECT_EQ(read("how did the last sprint go").sprint, 13);
  EXPECT_EQ(read("summary of the current sprint").sprint, 14);
  EXPECT_EQ(read("summary of this sprint as of 2026-10-01").sprint, 10);
  EXPECT_FALSE(read("velocity").sprint.has_value());
}

TEST(QuestionMentions, AnUnknownSprintNumberIsInvalid) {
  auto mentions = read_mentions("sprint 99", orbit_directory(), kToday);

  ASSERT_FALSE(mentions);
  EXPECT_EQ(mentions.error().code, core::ErrorCode::kInvalidArgument);
}

TEST(QuestionMentions, ReadsPeriodsAgainstTheReferenceDay) {
  EXPECT_EQ(read("throughput this week").period->describe(), "2026-11-23 .. 2026-11-29");
  EXPECT_EQ(read("throughput last week").period->describe(), "2026-11-16 .. 2026-11-22");
  EXPECT_EQ(read("lead time last month").period->describe(), "2026-10-01 .. 2026-10-31");
  EXPECT_EQ(read("lead time this month").period->describe(), "2026-11-01 .. 2026-11-30");
  EXPECT_EQ(read("lead time over the last 14 days").period->describe(), "2026-11-12 .. 2026-11-25");
  EXPECT_EQ(read("throughput in the past 2 weeks").period->describe(), "2026-11-12 .. 2026-11-25");
  EXPECT_EQ(read("lead time since 2026-09-01").period->describe(), "2026-09-01 .. 2026-11-25");
  EXPECT_FALSE(read("lead time").period.has_value());
}

TEST(QuestionMentions, ReadsANamedMonthAsTheLatestOneUpToTheReferenceDay) {
  EXPECT_EQ(read("commits made in November").period->describe(), "2026-11-01 .. 2026-11-30");
  EXPECT_EQ(read("throughput during oct").period->describe(), "2026-10-01 .. 2026-10-31");
  EXPECT_EQ(read("lead time in December").period->describe(), "2025-12-01 .. 2025-12-31");
  EXPECT_EQ(read("commits in february 2024").period->describe(), "2024-02-01 .. 2024-02-29");
  EXPECT_EQ(read("commits for May").period->describe(), "2026-05-01 .. 2026-05-31");
  EXPECT_FALSE(read("may I see the lead time").period.has_value());
  EXPECT_FALSE(read("the march of progress").period.has_value());
}

TEST(QuestionMentions, ReadsIssueTypesAndStatistics) {
  EXPECT_EQ(read("average lead time for bugs").issue_type, "bug");
  EXPECT_EQ(read("average lead time for bugs").statistic, "average");
  EXPECT_EQ(read("median time to resolve stories").issue_type, "story");
  EXPECT_EQ(read("median time to resolve stories").statistic, "median");
  EXPECT_EQ(read("mean lead time of tasks").statistic, "average");
  EXPECT_FALSE(read("lead time").issue_type.has_value());
  EXPECT_FALSE(read("lead time").statistic.has_value());
}

TEST(QuestionMentions, ReadsPriorities) {
  EXPECT_EQ(read("list open P1 bugs").priority, "P1");
  EXPECT_EQ(read("list open p3 bugs").priority, "P3");
  EXPECT_EQ(read("any critical bugs?").priority, "P1");
  EXPECT_FALSE(read("list open bugs about P5").priority.has_value());
}

TEST(QuestionMentions, MatchesComponentsByIdOrName) {
  EXPECT_EQ(read("open bugs in billing-engine").component, "billing-engine");
  EXPECT_EQ(read("open bugs in the Billing Engine").component, "billing-engine");
  EXPECT_EQ(read("renderer and billing: Invoice Renderer then billing engine").component, "invoice-renderer");
  EXPECT_FALSE(read("open bugs in the billing system").component.has_value());
}

TEST(QuestionMentions, MatchesPeopleByIdFullNameOrUniqueFirstName) {
  EXPECT_EQ(read("what is assigned to priya.raman").person, "priya.raman");
  EXPECT_EQ(read("what is Daniel Okafor working on").person, "daniel.okafor");
  EXPECT_EQ(read("what is sofia working on").person, "sofia.alvarez");
  EXPECT_FALSE(read("what is Robert'); DROP TABLE people; -- working on").person.has_value());
}

}  // namespace
}  // namespace planfirst::sources
