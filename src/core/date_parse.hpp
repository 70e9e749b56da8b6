// parse_date reads the common date and date-time spellings and says which matched. Times are UTC; a
// day alone is midnight, "2024-01" the first of the month. Years have four digits; calendar-invalid
// dates (2024-02-30) are refused. A pure function.
#pragma once

#include <chrono>
#include <string_view>

#include "core/result.hpp"

namespace planfirst::core {

enum class DateFormat {
  kIsoDate,         // 2024-01-15
  kIsoDateTime,     // 2024-01-15T10:20:30
  kSpacedDateTime,  // 2024-01-15 10:20:30
  kSlashedYmd,      // 2024/01/15
  kUsSlashed,       // 01/15/2024 (month first; day-first slashes are not read)
  kDottedDmy,       // 15.01.2024
  kMonthDayYear,    // Jan 15, 2024 / January 15 2024
  kDayMonthYear,    // 15 Jan 2024 / 15 January 2024
  kYearMonth,       // 2024-01
};

std::string_view to_string(DateFormat format);  // "iso_date", "iso_date_time", ...

struct ParsedDate {
  std::chrono::sys_seconds time;
  DateFormat format = DateFormat::kIsoDate;
  std::chrono::sys_days day() const { return std::chrono::floor<std::chrono::days>(time); }
};

// Leading and trailing spaces are ignored; anything else unread is kInvalidArgument naming `text`.
Result<ParsedDate> parse_date(std::string_view text);

}  // namespace planfirst::core
