#include "pipelines/autoviz/group_filter.hpp"

#include <algorithm>

#include "pipelines/autoviz/row_count.hpp"

namespace planfirst::autoviz {

std::optional<GroupFilterColumn> group_filter_column(std::string_view column) {
  const std::size_t open = column.find('(');
  if (open == 0 || open == std::string_view::npos || column.size() < open + 3 || column.back() != ')')
    return std::nullopt;
  const std::string_view func = column.substr(0, open);
  const std::string_view metric = column.substr(open + 1, column.size() - open - 2);
  const bool word =
      std::all_of(func.begin(), func.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; });
  if (!word || metric.empty() || (metric == kCountRowsMetric && func != "count")) return std::nullopt;
  return GroupFilterColumn{std::string(func), std::string(metric)};
}

std::optional<GroupFilterColumn> group_filter_of(const Constraint& c, const data::SchemaProfile& profile) {
  if (c.type != "filter" || profile.find(c.column) != nullptr) return std::nullopt;
  return group_filter_column(c.column);
}

std::string group_filter_spelling(const GroupFilterColumn& aggregate) {
  return aggregate.func + "(" + aggregate.metric + ")";
}

std::string group_filter_output(const GroupFilterColumn& aggregate) {
  return counts_rows(aggregate.func, aggregate.metric) ? std::string(kCountColumn) : aggregate.metric;
}

}  // namespace planfirst::autoviz
