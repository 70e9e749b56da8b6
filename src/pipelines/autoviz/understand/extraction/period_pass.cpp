#include "pipelines/autoviz/understand/extraction/period_pass.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/ascii_case.hpp"
#include "core/calendar.hpp"
#include "core/date_parse.hpp"
#include "core/join.hpp"
#include "core/similarity.hpp"
#include "core/stemmer.hpp"
#include "core/timestamp.hpp"
#include "core/tokenizer.hpp"
#include "core/wordnet_synonyms.hpp"
#include "pipelines/autoviz/group_filter.hpp"
#include "pipelines/autoviz/row_count.hpp"
#include "pipelines/autoviz/understand/abbreviated_value.hpp"
#include "pipelines/autoviz/understand/extraction/column_pass.hpp"
#include "pipelines/autoviz/understand/extraction/comparison_pass.hpp"
#include "pipelines/autoviz/understand/extraction/findings.hpp"
#include "pipelines/autoviz/understand/extraction/label_pass.hpp"
#include "pipelines/autoviz/understand/extraction/numbers.hpp"
#include "pipelines/autoviz/understand/extraction/question.hpp"
#include "pipelines/autoviz/understand/extraction/ranking_pass.hpp"
#include "pipelines/autoviz/understand/extraction/refusal_pass.hpp"
#include "pipelines/autoviz/understand/extraction/role_pass.hpp"
#include "pipelines/autoviz/understand/extraction/token_claims.hpp"
#include "pipelines/autoviz/understand/extraction/value_pass.hpp"
#include "pipelines/autoviz/understand/phrase_match.hpp"
#include "pipelines/autoviz/understand/quoted_value.hpp"
#include "pipelines/autoviz/understand/relative_period.hpp"
#include "pipelines/autoviz/understand/rule_requirement_extractor.hpp"
#include "pipelines/autoviz/understand/sort_clause.hpp"
#include "pipelines/autoviz/understand/text_filter.hpp"

namespace planfirst::autoviz::extraction {

namespace {

// The calendar period token `at` names without its year: a quarter ("q4") or a month ("march",
// "mar"; `months` in calendar order), with its first month.
std::optional<std::pair<core::CalendarUnit, unsigned>> period_word_at(const Question& q, std::size_t at,
                                                                      const LabelledPhrases& months) {
  const std::string& token = q.tokens[at];
  if (token.size() == 2 && token[0] == 'q' && token[1] >= '1' && token[1] <= '4')
    return std::pair{core::CalendarUnit::kQuarter, 3 * static_cast<unsigned>(token[1] - '0') - 2};
  for (std::size_t month = 0; month < months.size(); ++month) {
    if (phrase_starting_at(q.stems, at, months[month].second) == 1)
      return std::pair{core::CalendarUnit::kMonth, static_cast<unsigned>(month + 1)};
  }
  return std::nullopt;
}

// The filters keeping the days of `days` on date column `column` for `op` ("=": those days; ">":
// after them; ">=": from their first; "<": before it; "<=": up to their last).
std::vector<Constraint> day_filters(const std::string& column, const std::string& op,
                                    const core::DayRange& days) {
  const auto filter = [&](const std::string& how, std::chrono::sys_days day) {
    return Constraint{"filter", column,
                      how,      ParamValue{{core::format_utc_day(std::chrono::sys_seconds(day))}, false},
                      "",       0};
  };
  if (op == "=") return {filter(">=", days.since), filter("<", days.until)};
  if (op == ">") return {filter(">=", days.until)};
  if (op == ">=") return {filter(">=", days.since)};
  if (op == "<") return {filter("<", days.since)};
  return {filter("<", days.until)};  // "<="
}

// How the period at tokens [first, last) is kept: the comparison before it ("after June 2024": ">",
// "since 2000": ">=") or after it ("2014 or later": ">="), else "="; the first of a range ("between
// March and June 2024", "from 2010 to 2015") ">=", and the period starting at `range_end` (the
// token after its joiner, which this call then sets) "<=". `begin` and `end` span the tokens used.
struct PeriodComparison {
  std::string op = "=";
  std::size_t begin = 0, end = 0;
};

// The first period of a range and the filters it added, so a range written latest first ("between
// 2015 and 2010", "between June 2024 and March 2024") is turned around when its second period closes
// it. `Period`: a year, or a core::DayRange.
template <typename Period>
struct RangeStart {
  std::vector<Constraint> filters;
  Period period;
};

bool starts_before(std::int64_t year, std::int64_t other) {
  return year < other;
}

bool starts_before(const core::DayRange& days, const core::DayRange& other) {
  return days.since < other.since;
}

// The filters of `period` compared with `op` (`filters(op, period)`), when it `closes` the range
// `opened` began or `opens` one. A period closing a range that began after it keeps the rows from it
// to the range's first period: the first period's filters leave `constraints` for ">=" this period
// and "<=" the first. Updates `opened`.
template <typename Period, typename Filters>
std::vector<Constraint> range_filters(const std::string& op, const Period& period, bool closes, bool opens,
                                      std::optional<RangeStart<Period>>& opened,
                                      std::vector<Constraint>& constraints, const Filters& filters) {
  std::vector<Constraint> added;
  if (closes && opened && starts_before(period, opened->period)) {
    for (const Constraint& filter : opened->filters) std::erase(constraints, filter);
    added = filters(">=", period);
    for (Constraint& filter : filters("<=", opened->period)) added.push_back(std::move(filter));
  } else {
    added = filters(op, period);
  }
  opened = opens ? std::optional<RangeStart<Period>>(RangeStart<Period>{added, period}) : std::nullopt;
  return added;
}

PeriodComparison period_comparison(const Question& q, std::size_t first, std::size_t last,
                                   const PeriodWords& words, std::optional<std::size_t>& range_end) {
  const bool range_closes = range_end == first;
  range_end.reset();
  if (range_closes) return {"<=", first, last};
  if (const std::size_t range = phrase_ending_at(q.stems, first, words.ranges);
      range > 0 && phrase_starting_at(q.stems, last, words.joiners) == 1 && last + 1 < q.stems.size()) {
    range_end = last + 1;
    return {">=", first - range, last + 1};
  }
  const std::size_t filler = phrase_ending_at(q.stems, first, words.fillers);  // "after the year 2000"
  for (const auto& [op, phrases] : words.before) {
    if (const std::size_t n = phrase_ending_at(q.stems, first - filler, phrases); n > 0)
      return {op, first - filler - n, last};
  }
  for (const auto& [op, phrases] : words.after) {
    if (const std::size_t n = phrase_starting_at(q.stems, last, phrases); n > 0) return {op, first, last + n};
  }
  return {"=", first, last};
}

// The days tokens from `at` name, with the tokens they span: a quarter or a month with its
// four-digit year before or after it ("Q4 2024", "2024 Q4", "March 2024"), or a date ("2024-03-01",
// tokenized as 2024, 03, 01).
struct NamedPeriod {
  core::DayRange days;
  std::size_t begin = 0, end = 0;
};

std::optional<NamedPeriod> named_period_at(const Question& q, std::size_t at, const LabelledPhrases& months) {
  const auto year_at_token = [&](std::size_t i) {  // a four-digit year
    return i < q.tokens.size() && q.tokens[i].size() == 4 ? number_after(q, i) : std::nullopt;
  };
  if (date_after(q, at)) {
    const std::chrono::year_month_day date{
        std::chrono::year(static_cast<int>(*number_after(q, at))),
        std::chrono::month(static_cast<unsigned>(*number_after(q, at + 1))),
        std::chrono::day(static_cast<unsigned>(*number_after(q, at + 2)))};
    if (!date.ok()) return std::nullopt;
    return NamedPeriod{core::calendar_period(core::CalendarUnit::kDay, std::chrono::sys_days(date)), at,
                       at + 3};
  }
  const std::optional<std::pair<core::CalendarUnit, unsigned>> period = period_word_at(q, at, months);
  if (!period) return std::nullopt;
  std::size_t year_at = at + 1;  // "Q4 2024", else "2024 Q4"
  std::optional<std::int64_t> year = year_at_token(year_at);
  if (!year && at > 0) year = year_at_token(year_at = at - 1);
  if (!year) return std::nullopt;
  const core::DayRange days =
      core::calendar_period(period->first, std::chrono::sys_days(std::chrono::year(static_cast<int>(*year)) /
                                                                 std::chrono::month(period->second) / 1));
  return NamedPeriod{days, std::min(at, year_at), std::max(at, year_at) + 1};
}

// How a month or quarter named without its year reads in a question ("March", "Q2").
std::string period_label(std::pair<core::CalendarUnit, unsigned> period, const LabelledPhrases& months) {
  if (period.first == core::CalendarUnit::kQuarter) return "Q" + std::to_string((period.second + 2) / 3);
  std::string name = months[period.second - 1].first;
  if (!name.empty()) name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
  return name;
}

// The days of the month or quarter `period`, named without its year at token `at`, in the one year
// `column`'s dates reach it ("in March" over dates of 2024 alone: March 2024). Refused when the
// dates reach it in several years (which one is meant?) or in none.
core::Result<NamedPeriod> period_in_data(const data::ColumnProfile& column, std::size_t at,
                                         std::pair<core::CalendarUnit, unsigned> period,
                                         const LabelledPhrases& months) {
  const std::string named = period_label(period, months);
  const std::string asked = "the question names " + named + " without a year, and " + column.name;
  core::Result<core::ParsedDate> first = core::parse_date(column.span ? column.span->first : "");
  core::Result<core::ParsedDate> last = core::parse_date(column.span ? column.span->last : "");
  if (!first || !last) return core::invalid_argument(asked + " holds no dates to find it in", column.name);
  const std::chrono::sys_days first_day = first->day(), last_day = last->day();
  std::vector<std::string> years;
  std::optional<core::DayRange> found;
  for (std::chrono::year year = std::chrono::year_month_day(first_day).year();
       year <= std::chrono::year_month_day(last_day).year(); ++year) {
    const core::DayRange days = core::calendar_period(
        period.first, std::chrono::sys_days(year / std::chrono::month(period.second) / 1));
    if (days.since > last_day || days.until <= first_day) continue;
    years.push_back(std::to_string(static_cast<int>(year)));
    found = days;
  }
  if (years.empty()) {
    return core::invalid_argument(
        asked + " runs from " + column.span->first + " to " + column.span->last + ", which holds no " + named,
        column.name);
  }
  if (years.size() > 1) {
    return core::invalid_argument(asked + " holds " + named + " in " + core::join(years) +
                                      ": say which, as in '" + named + " " + years.back() + "'",
                                  column.name);
  }
  return NamedPeriod{*found, at, at + 1};
}

// The refusal of a date no calendar has ("2024-02-30").
core::Error no_date(const std::string& date) {
  return core::invalid_argument("the question names the date " + date + ", which no calendar has", date);
}

// Filters for the periods named with their year (named_period_at) that no comparison of a named
// column took (`compared`): the dates of the first date column that spans that year, else of the
// first date column (a period the data does not reach keeps no row, and the run says so),
// [first day, first day of the next period), or those a comparison states ("since July 2024",
// "after 2024-03-01", "between March 2024 and June 2024"). Returns its tokens and its comparison's;
// kInvalidArgument for a date no calendar has ("2024-02-30").
core::Result<std::set<std::size_t>> ground_calendar_periods(
    const Question& q, const data::SchemaProfile& profile, const LabelledPhrases& months,
    const PeriodWords& words, const Stems& period_links, const std::set<std::size_t>& compared,
    Requirements& requirements) {
  std::vector<const data::ColumnProfile*> date_columns;
  for (const data::ColumnProfile& column : profile.columns) {
    if (data::is_temporal(column.type)) date_columns.push_back(&column);
  }
  std::set<std::size_t> used;
  std::optional<std::size_t> range_end;  // where the last period of a range starts
  std::optional<RangeStart<core::DayRange>> opened;
  const auto taken = [&](std::size_t token) { return used.count(token) > 0 || compared.count(token) > 0; };
  const data::ColumnProfile* dates = column_of_year(date_columns, std::nullopt);  // of a period with no year
  for (std::size_t at = 0; at < q.tokens.size(); ++at) {
    std::optional<NamedPeriod> period = named_period_at(q, at, months);
    if (!period) {
      if (const std::optional<std::string> date = date_after(q, at)) return no_date(*date);
      const auto word = period_word_at(q, at, months);
      const bool linked = at > 0 && listed(period_links, q.stems[at - 1]);
      if (!word || !(linked || range_end == at) || taken(at) || dates == nullptr) continue;
      core::Result<NamedPeriod> in_data =
          period_in_data(*dates, at, *word, months);  // "in March": of which year?
      if (!in_data) return in_data.error();
      period = *in_data;
    }
    bool read = false;  // a plain loop: clang 14 cannot iterate libstdc++ 12's views::iota
    for (std::size_t token = period->begin; token < period->end && !read; ++token) read = taken(token);
    if (read) continue;
    const int year = static_cast<int>(std::chrono::year_month_day(period->days.since).year());
    const data::ColumnProfile* spans = column_of_year(date_columns, year);
    if (spans == nullptr) continue;
    const bool closes = range_end == period->begin;
    const PeriodComparison comparison = period_comparison(q, period->begin, period->end, words, range_end);
    const std::vector<Constraint> filters =
        range_filters(comparison.op, period->days, closes, range_end.has_value(), opened,
                      requirements.constraints, [&](const std::string& op, const core::DayRange& days) {
                        return day_filters(spans->name, op, days);
                      });
    for (const Constraint& filter : filters) add_unique(requirements.constraints, filter);
    for (std::size_t word = comparison.begin; word < comparison.end; ++word) used.insert(word);
    at = period->end - 1;
  }
  return used;
}

// The filters keeping `year` on `column` for `op`: a column of years compares with the year, a date
// column with its days ("=": [1 January, next 1 January); "after 1999": from 2000-01-01).
std::vector<Constraint> year_filters(const data::ColumnProfile& column, const std::string& op,
                                     std::int64_t year) {
  if (column.type == data::ColumnType::kInteger) {
    return {Constraint{"filter", column.name, op, ParamValue{{ParamScalar(year)}, false}, "", 0}};
  }
  const core::DayRange days = core::calendar_period(
      core::CalendarUnit::kYear, std::chrono::sys_days(std::chrono::year(static_cast<int>(year)) / 1 / 1));
  return day_filters(column.name, op, days);
}

// A four-digit whole number at token `at`.
bool year_at(const Question& q, std::size_t at) {
  return at < q.tokens.size() && q.tokens[at].size() == 4 && number_after(q, at).has_value();
}

// Whether the year at `at` is joined to another by a list word: "2023 vs 2024", "2023 and 2024".
bool listed_year(const Question& q, std::size_t at, const std::vector<Stems>& lists) {
  const std::size_t before = phrase_ending_at(q.stems, at, lists);
  const std::size_t after = phrase_starting_at(q.stems, at + 1, lists);
  return (before > 0 && before < at && year_at(q, at - before - 1)) ||
         (after > 0 && year_at(q, at + 1 + after));
}

// Filters for years the question names after a link word ("in 2024", "in either 1999 or 2000") on
// the date or year column that spans them (a named one first), or with a comparison ("after 1928",
// "2014 or later", "between 2010 and 2015") on the first date or year column (a named one first).
// Returns the tokens of the years and of their comparisons.
std::set<std::size_t> ground_years(const Question& q, const data::SchemaProfile& profile,
                                   const std::vector<Mention>& mentions, const Stems& links,
                                   const PeriodWords& words, const std::set<std::size_t>& compared,
                                   Findings& found) {
  Requirements& requirements = found.requirements;
  std::map<const data::ColumnProfile*, std::set<std::int64_t>> kept;  // the years each date column keeps
  std::vector<const data::ColumnProfile*> columns;
  for (const Mention& m : mentions) columns.push_back(m.column);
  for (const data::ColumnProfile& column : profile.columns) columns.push_back(&column);
  std::set<std::size_t> used;
  std::optional<std::size_t> range_end;  // where the last year of a range stands
  std::optional<RangeStart<std::int64_t>> opened;
  for (std::size_t at = 1; at < q.tokens.size(); ++at) {
    const std::optional<std::int64_t> year = number_after(q, at);
    if (!year || q.tokens[at].size() != 4 || compared.count(at) || date_after(q, at))
      continue;  // "2002-06-21" is a date
    const bool closes = range_end == at;
    const PeriodComparison comparison = period_comparison(q, at, at + 1, words, range_end);
    const bool compares = comparison.op != "=";
    if (!compares && std::find(links.begin(), links.end(), q.stems[at - 1]) == links.end() &&
        !listed_year(q, at, words.lists))
      continue;
    const data::ColumnProfile* spans = column_of_year(columns, compares ? std::nullopt : year);
    if (spans == nullptr) continue;
    if (!compares && spans->type != data::ColumnType::kInteger) {  // kept below, with the years beside it
      kept[spans].insert(*year);
      used.insert(at);
      continue;
    }
    const std::vector<Constraint> filters = range_filters(
        comparison.op, *year, closes, range_end.has_value(), opened, requirements.constraints,
        [&](const std::string& op, std::int64_t period) { return year_filters(*spans, op, period); });
    for (const Constraint& filter : filters) add_unique(requirements.constraints, filter);
    for (std::size_t word = comparison.begin; word < comparison.end; ++word) used.insert(word);
  }
  for (const auto& [column, years] : kept) {  // "2023 vs 2024": from the first named year to the last
    std::vector<Constraint> filters = year_filters(*column, "=", *years.begin());
    filters.back() = year_filters(*column, "=", *years.rbegin()).back();
    for (const Constraint& filter : filters) add_unique(requirements.constraints, filter);
    if (years.size() > 1) found.years_column = column->name;
  }
  return used;
}

// The column of dates a relative period counts back from: the time column when it holds dates,
// else the first column of dates; nullptr when no column holds dates.
const data::ColumnProfile* dated_column(const data::SchemaProfile& profile,
                                        const std::optional<std::string>& time) {
  const auto dated = [](const data::ColumnProfile* c) {
    return c != nullptr && data::is_temporal(c->type) && c->span.has_value();
  };
  if (time && dated(profile.find(*time))) return profile.find(*time);
  for (const data::ColumnProfile& column : profile.columns) {
    if (dated(&column)) return &column;
  }
  return nullptr;
}

// Filters keeping the dates of `period` ("last year": [2023-01-01, 2024-01-01) when the latest
// date is in 2024); the column filtered, or nothing when a named year already filters it or the
// period has no dates.
std::optional<std::string> keep_period(const RelativePeriod& period, const data::ColumnProfile& column,
                                       Requirements& requirements) {
  const bool dated =
      std::any_of(requirements.constraints.begin(), requirements.constraints.end(),
                  [&](const Constraint& c) { return c.type == "filter" && c.column == column.name; });
  const std::optional<DateRange> range = period_dates(period, column.span->last);
  if (dated || !range) return std::nullopt;  // "in 2024 compared with last year": both cannot hold
  add_unique(requirements.constraints,
             Constraint{"filter", column.name, ">=", ParamValue{{range->from}, false}, "", 0});
  add_unique(requirements.constraints,
             Constraint{"filter", column.name, "<", ParamValue{{range->to}, false}, "", 0});
  return column.name;
}

}  // namespace

std::optional<RelativePeriod> claim_relative_period(const data::SchemaProfile& profile,
                                                    const RelativePeriodPhrases& phrases, Question& q,
                                                    TokenClaims& claims) {
  std::vector<RelativePeriod> periods = find_relative_periods(q.stems, phrases);
  if (!contains_phrase(q.stems, phrases.compare_words))  // "the last week of each month last year" keeps 2023
    std::erase_if(periods, [](const RelativePeriod& p) { return p.part; });
  std::optional<RelativePeriod>
      period;  // one period keeps rows; two ("this year vs last year") compare, unread
  if (periods.size() == 1 && !periods.front().qualified && dated_column(profile, std::nullopt) != nullptr)
    period = periods.front();
  if (period) {  // "last year" is a filter, not the year grain
    blank_claimed(period->begin, period->end, Claim::kRelativePeriod, q, claims);
  }
  return period;
}

core::Result<void> claim_named_periods(const Question& q, const data::SchemaProfile& profile,
                                       const LabelledPhrases& months, const PeriodWords& words,
                                       const Stems& period_links, const Stems& year_links,
                                       TokenClaims& claims, Findings& found) {
  core::Result<std::set<std::size_t>> named_periods = ground_calendar_periods(
      q, profile, months, words, period_links, claims.taken(kCompared), found.requirements);
  if (!named_periods) return named_periods.error();
  claims.claim(*named_periods, Claim::kCalendarPeriod);
  claims.claim(ground_years(q, profile, found.mentions, year_links, words, claims.taken(kCompared), found),
               Claim::kYear);
  return core::ok();
}

void split_named_years(Findings& found) {
  TimeRequirement& time = found.requirements.time;
  if (!found.years_column || (time.column && *time.column != *found.years_column)) return;
  if (time.column && time.grain != "unknown") return;  // "by month in 2023 and 2024"
  time.column = found.years_column;
  time.grain = "year";
}

void keep_relative_period(const data::SchemaProfile& profile, Findings& found) {
  if (found.period) {
    found.period_column = keep_period(*found.period, *dated_column(profile, found.requirements.time.column),
                                      found.requirements);
  }
}

}  // namespace planfirst::autoviz::extraction
