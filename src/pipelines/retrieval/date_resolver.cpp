#include "pipelines/retrieval/date_resolver.hpp"

#include <algorithm>

#include "core/ascii_case.hpp"
#include "core/calendar.hpp"
#include "core/date_parse.hpp"
#include "pipelines/retrieval/word_match.hpp"

namespace planfirst::retrieval {
namespace {

using std::chrono::days;
using std::chrono::sys_days;
using std::chrono::year_month_day;

using core::DayRange;

// A relative phrase as whole local days; nullopt when it is none the resolver knows.
std::optional<DayRange> relative_days(const Words& words, sys_days today) {
  const std::size_t n = words.size();
  if (n == 1 && words[0] == "today") return DayRange{today, today + days(1)};
  if (n == 1 && words[0] == "yesterday") return DayRange{today - days(1), today};
  if (n == 2 && (words[0] == "this" || words[0] == "last" || words[0] == "past")) {
    const std::optional<core::CalendarUnit> unit = core::calendar_unit(words[1]);
    if (unit && *unit != core::CalendarUnit::kDay)
      return core::calendar_period(*unit, today, words[0] == "this" ? 0 : -1);
  }
  if (n == 3 && (words[0] == "last" || words[0] == "past") && is_number(words[1]) && words[1].size() <= 4) {
    const int count = std::stoi(words[1]);
    const std::string& unit = words[2];
    if (unit == "days" || unit == "day") return DayRange{today - days(count), today + days(1)};
    if (unit == "weeks" || unit == "week") return DayRange{today - days(7 * count), today + days(1)};
    if (unit == "months" || unit == "month") {
      return DayRange{sys_days(year_month_day{today} - std::chrono::months(count)), today + days(1)};
    }
  }
  return std::nullopt;
}

}  // namespace

core::Result<sources::TimeRange> DateResolver::resolve(std::string_view value) const {
  const sys_days today = zone_.local_day(now_);
  const Words words = split_phrase(core::ascii_lower(value));
  std::optional<DayRange> range = relative_days(words, today);
  if (!range) {
    core::Result<core::ParsedDate> parsed = core::parse_date(value);
    if (!parsed)
      return core::invalid_argument("cannot resolve the date \"" + std::string(value) + "\"", "dates");
    const sys_days day = parsed->day();
    if (parsed->format == core::DateFormat::kYearMonth) {
      range = core::calendar_period(core::CalendarUnit::kMonth, day);
    } else {
      range = DayRange{day, day + days(1)};
    }
  }
  return sources::TimeRange{zone_.midnight(range->since), zone_.midnight(range->until)};
}

core::Result<std::optional<sources::TimeRange>> DateResolver::resolve_all(
    const std::vector<std::string>& values) const {
  std::optional<sources::TimeRange> span;
  for (const std::string& value : values) {
    core::Result<sources::TimeRange> range = resolve(value);
    if (!range) return range.error();
    if (!span) {
      span = *range;
    } else {
      span->since = std::min(span->since, range->since);
      span->until = std::max(span->until, range->until);
    }
  }
  return span;
}

}  // namespace planfirst::retrieval
