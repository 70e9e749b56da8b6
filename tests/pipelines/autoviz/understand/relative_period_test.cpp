#include "pipelines/autoviz/understand/relative_period.hpp"

#include <gtest/gtest.h>

namespace planfirst::autoviz {
namespace {

RelativePeriodPhrases phrases() {
  RelativePeriodPhrases p;
  p.current = phrases_of({"this", "current"});
  p.previous = phrases_of({"last", "previous"});
  p.trailing = phrases_of({"last", "past"});
  p.to_date = phrases_of({"to date"});
  p.part_of = phrases_of({"of each"});
  p.not_before = phrases_of({"that"});
  p.number_words = stems_of({"zero", "one", "two", "three"});
  p.units = {{"day", phrases_of({"day"})},
             {"week", phrases_of({"week"})},
             {"month", phrases_of({"month"})},
             {"quarter", phrases_of({"quarter"})},
             {"year", phrases_of({"year"})}};
  return p;
}

// The dates the question's period keeps when the latest date is `latest`, as "from..to"; "none".
std::string kept(std::string_view question, std::string_view latest) {
  const std::vector<RelativePeriod> periods = find_relative_periods(stems_of_text(question), phrases());
  if (periods.empty()) return "none";
  std::string text;
  for (const RelativePeriod& period : periods) {
    const std::optional<DateRange> range = period_dates(period, latest);
    text += (text.empty() ? "" : ", ") + (range ? range->from + ".." + range->to : "no dates") +
            (period.part ? " (part)" : "") + (period.qualified ? " (qualified)" : "");
  }
  return text;
}

TEST(RelativePeriod, CalendarPeriodsHoldOrPrecedeTheLatestDate) {
  EXPECT_EQ(kept("revenue this year", "2024-08-15"), "2024-01-01..2025-01-01");
  EXPECT_EQ(kept("revenue last year", "2024-08-15"), "2023-01-01..2024-01-01");
  EXPECT_EQ(kept("revenue last month", "2024-01-15"), "2023-12-01..2024-01-01");
  EXPECT_EQ(kept("revenue in the last month", "2024-01-15"), "2023-12-16..2024-01-16")
      << "the month up to the latest date";
  EXPECT_EQ(kept("revenue on the last day", "2024-01-15"), "2024-01-15..2024-01-16");
  EXPECT_EQ(kept("this year compared with last year", "2024-08-15"),
            "2024-01-01..2025-01-01, 2023-01-01..2024-01-01");
  EXPECT_EQ(kept("revenue in the previous quarter", "2024-08-15"), "2024-04-01..2024-07-01");
  EXPECT_EQ(kept("revenue this week", "2024-08-15"), "2024-08-12..2024-08-19") << "2024-08-15 is a Thursday";
}

TEST(RelativePeriod, TrailingPeriodsEndWithTheLatestDate) {
  EXPECT_EQ(kept("the last 30 days", "2024-12-31"), "2024-12-02..2025-01-01");
  EXPECT_EQ(kept("the past two weeks", "2024-12-31"), "2024-12-18..2025-01-01");
  EXPECT_EQ(kept("the past 6 months", "2024-12-31"), "2024-07-01..2025-01-01") << "June has no 31st";
  EXPECT_EQ(kept("over the past year", "2024-02-29 10:30:00"), "2023-03-01..2024-03-01");
  EXPECT_EQ(kept("revenue year to date", "2024-08-15"), "2024-01-01..2024-08-16");
}

TEST(RelativePeriod, OtherUsesOfTheWordsNameNoPeriod) {
  EXPECT_EQ(kept("the last names of customers", "2024-08-15"), "none");
  EXPECT_EQ(kept("the last 5 orders", "2024-08-15"), "none");
  EXPECT_EQ(kept("revenue by year", "2024-08-15"), "none");
  EXPECT_EQ(kept("revenue on the last day of each month", "2024-08-15"), "2024-08-15..2024-08-16 (part)");
  EXPECT_EQ(kept("revenue in the last quarter of 2024", "2024-08-15"), "2024-05-16..2024-08-16 (part)");
  EXPECT_EQ(kept("the last month that had no sales", "2024-08-15"), "2024-07-16..2024-08-16 (qualified)");
  EXPECT_EQ(kept("the last 1001 days", "2024-08-15"), "none")
      << "more than 1000 is no period a question means";
  EXPECT_EQ(kept("the last 1000 years", "0500-08-15"), "no dates") << "it would start before year 1";
  EXPECT_EQ(kept("revenue last year", "August 2024"), "no dates");
  EXPECT_EQ(kept("revenue last year", "2024-02-30"), "no dates");
}

}  // namespace
}  // namespace planfirst::autoviz
