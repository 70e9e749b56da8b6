#include "pipelines/autoviz/planning/periods_spanned.hpp"

#include <gtest/gtest.h>

namespace planfirst::autoviz {
namespace {

data::ColumnProfile dates(std::string first, std::string last) {
  data::ColumnProfile column;
  column.name = "date";
  column.span = data::TemporalSpan{std::move(first), std::move(last), 0, 0, 0, 0};
  return column;
}

Constraint filter(std::string op, std::string day) {
  return Constraint{"filter", "date", std::move(op), ParamValue{{ParamScalar(std::move(day))}, false}, "", 0};
}

TEST(PeriodsSpanned, CountsTheCalendarPeriodsTheDatesFallIn) {
  const data::ColumnProfile two_years = dates("2023-01-01", "2024-12-31 23:00:00");

  EXPECT_EQ(periods_spanned(two_years, "year", {}, 10), 2);
  EXPECT_EQ(periods_spanned(two_years, "quarter", {}, 10), 8);
  EXPECT_EQ(periods_spanned(two_years, "month", {}, 100), 24);
  EXPECT_EQ(periods_spanned(dates("2023-12-31", "2024-01-01"), "year", {}, 10), 2);  // two days, two years
  EXPECT_EQ(periods_spanned(two_years, "day", {}, 3), 3) << "counted up to the cap";
}

TEST(PeriodsSpanned, TheQuestionsFiltersNarrowTheSpan) {
  const data::ColumnProfile two_years = dates("2023-01-01", "2024-12-31");

  EXPECT_EQ(periods_spanned(two_years, "year", {filter(">=", "2024-01-01"), filter("<", "2025-01-01")}, 10),
            1);
  EXPECT_EQ(periods_spanned(two_years, "month", {filter("<", "2023-03-01")}, 100), 2) << "before March";
  EXPECT_EQ(periods_spanned(two_years, "month", {filter("<=", "2023-03-01")}, 100), 3) << "up to March 1";
}

TEST(PeriodsSpanned, NoSignalWithoutASpanOrWithABoundThatIsNoDate) {
  data::ColumnProfile undated;
  undated.name = "date";

  EXPECT_EQ(periods_spanned(undated, "year", {}, 10), std::nullopt);
  EXPECT_EQ(periods_spanned(dates("2023-01-01", "2024-12-31"), "year", {filter(">=", "soon")}, 10),
            std::nullopt);
  EXPECT_EQ(periods_spanned(dates("2023-01-01", "2024-12-31"), "fortnight", {}, 10), std::nullopt);
}

TEST(PeriodBefore, StartsThePeriodBeforeTheBoundWhenTheDataReachesIt) {
  const data::ColumnProfile two_years = dates("2023-01-01", "2024-12-31");
  const ParamValue from_2024{{ParamScalar(std::string("2024-01-01"))}, false};

  EXPECT_EQ(period_before(two_years, "year", from_2024), "2023-01-01");
  EXPECT_EQ(period_before(two_years, "month", from_2024), "2023-12-01");
  EXPECT_EQ(period_before(two_years, "week", from_2024), "2023-12-25") << "weeks start on Monday";
  EXPECT_EQ(period_before(dates("2024-01-01", "2024-12-31"), "year", from_2024), std::nullopt)
      << "no earlier data to compare with";
}

}  // namespace
}  // namespace planfirst::autoviz
