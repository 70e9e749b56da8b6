#include "pipelines/autoviz/report/answer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>
#include <vector>

#include "core/join.hpp"
#include "core/json_member.hpp"
#include "core/number_text.hpp"
#include "pipelines/autoviz/report/display_table.hpp"
#include "pipelines/autoviz/tools/tool_output.hpp"

namespace planfirst::autoviz {
namespace {

using core::Json;
using core::member_or_null;

std::string text_of(const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  return value.is_null() ? std::string() : value.dump();
}

std::vector<std::string> strings_of(const Json& list) {
  std::vector<std::string> out;
  if (list.is_string()) out.push_back(list.get<std::string>());
  if (list.is_array()) {
    for (const Json& item : list) out.push_back(text_of(item));
  }
  return out;
}

// "a and b", "a, b and c".
std::string and_list(const std::vector<std::string>& items) {
  if (items.size() <= 1) return items.empty() ? std::string() : items.front();
  std::vector<std::string> head(items.begin(), items.end() - 1);
  return core::join(head) + " and " + items.back();
}

bool ran(const Json& step) {
  const std::string status = text_of(member_or_null(step, "status"));
  return status != "failed" && status != "skipped";
}

// A filter value as the plan gives it: "West", 2024, "(East, West)" for a list.
std::string value_text(const Json& value) {
  if (value.is_array()) return "(" + core::join(strings_of(value)) + ")";
  return text_of(value);
}

// The date `text` ("2024-03-01") as {year, month} when it is the first day of a month.
std::optional<std::pair<int, int>> month_start(const std::string& text) {
  int year = 0;
  int month = 0;
  int day = 0;
  char tail = 0;
  if (text.size() < 10 || std::sscanf(text.c_str(), "%4d-%2d-%2d%c", &year, &month, &day, &tail) < 3)
    return std::nullopt;
  const bool midnight = text.size() == 10 || text.substr(10) == " 00:00:00" || text.substr(10) == "T00:00:00";
  if (day != 1 || month < 1 || month > 12 || !midnight) return std::nullopt;
  return std::make_pair(year, month);
}

// "date in 2024" for [2024-01-01, 2025-01-01), "date in 2024-03" for one month; else none.
std::optional<std::string> calendar_period(const std::string& column, const Json& from, const Json& to) {
  if (!from.is_string() || !to.is_string()) return std::nullopt;
  const auto start = month_start(from.get<std::string>());
  const auto end = month_start(to.get<std::string>());
  if (!start || !end) return std::nullopt;
  if (start->second == 1 && end->second == 1 && end->first == start->first + 1)
    return fmt::format("{} in {}", column, start->first);
  const int next = start->first * 12 + start->second;  // months since year 0, plus one
  if (end->first * 12 + end->second == next + 1)
    return fmt::format("{} in {}-{:02}", column, start->first, start->second);
  return std::nullopt;
}

std::string condition(const std::string& column, const std::string& op, const Json& value) {
  if (value.is_null() && (op == "=" || op == "!="))
    return column + (op == "=" ? " is empty" : " has a value");
  const std::vector<std::string> pair = strings_of(value);
  if ((op == "between" || op == "not_between") && pair.size() == 2) {
    return fmt::format("{} {}between {} and {}", column, op == "between" ? "" : "not ", pair[0], pair[1]);
  }
  if (op == "in" || op == "not_in")
    return fmt::format("{} {}in {}", column, op == "in" ? "" : "not ", value_text(value));
  if (op == "contains" || op == "not_contains") {
    const std::string verb = op == "contains" ? "contains" : "does not contain";
    return value.is_array() ? fmt::format("{} {} any of {}", column, verb, value_text(value))
                            : fmt::format("{} {} {}", column, verb, value_text(value));
  }
  return fmt::format("{} {} {}", column, op, value_text(value));
}

std::string function_phrase(const std::string& func, const std::vector<std::string>& metrics) {
  const bool rows = metrics.empty() || (metrics.size() == 1 && metrics.front() == "*");
  if (func == "count") return rows ? "count of rows" : "count of " + and_list(metrics);
  if (func == "count_distinct") return "count of distinct " + and_list(metrics);
  static const std::vector<std::pair<std::string, std::string>> kWords = {
      {"sum", "sum"},     {"avg", "average"},   {"min", "minimum"},
      {"max", "maximum"}, {"median", "median"}, {"stddev", "standard deviation"}};
  for (const auto& [name, word] : kWords) {
    if (name == func) return word + " of " + and_list(metrics);
  }
  return func + " of " + and_list(metrics);
}

// The filters of `steps` in the order they ran, a column's lower and upper date bounds of one
// calendar year or month merged: "date in 2024 and region = West".
std::string filter_phrase(const std::vector<const Json*>& steps) {
  std::vector<const Json*> filters;
  std::map<std::string, std::string> aggregated;  // an aggregate's output column -> "average of salary"
  std::map<const Json*, std::string> named;       // a filter after it, on its output, by that phrase
  for (const Json* step : steps) {
    const std::string tool = text_of(member_or_null(*step, "tool"));
    const Json& params = member_or_null(*step, "params");
    if (tool == "aggregate") {
      const std::string func = text_of(member_or_null(params, "agg_func"));
      for (const std::string& metric : strings_of(member_or_null(params, "metrics")))
        aggregated[metric == "*" ? "count" : metric] = function_phrase(func.empty() ? "sum" : func, {metric});
    }
    if (tool != "filter_rows") continue;
    filters.push_back(&params);
    if (auto it = aggregated.find(text_of(member_or_null(params, "column"))); it != aggregated.end())
      named[&params] = it->second;  // "which departments have an average salary above 55000"
  }
  std::vector<bool> used(filters.size(), false);
  std::vector<std::string> phrases;
  for (std::size_t i = 0; i < filters.size(); ++i) {
    if (used[i]) continue;
    const Json& params = *filters[i];
    const std::string column = text_of(member_or_null(params, "column"));
    const std::string op = text_of(member_or_null(params, "op"));
    if (op == ">=") {  // a later "< end" on the same column may close a calendar period
      for (std::size_t j = i + 1; j < filters.size(); ++j) {
        const Json& other = *filters[j];
        if (used[j] || text_of(member_or_null(other, "column")) != column ||
            text_of(member_or_null(other, "op")) != "<")
          continue;
        if (auto period =
                calendar_period(column, member_or_null(params, "value"), member_or_null(other, "value"))) {
          phrases.push_back(*period);
          used[i] = used[j] = true;
        }
        break;
      }
      if (used[i]) continue;
    }
    const auto by_aggregate = named.find(&params);
    phrases.push_back(condition(by_aggregate == named.end() ? column : by_aggregate->second, op,
                                member_or_null(params, "value")));
  }
  return core::join(phrases, " and ");  // "and" throughout: a condition may hold a comma
}

// Each time column's grain, from the time_bucket steps that ran: {"date", "month"}.
std::vector<std::pair<std::string, std::string>> grains(const std::vector<const Json*>& steps) {
  std::vector<std::pair<std::string, std::string>> found;
  for (const Json* step : steps) {
    if (text_of(member_or_null(*step, "tool")) != "time_bucket") continue;
    const Json& params = member_or_null(*step, "params");
    std::string grain = text_of(member_or_null(*step, "grain"));
    if (grain.empty()) grain = text_of(member_or_null(params, "grain"));
    found.emplace_back(text_of(member_or_null(params, "column")), grain);
  }
  return found;
}

// "region, date (month)": the keys, a bucketed time column with its grain.
std::string keys_phrase(const std::vector<std::string>& keys, const std::vector<const Json*>& steps) {
  const auto bucketed = grains(steps);
  std::vector<std::string> named;
  for (const std::string& key : keys) {
    auto grain =
        std::find_if(bucketed.begin(), bucketed.end(), [&](const auto& g) { return g.first == key; });
    named.push_back(grain == bucketed.end() || grain->second.empty() || grain->second == "auto"
                        ? key
                        : key + " (" + grain->second + ")");
  }
  return core::join(named);
}

struct Measure {
  std::string phrase;             // "sum of revenue"
  std::vector<std::string> keys;  // the grouping columns
  bool additive = false;          // a count, sum or mean: its number reads best grouped by thousands
};

// What the last aggregating step computed; none when no step aggregated.
std::optional<Measure> measure(const std::vector<const Json*>& steps) {
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
    const Json& step = **it;
    const std::string tool = text_of(member_or_null(step, "tool"));
    const Json& params = member_or_null(step, "params");
    std::string func = text_of(member_or_null(params, "agg_func"));
    if (func.empty()) func = "sum";
    const bool additive = func == "sum" || func == "avg" || func == "count" || func == "count_distinct";
    if (tool == "aggregate") {
      return Measure{function_phrase(func, strings_of(member_or_null(params, "metrics"))),
                     strings_of(member_or_null(params, "group_by")), additive};
    }
    if (tool == "segment_metric") {
      return Measure{function_phrase(func, strings_of(member_or_null(params, "metric"))),
                     strings_of(member_or_null(params, "segment_by")), additive};
    }
    if (tool == "compute_share") {
      return Measure{"share of " + text_of(member_or_null(params, "metric")),
                     strings_of(member_or_null(params, "group_by")), false};
    }
    if (tool == "compute_correlations") {
      const bool both = text_of(member_or_null(params, "method")) == "both";
      return Measure{(both ? "Pearson and Spearman correlation of " : "correlation of ") +
                         and_list(strings_of(member_or_null(params, "columns"))) + (both ? ", with n" : ""),
                     {},
                     false};
    }
    if (tool == "compare_periods") {
      std::string grain = text_of(member_or_null(params, "grain"));
      return Measure{
          "change in " + text_of(member_or_null(params, "metric")) +
              (grain.empty() ? std::string(" from the period before") : " from the " + grain + " before"),
          strings_of(member_or_null(params, "group_by")), false};
    }
  }
  return std::nullopt;
}

// ", top 5 by revenue" for the last sort_limit that ran; empty without one.
std::string ranking_phrase(const std::vector<const Json*>& steps) {
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
    if (text_of(member_or_null(**it, "tool")) != "sort_limit") continue;
    const Json& params = member_or_null(**it, "params");
    const bool ascending = text_of(member_or_null(params, "direction")) == "asc";
    const std::string by = text_of(member_or_null(params, "by"));
    if (const Json& limit = member_or_null(params, "limit"); limit.is_number_integer())
      return fmt::format(", {} {} by {}", ascending ? "bottom" : "top", limit.get<std::int64_t>(), by);
    return fmt::format(", sorted by {} {}", by, ascending ? "ascending" : "descending");
  }
  return {};
}

// The one number of `table`: its only numeric column when it has one row and every other column is a
// key; that column's index.
std::optional<std::size_t> single_value_column(const data::QueryResult& table,
                                               const std::vector<std::string>& keys) {
  if (table.row_count() != 1) return std::nullopt;
  std::optional<std::size_t> found;
  for (std::size_t c = 0; c < table.column_count(); ++c) {
    const data::Column& column = table.column(c);
    const bool key = std::find(keys.begin(), keys.end(), column.name) != keys.end();
    if (key) continue;
    if (found || !data::is_numeric(column.type)) return std::nullopt;
    found = c;
  }
  return found;
}

std::string shown_value(const data::Value& value, bool additive) {
  const double group_from = additive ? kGroupSentence : kGroupTable;
  switch (value.kind()) {
    case data::Value::Kind::kInt: return core::format_integer(value.as_int(), group_from);
    case data::Value::Kind::kDouble: return core::format_number(value.as_double(), group_from);
    case data::Value::Kind::kNull: return "no value";
    default: return value.to_string();
  }
}

std::string rows_word(std::size_t rows) {
  return rows == 1 ? "1 row"
                   : core::format_integer(static_cast<std::int64_t>(rows), kGroupSentence) + " rows";
}

}  // namespace

std::string Answer::headline() const {
  if (value) return "Answer: " + *value + " (" + description + ")";
  const std::string rows = row_count ? rows_word(*row_count) : "more than " + rows_word(table.row_count());
  return "Answer: " + description + " (" + rows + ")";
}

std::string Answer::rows_line(std::size_t shown) const {
  const std::size_t kept = table.row_count();
  shown = std::min(shown, kept);
  if (row_count && shown >= *row_count) return rows_word(*row_count);
  const std::string total =
      row_count ? core::format_integer(static_cast<std::int64_t>(*row_count), kGroupSentence)
                : "more than " + core::format_integer(static_cast<std::int64_t>(kept), kGroupSentence);
  return fmt::format("showing {} of {} rows", shown, total);
}

std::optional<Answer> find_answer(const Json& state) {
  const Json& steps = member_or_null(member_or_null(state, "execution"), "steps");
  if (!steps.is_array() || member_or_null(state, "plan_only") == true) return std::nullopt;
  std::optional<std::size_t> index;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (text_of(member_or_null(steps[i], "status")) == "failed") return std::nullopt;
    if (ran(steps[i]) && steps[i].contains("table") && !steps[i]["table"].is_null()) index = i;
  }
  if (!index) return std::nullopt;
  const Json& step = steps[*index];
  core::Result<data::QueryResult> table =
      data::QueryResult::from_json(member_or_null(step, "columns"), member_or_null(step, "table"));
  if (!table) return std::nullopt;
  Answer answer;
  answer.step_id = text_of(member_or_null(step, "step_id"));
  answer.step_index = *index;
  answer.table = std::move(*table);
  if (const Json& counted = member_or_null(step, "row_count");
      counted.is_number_integer() && counted.get<std::int64_t>() >= 0) {
    answer.row_count = counted.get<std::size_t>();
  } else if (member_or_null(step, "truncated") != true) {
    answer.row_count = answer.table.row_count();
  }
  std::vector<const Json*> done;
  for (std::size_t i = 0; i <= *index; ++i) {
    if (ran(steps[i])) done.push_back(&steps[i]);
  }
  const std::optional<Measure> computed = measure(done);
  const std::vector<std::string> keys = computed ? computed->keys : std::vector<std::string>{};
  const std::optional<std::size_t> single = single_value_column(answer.table, keys);
  std::string phrase;
  if (computed) {
    phrase = computed->phrase;
    if (!keys.empty() && !single) phrase += " by " + keys_phrase(keys, done);
  } else {
    phrase = single ? answer.table.column(*single).name : std::string("rows");
  }
  if (single) {
    std::vector<std::string> cells;  // the keys of a one-number table: "for region West"
    for (std::size_t c = 0; c < answer.table.column_count(); ++c) {
      if (c != *single)
        cells.push_back(answer.table.column(c).name + " " + display_cell(answer.table.at(0, c)));
    }
    if (!cells.empty()) phrase += " for " + and_list(cells);
    answer.value_column = *single;
    answer.value = shown_value(answer.table.at(0, *single), !computed || computed->additive);
  }
  if (const std::string filters = filter_phrase(done); !filters.empty()) phrase += " where " + filters;
  answer.description = phrase + ranking_phrase(done);
  return answer;
}

std::string sample_note(const Json& step) {
  const Json& sampled = member_or_null(step, "sampled");
  const Json& shown = member_or_null(sampled, "shown");
  const Json& of = member_or_null(sampled, "of");
  if (!shown.is_number_integer() || !of.is_number_integer() || shown.get<std::int64_t>() < 0 ||
      of.get<std::int64_t>() < 0)
    return {};
  return ChartSample{shown.get<std::size_t>(), of.get<std::size_t>()}.text() + ".";
}

}  // namespace planfirst::autoviz
