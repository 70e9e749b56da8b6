#include "core/date_parse.hpp"

#include <date/date.h>

#include <array>
#include <sstream>
#include <string>

#include "core/trim.hpp"

namespace planfirst::core {
namespace {

struct Spelling {
  DateFormat format;
  const char* pattern;  // date::parse format
  bool has_time;
};

// Tried in order; the first that reads the whole text wins.
constexpr std::array<Spelling, 11> kSpellings{{
    {DateFormat::kIsoDate, "%Y-%m-%d", false},
    {DateFormat::kIsoDateTime, "%Y-%m-%dT%H:%M:%S", true},
    {DateFormat::kSpacedDateTime, "%Y-%m-%d %H:%M:%S", true},
    {DateFormat::kSlashedYmd, "%Y/%m/%d", false},
    {DateFormat::kUsSlashed, "%m/%d/%Y", false},
    {DateFormat::kDottedDmy, "%d.%m.%Y", false},
    {DateFormat::kMonthDayYear, "%b %d, %Y", false},
    {DateFormat::kMonthDayYear, "%b %d %Y", false},
    {DateFormat::kDayMonthYear, "%d %b %Y", false},
    {DateFormat::kDayMonthYear, "%d %b, %Y", false},
    {DateFormat::kYearMonth, "%Y-%m", false},
}};

template <typename T>
bool read_whole(std::string_view text, const char* pattern, T& out) {
  std::istringstream in{std::string(text)};
  in >> date::parse(pattern, out);
  return !in.fail() && in.peek() == std::char_traits<char>::eof();
}

bool read(std::string_view text, const Spelling& spelling, std::chrono::sys_seconds& out) {
  if (spelling.format == DateFormat::kYearMonth) {
    date::year_month month;
    if (!read_whole(text, spelling.pattern, month) || !month.ok()) return false;
    out = date::sys_days(month / 1);
    return true;
  }
  if (spelling.has_time) return read_whole(text, spelling.pattern, out);
  date::sys_days day;
  if (!read_whole(text, spelling.pattern, day)) return false;
  out = day;
  return true;
}

// Rejects two-digit years ("15.01.24" would read as the year 24).
bool has_four_digit_year(std::chrono::sys_seconds time) {
  const date::year_month_day ymd{std::chrono::floor<date::days>(time)};
  return ymd.year() >= date::year{1000} && ymd.year() <= date::year{9999};
}

}  // namespace

std::string_view to_string(DateFormat format) {
  switch (format) {
    case DateFormat::kIsoDate: return "iso_date";
    case DateFormat::kIsoDateTime: return "iso_date_time";
    case DateFormat::kSpacedDateTime: return "spaced_date_time";
    case DateFormat::kSlashedYmd: return "slashed_ymd";
    case DateFormat::kUsSlashed: return "us_slashed";
    case DateFormat::kDottedDmy: return "dotted_dmy";
    case DateFormat::kMonthDayYear: return "month_day_year";
    case DateFormat::kDayMonthYear: return "day_month_year";
    case DateFormat::kYearMonth: return "year_month";
  }
  return "unknown";
}

Result<ParsedDate> parse_date(std::string_view text) {
  const std::string_view trimmed = trim(text);
  for (const Spelling& spelling : kSpellings) {
    std::chrono::sys_seconds time;
    if (read(trimmed, spelling, time) && has_four_digit_year(time)) return ParsedDate{time, spelling.format};
  }
  std::string message = "'";  // built by append: GCC 12's -Wrestrict misfires on "'" + std::string at -O3
  message.append(text).append("' is not a valid date in a known format");
  return invalid_argument(std::move(message));
}

}  // namespace planfirst::core
