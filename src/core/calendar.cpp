#include "core/calendar.hpp"

#include <algorithm>

namespace planfirst::core {
namespace {

namespace chrono = std::chrono;

// The first day of the month `months` calendar months after `first`.
chrono::sys_days first_of_month(chrono::year_month first, int months) {
  const chrono::year_month moved = first + chrono::months(months);
  return chrono::sys_days(moved.year() / moved.month() / 1);
}

}  // namespace

std::optional<CalendarUnit> calendar_unit(std::string_view name) {
  if (name == "day") return CalendarUnit::kDay;
  if (name == "week") return CalendarUnit::kWeek;
  if (name == "month") return CalendarUnit::kMonth;
  if (name == "quarter") return CalendarUnit::kQuarter;
  if (name == "year") return CalendarUnit::kYear;
  return std::nullopt;
}

DayRange calendar_period(CalendarUnit unit, chrono::sys_days day, int shift) {
  const chrono::year_month_day date(day);
  switch (unit) {
    case CalendarUnit::kYear: {
      const chrono::year_month january(date.year(), chrono::January);
      return {first_of_month(january, 12 * shift), first_of_month(january, 12 * (shift + 1))};
    }
    case CalendarUnit::kQuarter: {
      const unsigned first = (static_cast<unsigned>(date.month()) - 1) / 3 * 3 + 1;
      const chrono::year_month start(date.year(), chrono::month(first));
      return {first_of_month(start, 3 * shift), first_of_month(start, 3 * (shift + 1))};
    }
    case CalendarUnit::kMonth: {
      const chrono::year_month month(date.year(), date.month());
      return {first_of_month(month, shift), first_of_month(month, shift + 1)};
    }
    case CalendarUnit::kWeek: {
      const chrono::sys_days monday = day - chrono::days(chrono::weekday(day).iso_encoding() - 1);
      return {monday + chrono::days(7 * shift), monday + chrono::days(7 * (shift + 1))};
    }
    case CalendarUnit::kDay: break;
  }
  return {day + chrono::days(shift), day + chrono::days(shift + 1)};
}

chrono::sys_days months_before(chrono::sys_days day, int months) {
  const chrono::year_month_day date(day);
  const chrono::year_month target = chrono::year_month(date.year(), date.month()) - chrono::months(months);
  const chrono::day last =
      chrono::year_month_day_last(target.year(), chrono::month_day_last(target.month())).day();
  return chrono::sys_days(chrono::year_month_day(target.year(), target.month(), std::min(date.day(), last)));
}

}  // namespace planfirst::core
