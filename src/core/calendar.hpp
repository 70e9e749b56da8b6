// Calendar periods over whole days: the day, week (Monday first), month, quarter or year holding a
// day, or one shifted from it, as [since, until). Pure functions.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

namespace planfirst::core {

enum class CalendarUnit { kDay, kWeek, kMonth, kQuarter, kYear };

// "day", "week", "month", "quarter", "year"; nullopt for any other name.
std::optional<CalendarUnit> calendar_unit(std::string_view name);

struct DayRange {
  std::chrono::sys_days since;
  std::chrono::sys_days until;  // the first day after
};

// The `unit` holding `day`, moved by `shift` units (-1: the one before it).
DayRange calendar_period(CalendarUnit unit, std::chrono::sys_days day, int shift = 0);

// `day` moved back `months` calendar months, its day of month kept or, when that month is
// shorter, the month's last day (2024-03-31 less one month is 2024-02-29).
std::chrono::sys_days months_before(std::chrono::sys_days day, int months);

}  // namespace planfirst::core
