#include "pipelines/autoviz/understand/relative_period.hpp"

#include <algorithm>
#include <chrono>

#include "core/calendar.hpp"
#include "core/date_parse.hpp"
#include "core/timestamp.hpp"

namespace planfirst::autoviz {
namespace {

namespace chrono = std::chrono;

constexpr int kMaxCount = 1000;  // "the last 1000 days"; more is no period a question means

// The unit whose phrase starts at `at`, with the phrase's length; {"", 0} when none does.
std::pair<std::string, std::size_t> unit_at(const Stems& stems, std::size_t at,
                                            const LabelledPhrases& units) {
  for (const auto& [unit, phrases] : units) {
    if (std::size_t n = phrase_starting_at(stems, at, phrases)) return {unit, n};
  }
  return {"", 0};
}

// A count of periods at `at`, 1 to kMaxCount.
std::optional<int> period_count_at(const Stems& stems, std::size_t at, const Stems& number_words) {
  const std::optional<std::int64_t> count = count_at(stems, at, number_words);
  if (!count || *count > kMaxCount) return std::nullopt;
  return static_cast<int>(*count);
}

std::optional<RelativePeriod> period_at(const Stems& stems, std::size_t at, const RelativePeriodPhrases& p) {
  if (auto [unit, n] = unit_at(stems, at, p.units); n > 0) {  // "year to date"
    if (std::size_t to_date = phrase_starting_at(stems, at + n, p.to_date)) {
      return RelativePeriod{at, at + n + to_date, PeriodKind::kToDate, unit, 1};
    }
  }
  if (std::size_t word = phrase_starting_at(stems, at, p.current)) {
    if (auto [unit, n] = unit_at(stems, at + word, p.units); n > 0) {
      const std::size_t to_date = phrase_starting_at(stems, at + word + n, p.to_date);  // "this year to date"
      return RelativePeriod{at, at + word + n + to_date,
                            to_date > 0 ? PeriodKind::kToDate : PeriodKind::kCurrent, unit, 1};
    }
  }
  if (std::size_t word = phrase_starting_at(stems, at, p.trailing)) {
    if (std::optional<int> count = period_count_at(stems, at + word, p.number_words)) {
      if (auto [unit, n] = unit_at(stems, at + word + 1, p.units); n > 0) {
        return RelativePeriod{at, at + word + 1 + n, PeriodKind::kTrailing, unit, *count};
      }
    }
  }
  if (std::size_t word = phrase_starting_at(stems, at, p.previous)) {
    if (auto [unit, n] = unit_at(stems, at + word, p.units); n > 0) {
      const bool the = at > 0 && stems[at - 1] == "the" &&
                       stems[at] == "last";  // "in the last month": up to the latest date
      return RelativePeriod{at, at + word + n, the ? PeriodKind::kTrailing : PeriodKind::kPrevious, unit, 1};
    }
  }
  if (std::size_t word = phrase_starting_at(stems, at, p.trailing)) {  // "the past year"
    if (auto [unit, n] = unit_at(stems, at + word, p.units); n > 0) {
      return RelativePeriod{at, at + word + n, PeriodKind::kTrailing, unit, 1};
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<RelativePeriod> find_relative_periods(const Stems& stems, const RelativePeriodPhrases& phrases) {
  std::vector<RelativePeriod> periods;
  for (std::size_t at = 0; at < stems.size(); ++at) {
    std::optional<RelativePeriod> period = period_at(stems, at, phrases);
    if (!period) continue;
    const bool of_year =
        period->end + 1 < stems.size() && stems[period->end] == "of" && stems[period->end + 1].size() == 4 &&
        std::all_of(stems[period->end + 1].begin(), stems[period->end + 1].end(),
                    [](char c) { return c >= '0' && c <= '9'; });  // "the last quarter of 2024"
    period->part = of_year || phrase_starting_at(stems, period->end, phrases.part_of) > 0;
    period->qualified = phrase_starting_at(stems, period->end, phrases.not_before) > 0;
    at = period->end - 1;
    periods.push_back(std::move(*period));
  }
  return periods;
}

std::optional<DateRange> period_dates(const RelativePeriod& period, std::string_view latest) {
  const std::optional<core::CalendarUnit> unit = core::calendar_unit(period.unit);
  core::Result<core::ParsedDate> parsed = core::parse_date(latest.substr(0, 10));  // a timestamp's day
  if (!unit || !parsed) return std::nullopt;
  const chrono::sys_days day = parsed->day();
  const chrono::sys_days after = day + chrono::days(1);
  core::DayRange range{after, after};
  const int n = std::clamp(period.count, 1, kMaxCount);
  switch (period.kind) {
    case PeriodKind::kCurrent: range = core::calendar_period(*unit, day); break;
    case PeriodKind::kPrevious: range = core::calendar_period(*unit, day, -1); break;
    case PeriodKind::kToDate: range.since = core::calendar_period(*unit, day).since; break;
    case PeriodKind::kTrailing:
      if (*unit == core::CalendarUnit::kDay) range.since = after - chrono::days(n);
      if (*unit == core::CalendarUnit::kWeek) range.since = after - chrono::days(7 * n);
      if (*unit == core::CalendarUnit::kMonth) range.since = core::months_before(day, n) + chrono::days(1);
      if (*unit == core::CalendarUnit::kQuarter)
        range.since = core::months_before(day, 3 * n) + chrono::days(1);
      if (*unit == core::CalendarUnit::kYear)
        range.since = core::months_before(day, 12 * n) + chrono::days(1);
      break;
  }
  if (chrono::year_month_day(range.since).year() < chrono::year(1)) return std::nullopt;
  return DateRange{core::format_utc_day(chrono::sys_seconds(range.since)),
                   core::format_utc_day(chrono::sys_seconds(range.until))};
}

}  // namespace planfirst::autoviz
