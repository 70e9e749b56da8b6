// handle_missing: drop the rows with a missing value, or fill the gaps of each column.
#include <fmt/format.h>

#include "data/sql_quoting.hpp"
#include "pipelines/autoviz/tools/tool_functions.hpp"
#include "pipelines/autoviz/tools/tool_relation.hpp"
#include "pipelines/autoviz/tools/tool_sql.hpp"

namespace planfirst::autoviz::tools {
namespace {

// The value that fills the gaps of `column` under `strategy`: in the column's own type, except a
// mean or median, which makes the column DOUBLE rather than round.
std::string fill_expression(const std::string& strategy, const Relation& relation,
                            const data::Column& column) {
  const std::string quoted = data::quote_identifier(column.name);
  const std::string from = data::quote_identifier(relation.name);
  if (strategy == "forward_fill") {
    return fmt::format(
        "last_value({} IGNORE NULLS) OVER (ORDER BY rowid ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)",
        quoted);
  }
  if (strategy == "fill_mean" || strategy == "fill_median") {  // numbers: the column becomes DOUBLE
    return fmt::format(
        "coalesce(CAST({0} AS DOUBLE), (SELECT CAST({1}(CAST({0} AS DOUBLE)) AS DOUBLE) FROM {2}))", quoted,
        strategy == "fill_mean" ? "avg" : "median", from);
  }
  std::string fill = "$1";
  if (strategy == "fill_mode") {
    fill = fmt::format(
        "(SELECT {0} FROM {1} WHERE {0} IS NOT NULL GROUP BY {0} ORDER BY count(*) DESC, {0} LIMIT 1)",
        quoted, from);
  }
  return fmt::format("coalesce({}, CAST({} AS {}))", quoted, fill, column.sql_type);
}

}  // namespace

Output handle_missing(ToolContext& ctx, const ToolParams& params) {
  core::Result<Relation> relation = ordered_relation(ctx, params);  // orders by rowid
  if (!relation) return relation.error();
  core::Result<std::vector<std::string>> columns = columns_param(ctx, params, *relation, "columns");
  if (!columns) return columns.error();
  if (columns->empty()) {
    for (const data::Column& column : relation->columns) columns->push_back(column.name);
  }
  core::Result<std::string> strategy = params.choice(
      "strategy", {"drop", "fill_value", "fill_mean", "fill_median", "fill_mode", "forward_fill"}, "");
  if (!strategy) return strategy.error();
  if (strategy->empty()) return params.error("strategy", "required");
  if (*strategy == "drop") {
    std::string kept;
    for (const std::string& column : *columns) {
      kept += fmt::format("{}{} IS NOT NULL", kept.empty() ? "" : " AND ", data::quote_identifier(column));
    }
    return materialize(
        ctx, params, fmt::format("SELECT * FROM {} WHERE {}", data::quote_identifier(relation->name), kept));
  }
  std::vector<data::Value> values;
  if (*strategy == "fill_value") {
    core::Result<data::Value> value = params.value("value");
    if (!value) return value.error();
    values.push_back(*value);
  }
  std::vector<std::pair<std::string, std::string>> fills;
  for (const std::string& column : *columns) {
    if ((*strategy == "fill_mean" || *strategy == "fill_median")) {
      if (core::Result<void> numeric = require_numeric(params, *relation, "columns", column); !numeric) {
        return numeric.error();
      }
    }
    fills.emplace_back(column, fill_expression(*strategy, *relation, *relation->find(column)));
  }
  return materialize(ctx, params, select_replacing(relation->name, fills) + " ORDER BY rowid", values);
}

}  // namespace planfirst::autoviz::tools
