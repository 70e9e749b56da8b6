#include "pipelines/autoviz/planning/periods_spanned.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <string>
#include <variant>

#include "core/calendar.hpp"
#include "core/timestamp.hpp"

namespace planfirst::autoviz {
namespace {

using std::chrono::sys_days;

// "2024-03-05" or "2024-03-05 08:00:00" as its day.
std::optional<sys_days> iso_day(std::string_view text) {
  if (text.size() < 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  int y = 0;
  unsigned m = 0, d = 0;
  auto number = [&](std::size_t at, std::size_t length, auto& out) {
    const char* first = text.data() + at;
    return std::from_chars(first, first + length, out).ptr == first + length;
  };
  if (!number(0, 4, y) || !number(5, 2, m) || !number(8, 2, d)) return std::nullopt;
  const std::chrono::year_month_day day{std::chrono::year{y}, std::chrono::month{m}, std::chrono::day{d}};
  if (!day.ok()) return std::nullopt;
  return sys_days{day};
}

std::optional<sys_days> day_of(const ParamValue& value) {
  if (value.is_list || value.items.size() != 1) return std::nullopt;
  const std::string* text = std::get_if<std::string>(&value.items.front());
  return text == nullptr ? std::nullopt : iso_day(*text);
}

}  // namespace

std::optional<std::int64_t> periods_spanned(const data::ColumnProfile& column, std::string_view grain,
                                            const std::vector<Constraint>& constraints, std::int64_t cap) {
  const std::optional<core::CalendarUnit> unit = core::calendar_unit(grain);
  if (!column.span || !unit) return std::nullopt;
  std::optional<sys_days> first = iso_day(column.span->first);
  std::optional<sys_days> last = iso_day(column.span->last);
  if (!first || !last) return std::nullopt;
  for (const Constraint& c : constraints) {
    if (c.type != "filter" || c.column != column.name) continue;
    const bool lower = c.op == ">=" || c.op == ">";
    const bool upper = c.op == "<=" || c.op == "<";
    if (!lower && !upper) continue;
    const std::optional<sys_days> bound = day_of(c.value);
    if (!bound) return std::nullopt;
    if (lower) first = std::max(*first, *bound);
    if (upper) last = std::min(*last, c.op == "<" ? *bound - std::chrono::days{1} : *bound);
  }
  std::int64_t count = 0;
  for (sys_days since = core::calendar_period(*unit, *first).since; since <= *last && count < cap; ++count)
    since = core::calendar_period(*unit, since, 1).since;
  return count;
}

std::optional<std::string> period_before(const data::ColumnProfile& column, std::string_view grain,
                                         const ParamValue& bound) {
  const std::optional<core::CalendarUnit> unit = core::calendar_unit(grain);
  const std::optional<sys_days> day = day_of(bound);
  if (!column.span || !unit || !day) return std::nullopt;
  const std::optional<sys_days> first = iso_day(column.span->first);
  if (!first || *first >= *day) return std::nullopt;  // nothing before it to compare with
  return core::format_utc_day(std::chrono::sys_seconds(core::calendar_period(*unit, *day, -1).since));
}

}  // namespace planfirst::autoviz
