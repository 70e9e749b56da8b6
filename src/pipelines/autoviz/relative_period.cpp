#include "pipelines/autoviz/relative_period.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <chrono>

namespace planfirst::autoviz {
namespace {

namespace chrono = std::chrono;

constexpr int kMaxCount = 1000;  // "the last 1000 days"; more is no period a question means

// The unit whose phrase starts at `at`, with the phrase's length; {"", 0} when none does.
std::pair<std::string, std::size_t> unit_at(const Stems& stems, std::size_t at, const LabelledPhrases& units) {
  for (const auto& [unit, phrases] : units) {
    if (std::size_t n = phrase_starting_at(stems, at, phrases)) return {unit, n};
  }
  return {"", 0};
}

// A count at `at`: digits, or a number word (its index in `words`).
std::optional<int> count_at(const Stems& stems, std::size_t at, const Stems& words) {
  if (at >= stems.size()) return std::nullopt;
  const std::string& word = stems[at];
  int value = 0;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (error == std::errc() && end == word.data() + word.size()) {
    if (value > 0 && value <= kMaxCount) return value;
    return std::nullopt;
  }
  auto found = std::find(words.begin(), words.end(), word);
  if (found == words.end() || found == words.begin()) return std::nullopt;
  return static_cast<int>(found - words.begin());
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
      return RelativePeriod{at, at + word + n + to_date, to_date > 0 ? PeriodKind::kToDate : PeriodKind::kCurrent, unit, 1};
    }
  }
  if (std::size_t word = phrase_starting_at(stems, at, p.trailing)) {
    if (std::optional<int> count = count_at(stems, at + word, p.number_words)) {
      if (auto [unit, n] = unit_at(stems, at + word + 1, p.units); n > 0) {
        return RelativePeriod{at, at + word + 1 + n, PeriodKind::kTrailing, unit, *count};
      }
    }
  }
  if (std::size_t word = phrase_starting_at(stems, at, p.previous)) {
    if (auto [unit, n] = unit_at(stems, at + word, p.units); n > 0) {
      const bool the = at > 0 && stems[at - 1] == "the" && stems[at] == "last";  // "in the last month": up to the latest date
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

std::optional<chrono::year_month_day> date_of(std::string_view text) {
  int y = 0;
  unsigned m = 0, d = 0;
  if (text.size() < 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  const bool parsed = std::from_chars(text.data(), text.data() + 4, y).ptr == text.data() + 4 &&
                      std::from_chars(text.data() + 5, text.data() + 7, m).ptr == text.data() + 7 &&
                      std::from_chars(text.data() + 8, text.data() + 10, d).ptr == text.data() + 10;
  const chrono::year_month_day date{chrono::year(y), chrono::month(m), chrono::day(d)};
  if (!parsed || !date.ok()) return std::nullopt;
  return date;
}

std::string iso(chrono::sys_days day) {
  const chrono::year_month_day date(day);
  return fmt::format("{:04}-{:02}-{:02}", static_cast<int>(date.year()), static_cast<unsigned>(date.month()),
                     static_cast<unsigned>(date.day()));
}

// `first` moved by `months` calendar months (to the first of the month).
chrono::sys_days months_from(chrono::year_month first, int months) {
  const chrono::year_month moved = first + chrono::months(months);
  return chrono::sys_days(chrono::year_month_day(moved.year(), moved.month(), chrono::day(1)));
}

// `day` moved back `months` months, its day of month kept or, when that month is shorter, its last.
chrono::sys_days months_before(chrono::year_month_day day, int months) {
  const chrono::year_month target = chrono::year_month(day.year(), day.month()) - chrono::months(months);
  const chrono::day last = chrono::year_month_day_last(target.year(), chrono::month_day_last(target.month())).day();
  return chrono::sys_days(chrono::year_month_day(target.year(), target.month(), std::min(day.day(), last)));
}

// The calendar `unit` holding `day`: its first day and the first day after it.
std::pair<chrono::sys_days, chrono::sys_days> calendar_period(const std::string& unit, chrono::year_month_day day, int shift) {
  const chrono::year_month month(day.year(), day.month());
  if (unit == "year") {
    const chrono::year_month january(day.year(), chrono::January);
    return {months_from(january, 12 * shift), months_from(january, 12 * (shift + 1))};
  }
  if (unit == "quarter") {
    const unsigned first = (static_cast<unsigned>(day.month()) - 1) / 3 * 3 + 1;
    const chrono::year_month start(day.year(), chrono::month(first));
    return {months_from(start, 3 * shift), months_from(start, 3 * (shift + 1))};
  }
  if (unit == "month") return {months_from(month, shift), months_from(month, shift + 1)};
  const chrono::sys_days days(day);
  if (unit == "week") {
    const chrono::sys_days monday = days - chrono::days(chrono::weekday(days).iso_encoding() - 1);
    return {monday + chrono::days(7 * shift), monday + chrono::days(7 * (shift + 1))};
  }
  return {days + chrono::days(shift), days + chrono::days(shift + 1)};  // day
}

}  // namespace

std::vector<RelativePeriod> find_relative_periods(const Stems& stems, const RelativePeriodPhrases& phrases) {
  std::vector<RelativePeriod> periods;
  for (std::size_t at = 0; at < stems.size(); ++at) {
    std::optional<RelativePeriod> period = period_at(stems, at, phrases);
    if (!period) continue;
    const bool of_year = period->end + 1 < stems.size() && stems[period->end] == "of" && stems[period->end + 1].size() == 4 &&
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
  const std::optional<chrono::year_month_day> day = date_of(latest);
  if (!day) return std::nullopt;
  const chrono::sys_days after = chrono::sys_days(*day) + chrono::days(1);
  std::pair<chrono::sys_days, chrono::sys_days> range{after, after};
  const int n = std::clamp(period.count, 1, kMaxCount);
  switch (period.kind) {
    case PeriodKind::kCurrent:
      range = calendar_period(period.unit, *day, 0);
      break;
    case PeriodKind::kPrevious:
      range = calendar_period(period.unit, *day, -1);
      break;
    case PeriodKind::kToDate:
      range.first = calendar_period(period.unit, *day, 0).first;
      break;
    case PeriodKind::kTrailing:
      if (period.unit == "day") range.first = after - chrono::days(n);
      if (period.unit == "week") range.first = after - chrono::days(7 * n);
      if (period.unit == "month") range.first = months_before(*day, n) + chrono::days(1);
      if (period.unit == "quarter") range.first = months_before(*day, 3 * n) + chrono::days(1);
      if (period.unit == "year") range.first = months_before(*day, 12 * n) + chrono::days(1);
      break;
  }
  if (chrono::year_month_day(range.first).year() < chrono::year(1)) return std::nullopt;
  return DateRange{iso(range.first), iso(range.second)};
}

}  // namespace planfirst::autoviz
