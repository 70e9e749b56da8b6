#include "core/calendar.hpp"

#include <gtest/gtest.h>

#include "core/timestamp.hpp"

namespace planfirst::core {
namespace {

using namespace std::chrono;

std::string shown(DayRange range) {
  return format_utc_day(sys_seconds(range.since)) + ".." + format_utc_day(sys_seconds(range.until));
}

TEST(Calendar, APeriodHoldsTheDayOrIsShiftedFromIt) {
  const sys_days thursday = sys_days(2024y / August / 15);

  EXPECT_EQ(shown(calendar_period(CalendarUnit::kWeek, thursday)), "2024-08-12..2024-08-19");
  EXPECT_EQ(shown(calendar_period(CalendarUnit::kMonth, thursday, -1)), "2024-07-01..2024-08-01");
  EXPECT_EQ(shown(calendar_period(CalendarUnit::kQuarter, thursday)), "2024-07-01..2024-10-01");
  EXPECT_EQ(shown(calendar_period(CalendarUnit::kYear, thursday, -1)), "2023-01-01..2024-01-01");
  EXPECT_EQ(shown(calendar_period(CalendarUnit::kDay, thursday)), "2024-08-15..2024-08-16");
  EXPECT_EQ(shown(calendar_period(CalendarUnit::kWeek, sys_days(2024y / January / 3), -1)),
            "2023-12-25..2024-01-01");
}

TEST(Calendar, MonthsBeforeKeepTheDayOrTheMonthsLast) {
  EXPECT_EQ(format_utc_day(sys_seconds(months_before(sys_days(2024y / March / 31), 1))), "2024-02-29");
  EXPECT_EQ(format_utc_day(sys_seconds(months_before(sys_days(2024y / August / 15), 14))), "2023-06-15");
  EXPECT_EQ(calendar_unit("quarter"), CalendarUnit::kQuarter);
  EXPECT_EQ(calendar_unit("fortnight"), std::nullopt);
}

}  // namespace
}  // namespace planfirst::core
