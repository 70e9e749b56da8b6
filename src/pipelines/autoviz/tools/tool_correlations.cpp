// compute_correlations: the full matrix of pairwise correlations, one row per (column_x, column_y)
// in the order the columns were named. Spearman correlates average ranks (ties share their mean
// rank) over the rows where every chosen column has a value. Coefficients are rounded to 10
// decimals, so a perfect correlation reads 1 rather than 0.9999999999999998.
#include <fmt/format.h>

#include "data/sql_quoting.hpp"
#include "pipelines/autoviz/tools/tool_functions.hpp"
#include "pipelines/autoviz/tools/tool_relation.hpp"
#include "pipelines/autoviz/tools/tool_sql.hpp"

namespace planfirst::autoviz::tools {
namespace {

// "WITH planfirst_ranked AS (...) " holding each column's average rank under its own name.
std::string ranked_source(const std::string& relation, const std::vector<std::string>& columns) {
  std::string ranks;
  std::string present;
  for (const std::string& column : columns) {
    const std::string quoted = data::quote_identifier(column);
    ranks +=
        fmt::format("{1}rank() OVER (ORDER BY {0}) + (count(*) OVER (PARTITION BY {0}) - 1) / 2.0 AS {0}",
                    quoted, ranks.empty() ? "" : ", ");
    present += fmt::format("{}{} IS NOT NULL", present.empty() ? "" : " AND ", quoted);
  }
  return fmt::format("WITH planfirst_ranked AS (SELECT {} FROM {} WHERE {}) ", ranks,
                     data::quote_identifier(relation), present);
}

}  // namespace

Output compute_correlations(ToolContext& ctx, const ToolParams& params) {
  core::Result<Relation> relation = current_relation(ctx, params);
  if (!relation) return relation.error();
  core::Result<std::vector<std::string>> columns = numeric_columns_param(ctx, params, *relation, "columns");
  if (!columns) return columns.error();
  if (columns->size() < 2) return params.error("columns", "needs at least two numeric columns");
  core::Result<std::string> method = params.choice("method", {"pearson", "spearman"}, "pearson");
  if (!method) return method.error();
  const bool spearman = *method == "spearman";
  const std::string from = spearman ? "planfirst_ranked" : data::quote_identifier(relation->name);
  std::string pairs;
  std::size_t order = 0;
  for (const std::string& x : *columns) {
    for (const std::string& y : *columns) {
      pairs += fmt::format(
          "{}SELECT {} AS \"column_x\", {} AS \"column_y\", round(corr({}, {}), 10) AS \"correlation\", "
          "{} AS planfirst_order FROM {}",
          pairs.empty() ? "" : " UNION ALL ", data::quote_literal(x), data::quote_literal(y),
          data::quote_identifier(x), data::quote_identifier(y), order++, from);
    }
  }
  return materialize(
      ctx, params,
      fmt::format("{}SELECT \"column_x\", \"column_y\", \"correlation\" FROM ({}) ORDER BY planfirst_order",
                  spearman ? ranked_source(relation->name, *columns) : "", pairs));
}

}  // namespace planfirst::autoviz::tools
