// aggregate, segment_metric and compute_share: metrics per group, ordered by the group keys.
#include <fmt/format.h>

#include <algorithm>

#include "data/sql_quoting.hpp"
#include "pipelines/autoviz/row_count.hpp"
#include "pipelines/autoviz/tools/tool_functions.hpp"
#include "pipelines/autoviz/tools/tool_relation.hpp"
#include "pipelines/autoviz/tools/tool_sql.hpp"

namespace planfirst::autoviz::tools {
namespace {

const std::vector<std::string_view> kAggFuncs = {"sum", "avg", "count",  "count_distinct",
                                                 "min", "max", "median", "stddev"};
const std::vector<std::string_view> kSegmentFuncs = {"sum", "avg", "count", "count_distinct",
                                                     "min", "max", "median"};

bool needs_numbers(std::string_view func) {
  return func == "sum" || func == "avg" || func == "median" || func == "stddev";
}

// " GROUP BY k ORDER BY k" for keys, or nothing for a single total row.
std::string grouping(const std::vector<std::string>& keys) {
  if (keys.empty()) return {};
  const std::string list = quoted_list(keys);
  return fmt::format(" GROUP BY {0} ORDER BY {0}", list);
}

std::string select_keys(const std::vector<std::string>& keys) {
  return keys.empty() ? std::string() : quoted_list(keys) + ", ";
}

// The grouping columns of `param`, none of which may also be `metric`.
core::Result<std::vector<std::string>> group_columns(ToolContext& ctx, const ToolParams& params,
                                                     const Relation& relation, std::string_view param,
                                                     const std::vector<std::string>& metrics) {
  core::Result<std::vector<std::string>> keys = columns_param(ctx, params, relation, param);
  if (!keys) return keys.error();
  for (const std::string& metric : metrics) {
    if (std::find(keys->begin(), keys->end(), metric) != keys->end()) {
      return params.error(param, fmt::format("'{}' is both a metric and a grouping column", metric));
    }
  }
  return keys;
}

// A metric column that `func` can aggregate.
core::Result<std::string> metric_column(ToolContext& ctx, const ToolParams& params, const Relation& relation,
                                        std::string_view param, std::string_view name,
                                        std::string_view func) {
  core::Result<std::string> metric = resolve_column(ctx, params, relation, param, name);
  if (!metric) return metric.error();
  if (needs_numbers(func)) {
    if (core::Result<void> numeric = require_numeric(params, relation, param, *metric); !numeric) {
      return numeric.error();
    }
  }
  return metric;
}

}  // namespace

Output aggregate(ToolContext& ctx, const ToolParams& params) {
  core::Result<Relation> relation = current_relation(ctx, params);
  if (!relation) return relation.error();
  core::Result<std::string> func = params.choice("agg_func", kAggFuncs, "sum");
  if (!func) return func.error();
  core::Result<std::vector<std::string>> names = params.strings("metrics");
  if (!names) return names.error();
  if (names->empty()) return params.error("metrics", "required: at least one column");
  std::vector<std::string> metrics;
  std::string measures;
  for (const std::string& name : *names) {
    if (counts_rows(*func, name)) {
      metrics.push_back(std::string(kCountColumn));
      measures +=
          fmt::format("{}count(*) AS {}", measures.empty() ? "" : ", ", data::quote_identifier(kCountColumn));
      continue;
    }
    core::Result<std::string> metric = metric_column(ctx, params, *relation, "metrics", name, *func);
    if (!metric) return metric.error();
    metrics.push_back(*metric);
    measures += fmt::format("{}{} AS {}", measures.empty() ? "" : ", ",
                            aggregate_expression(*func, *metric, *relation), data::quote_identifier(*metric));
  }
  core::Result<std::vector<std::string>> keys = group_columns(ctx, params, *relation, "group_by", metrics);
  if (!keys) return keys.error();
  return materialize(ctx, params,
                     fmt::format("SELECT {}{} FROM {}{}", select_keys(*keys), measures,
                                 data::quote_identifier(relation->name), grouping(*keys)));
}

Output segment_metric(ToolContext& ctx, const ToolParams& params) {
  core::Result<Relation> relation = current_relation(ctx, params);
  if (!relation) return relation.error();
  core::Result<std::string> func = params.choice("agg_func", kSegmentFuncs, "sum");
  if (!func) return func.error();
  core::Result<std::string> name = params.string("metric");
  if (!name) return name.error();
  core::Result<std::string> metric = metric_column(ctx, params, *relation, "metric", *name, *func);
  if (!metric) return metric.error();
  core::Result<std::vector<std::string>> keys =
      group_columns(ctx, params, *relation, "segment_by", {*metric});
  if (!keys) return keys.error();
  if (keys->empty()) return params.error("segment_by", "required: at least one column");
  const std::string value = aggregate_expression(*func, *metric, *relation);
  const std::string from = data::quote_identifier(relation->name);
  const std::string overall = fmt::format("(SELECT {} FROM {})", value, from);
  return materialize(ctx, params,
                     fmt::format("SELECT {}{} AS {}, {} AS \"overall\", {} - {} AS \"difference\" FROM {}{}",
                                 select_keys(*keys), value, data::quote_identifier(*metric), overall, value,
                                 overall, from, grouping(*keys)));
}

Output compute_share(ToolContext& ctx, const ToolParams& params) {
  core::Result<Relation> relation = current_relation(ctx, params);
  if (!relation) return relation.error();
  core::Result<std::string> name = params.string("metric");
  if (!name) return name.error();
  core::Result<std::string> metric = metric_column(ctx, params, *relation, "metric", *name, "sum");
  if (!metric) return metric.error();
  core::Result<std::vector<std::string>> keys = group_columns(ctx, params, *relation, "group_by", {*metric});
  if (!keys) return keys.error();
  if (keys->empty()) return params.error("group_by", "required: at least one column");
  // Each group's total and the whole are exact sums (see aggregate_expression): the same bytes every run.
  const std::string total = aggregate_expression("sum", *metric, *relation);
  return materialize(
      ctx, params,
      fmt::format("SELECT {0}{1} AS {2}, 100.0 * CAST({1} AS DOUBLE) / "
                  "CAST(sum(CAST({1} AS DECIMAL(38, 10))) OVER () AS DOUBLE) AS \"percent\" FROM {3}{4}",
                  select_keys(*keys), total, data::quote_identifier(*metric),
                  data::quote_identifier(relation->name), grouping(*keys)));
}

}  // namespace planfirst::autoviz::tools
