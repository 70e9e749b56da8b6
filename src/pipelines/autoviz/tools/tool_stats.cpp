// compute_summary_stats, compute_value_counts and compute_percentiles: describing columns.
#include <fmt/format.h>

#include <algorithm>

#include "data/sql_quoting.hpp"
#include "pipelines/autoviz/tools/tool_functions.hpp"
#include "pipelines/autoviz/tools/tool_relation.hpp"
#include "pipelines/autoviz/tools/tool_sql.hpp"

namespace planfirst::autoviz::tools {
namespace {

const std::vector<std::string_view> kStats = {"count", "mean", "std", "min", "max", "median", "sum"};

std::string stat_expression(std::string_view stat, const std::string& quoted) {
  if (stat == "count") return fmt::format("count({})", quoted);
  const std::string_view func = stat == "mean" ? "avg" : (stat == "std" ? "stddev_samp" : stat);
  return fmt::format("CAST({}({}) AS DOUBLE)", func, quoted);
}

core::Result<std::vector<std::string>> chosen_stats(const ToolParams& params) {
  core::Result<std::vector<std::string>> stats = params.strings("stats");
  if (!stats) return stats.error();
  if (stats->empty()) return std::vector<std::string>(kStats.begin(), kStats.end());
  for (const std::string& stat : *stats) {
    if (std::find(kStats.begin(), kStats.end(), stat) == kStats.end()) {
      return params.error("stats",
                          fmt::format("'{}' is not one of: count, mean, std, min, max, median, sum", stat));
    }
  }
  return stats;
}

}  // namespace

Output compute_summary_stats(ToolContext& ctx, const ToolParams& params) {
  core::Result<Relation> relation = current_relation(ctx, params);
  if (!relation) return relation.error();
  core::Result<std::vector<std::string>> columns = numeric_columns_param(ctx, params, *relation, "columns");
  if (!columns) return columns.error();
  core::Result<std::vector<std::string>> keys = columns_param(ctx, params, *relation, "group_by");
  if (!keys) return keys.error();
  core::Result<std::vector<std::string>> stats = chosen_stats(params);
  if (!stats) return stats.error();
  const std::string key_list = keys->empty() ? std::string() : quoted_list(*keys) + ", ";
  const std::string group = keys->empty() ? std::string() : " GROUP BY " + quoted_list(*keys);
  std::string parts;
  for (std::size_t i = 0; i < columns->size(); ++i) {
    std::string measures;
    for (const std::string& stat : *stats) {
      measures += fmt::format(", {} AS {}", stat_expression(stat, data::quote_identifier((*columns)[i])),
                              data::quote_identifier(stat));
    }
    parts += fmt::format("{}SELECT {}{} AS \"column\", {} AS planfirst_order{} FROM {}{}",
                         parts.empty() ? "" : " UNION ALL ", key_list, data::quote_literal((*columns)[i]), i,
                         measures, data::quote_identifier(relation->name), group);
  }
  return materialize(ctx, params,
                     fmt::format("SELECT {}\"column\", {} FROM ({}) ORDER BY {}planfirst_order", key_list,
                                 quoted_list(*stats), parts, key_list));
}

Output compute_value_counts(ToolContext& ctx, const ToolParams& params) {
  core::Result<Relation> relation = current_relation(ctx, params);
  if (!relation) return relation.error();
  core::Result<std::string> column = column_param(ctx, params, *relation, "column");
  if (!column) return column.error();
  core::Result<bool> normalize = params.boolean("normalize", false);
  if (!normalize) return normalize.error();
  core::Result<std::int64_t> limit = params.integer("limit", 0, 1);
  if (!limit) return limit.error();
  const std::string quoted = data::quote_identifier(*column);
  return materialize(
      ctx, params,
      fmt::format("SELECT {0}, count(*) AS \"count\"{1} FROM {2} GROUP BY {0} "
                  "ORDER BY \"count\" DESC, {0}{3}",
                  quoted, *normalize ? ", count(*) / sum(count(*)) OVER () AS \"proportion\"" : "",
                  data::quote_identifier(relation->name),
                  *limit > 0 ? fmt::format(" LIMIT {}", *limit) : ""));
}

Output compute_percentiles(ToolContext& ctx, const ToolParams& params) {
  core::Result<Relation> relation = current_relation(ctx, params);
  if (!relation) return relation.error();
  core::Result<std::string> column = column_param(ctx, params, *relation, "column");
  if (!column) return column.error();
  if (core::Result<void> numeric = require_numeric(params, *relation, "column", *column); !numeric) {
    return numeric.error();
  }
  core::Result<std::vector<double>> percentiles = params.numbers("percentiles", {25, 50, 75, 90, 99});
  if (!percentiles) return percentiles.error();
  std::string points;
  std::string fractions;
  for (double percentile : *percentiles) {
    if (percentile < 0 || percentile > 100) return params.error("percentiles", "each must lie in 0..100");
    points += fmt::format("{}{:.17g}", points.empty() ? "" : ", ", percentile);
    fractions += fmt::format("{}{:.17g}", fractions.empty() ? "" : ", ", percentile / 100);
  }
  return materialize(
      ctx, params,
      fmt::format("SELECT unnest(CAST([{}] AS DOUBLE[])) AS \"percentile\", "
                  "unnest(quantile_cont(CAST({} AS DOUBLE), CAST([{}] AS DOUBLE[]))) AS \"value\" FROM {}",
                  points, data::quote_identifier(*column), fractions,
                  data::quote_identifier(relation->name)));
}

}  // namespace planfirst::autoviz::tools
