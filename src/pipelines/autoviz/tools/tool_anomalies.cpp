// detect_anomalies: every row with its score and an is_anomaly flag. zscore: |value - mean| /
// sample standard deviation above the threshold (default 3). iqr: outside [Q1 - t*IQR, Q3 + t*IQR]
// (default t 1.5). Rows keep their order, or follow date_column when one is given.
#include <fmt/format.h>

#include "data/sql_quoting.hpp"
#include "pipelines/autoviz/tools/tool_functions.hpp"
#include "pipelines/autoviz/tools/tool_relation.hpp"
#include "pipelines/autoviz/tools/tool_sql.hpp"

namespace planfirst::autoviz::tools {
namespace {

// The added columns; the threshold is bound as $1.
std::string anomaly_columns(std::string_view method, const std::string& column) {
  const std::string value = fmt::format("CAST({} AS DOUBLE)", data::quote_identifier(column));
  if (method == "zscore") {
    const std::string z =
        fmt::format("({0} - avg({0}) OVER ()) / nullif(stddev_samp({0}) OVER (), 0)", value);
    return fmt::format("{0} AS \"z_score\", coalesce(abs({0}) > $1, false) AS \"is_anomaly\"", z);
  }
  const std::string q1 = fmt::format("quantile_cont({}, 0.25) OVER ()", value);
  const std::string q3 = fmt::format("quantile_cont({}, 0.75) OVER ()", value);
  const std::string lower = fmt::format("({0} - $1 * ({1} - {0}))", q1, q3);
  const std::string upper = fmt::format("({1} + $1 * ({1} - {0}))", q1, q3);
  return fmt::format(
      "{0} AS \"lower_bound\", {1} AS \"upper_bound\", coalesce({2} < {0} OR {2} > {1}, false) AS "
      "\"is_anomaly\"",
      lower, upper, value);
}

}  // namespace

Output detect_anomalies(ToolContext& ctx, const ToolParams& params) {
  core::Result<Relation> relation = ordered_relation(ctx, params);  // orders by rowid
  if (!relation) return relation.error();
  core::Result<std::string> column = numeric_column_param(ctx, params, *relation, "column");
  if (!column) return column.error();
  core::Result<std::string> method = params.choice("method", {"zscore", "iqr"}, "zscore");
  if (!method) return method.error();
  core::Result<double> threshold = params.number("threshold", *method == "zscore" ? 3.0 : 1.5);
  if (!threshold) return threshold.error();
  if (*threshold <= 0) return params.error("threshold", "must be greater than 0");
  std::string order = "rowid";
  if (params.has("date_column")) {
    core::Result<std::string> date = temporal_column_param(ctx, params, *relation, "date_column");
    if (!date) return date.error();
    order = data::quote_identifier(*date) + ", rowid";
  }
  return materialize(ctx, params,
                     fmt::format("SELECT *, {} FROM {} ORDER BY {}", anomaly_columns(*method, *column),
                                 data::quote_identifier(relation->name), order),
                     {*threshold});
}

}  // namespace planfirst::autoviz::tools
