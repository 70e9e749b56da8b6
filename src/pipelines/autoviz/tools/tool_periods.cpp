// compare_periods and rolling_average: a metric along time.
#include <fmt/format.h>

#include "data/sql_quoting.hpp"
#include "pipelines/autoviz/tools/period_change.hpp"
#include "pipelines/autoviz/tools/tool_functions.hpp"
#include "pipelines/autoviz/tools/tool_relation.hpp"
#include "pipelines/autoviz/tools/tool_sql.hpp"

namespace planfirst::autoviz::tools {
namespace {

struct MetricOverTime {
  Relation relation;
  std::string date;    // a date or timestamp column
  std::string metric;  // a numeric column
};

core::Result<MetricOverTime> metric_over_time(ToolContext& ctx, const ToolParams& params) {
  core::Result<Relation> relation = ordered_relation(ctx, params);  // orders by rowid
  if (!relation) return relation.error();
  core::Result<std::string> date = temporal_column_param(ctx, params, *relation, "date_column");
  if (!date) return date.error();
  core::Result<std::string> metric = numeric_column_param(ctx, params, *relation, "metric");
  if (!metric) return metric.error();
  return MetricOverTime{std::move(*relation), std::move(*date), std::move(*metric)};
}

}  // namespace

// Per period (and group), the metric's total, the previous period's, and the change from it.
Output compare_periods(ToolContext& ctx, const ToolParams& params) {
  core::Result<MetricOverTime> input = metric_over_time(ctx, params);
  if (!input) return input.error();
  const Relation& relation = input->relation;
  const std::string& date = input->date;
  const std::string& metric = input->metric;
  core::Result<std::string> grain =
      params.choice("grain", {"day", "week", "month", "quarter", "year"}, "month");
  if (!grain) return grain.error();
  core::Result<std::vector<std::string>> keys = columns_param(ctx, params, relation, "group_by");
  if (!keys) return keys.error();
  const std::string d = data::quote_identifier(date);
  const std::string m = data::quote_identifier(metric);
  const data::Column* typed = relation.find(metric);
  const bool floating = typed != nullptr && typed->type == data::ColumnType::kDouble;
  const std::string previous = data::quote_identifier(kPreviousColumn);
  const std::string change =
      floating  // exact, as the sums are: -1444.39, not -1444.3899999998976
          ? fmt::format("CAST(CAST({} AS DECIMAL(38, 10)) - CAST({} AS DECIMAL(38, 10)) AS DOUBLE)", m,
                        previous)
          : fmt::format("{} - {}", m, previous);
  const std::string key_list = keys->empty() ? std::string() : quoted_list(*keys) + ", ";
  const std::string partition = keys->empty() ? std::string() : "PARTITION BY " + quoted_list(*keys) + " ";
  return materialize(
      ctx, params,
      fmt::format(
          "WITH planfirst_periods AS (SELECT {0}CAST(date_trunc('{1}', {2}) AS DATE) AS {2}, {9} AS {3} "
          "FROM {4} GROUP BY ALL), planfirst_lagged AS (SELECT *, lag({3}) OVER ({5}ORDER BY {2}) AS {6} "
          "FROM planfirst_periods) SELECT *, {10} AS {7}, 100.0 * ({3} - {6}) / nullif({6}, 0) AS {8} "
          "FROM planfirst_lagged ORDER BY {0}{2}",
          key_list, *grain, d, m, data::quote_identifier(relation.name), partition, previous,
          data::quote_identifier(kChangeColumn), data::quote_identifier(kChangePercentColumn),
          aggregate_expression("sum", metric, relation), change));
}

// Every row, in time order, with the mean of the metric over the last `window` rows.
Output rolling_average(ToolContext& ctx, const ToolParams& params) {
  core::Result<MetricOverTime> input = metric_over_time(ctx, params);
  if (!input) return input.error();
  const Relation& relation = input->relation;
  const std::string& date = input->date;
  const std::string& metric = input->metric;
  core::Result<std::int64_t> window = params.integer("window", 0, 2);
  if (!window) return window.error();
  if (*window == 0) return params.error("window", "required");
  const std::string d = data::quote_identifier(date);
  return materialize(
      ctx, params,
      fmt::format("SELECT *, avg({0}) OVER (ORDER BY {1}, rowid ROWS BETWEEN {2} PRECEDING AND CURRENT "
                  "ROW) AS {3} FROM {4} ORDER BY {1}, rowid",
                  data::quote_identifier(metric), d, *window - 1,
                  data::quote_identifier(metric + "_rolling_avg"), data::quote_identifier(relation.name)));
}

}  // namespace planfirst::autoviz::tools
