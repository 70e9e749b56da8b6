// compute_correlations: the full matrix of pairwise correlations, one row per (column_x, column_y)
// in the order the columns were named. Spearman correlates average ranks (ties share their mean
// rank) over the rows where every chosen column has a value. Method "both" answers "are they
// related?": each pair once, with Pearson, Spearman and the n rows where both have a value.
// Coefficients are rounded to 10 decimals, so a perfect correlation reads 1, not 0.9999999999999998.
#include <fmt/format.h>

#include "data/sql_quoting.hpp"
#include "pipelines/autoviz/tools/tool_functions.hpp"
#include "pipelines/autoviz/tools/tool_relation.hpp"
#include "pipelines/autoviz/tools/tool_sql.hpp"

namespace planfirst::autoviz::tools {
namespace {

// A value's rank among its column's values; ties share the mean of the ranks they span.
std::string average_rank(const std::string& quoted) {
  return fmt::format("rank() OVER (ORDER BY {0}) + (count(*) OVER (PARTITION BY {0}) - 1) / 2.0", quoted);
}

// "WITH planfirst_ranked AS (...) " holding each column's average rank under its own name.
std::string ranked_source(const std::string& relation, const std::vector<std::string>& columns) {
  std::string ranks;
  std::string present;
  for (const std::string& column : columns) {
    const std::string quoted = data::quote_identifier(column);
    ranks += fmt::format("{}{} AS {}", ranks.empty() ? "" : ", ", average_rank(quoted), quoted);
    present += fmt::format("{}{} IS NOT NULL", present.empty() ? "" : " AND ", quoted);
  }
  return fmt::format("WITH planfirst_ranked AS (SELECT {} FROM {} WHERE {}) ", ranks,
                     data::quote_identifier(relation), present);
}

// Each pair once: Pearson and Spearman over the rows where both columns have a value, and n.
std::string pair_coefficients(const std::string& relation, const std::vector<std::string>& columns) {
  std::string pairs;
  std::size_t order = 0;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    for (std::size_t j = i + 1; j < columns.size(); ++j) {
      const std::string x = data::quote_identifier(columns[i]);
      const std::string y = data::quote_identifier(columns[j]);
      pairs += fmt::format(
          "{0}SELECT {1} AS \"column_x\", {2} AS \"column_y\", round(corr(x, y), 10) AS \"pearson\", "
          "round(corr(rank_x, rank_y), 10) AS \"spearman\", count(*) AS \"n\", {3} AS planfirst_order "
          "FROM (SELECT {4} AS x, {5} AS y, {6} AS rank_x, {7} AS rank_y FROM {8} "
          "WHERE {4} IS NOT NULL AND {5} IS NOT NULL)",
          pairs.empty() ? "" : " UNION ALL ", data::quote_literal(columns[i]),
          data::quote_literal(columns[j]), order++, x, y, average_rank(x), average_rank(y),
          data::quote_identifier(relation));
    }
  }
  return fmt::format(
      "SELECT \"column_x\", \"column_y\", \"pearson\", \"spearman\", \"n\" FROM ({}) ORDER BY "
      "planfirst_order",
      pairs);
}

}  // namespace

Output compute_correlations(ToolContext& ctx, const ToolParams& params) {
  core::Result<Relation> relation = current_relation(ctx, params);
  if (!relation) return relation.error();
  core::Result<std::vector<std::string>> columns = numeric_columns_param(ctx, params, *relation, "columns");
  if (!columns) return columns.error();
  if (columns->size() < 2) return params.error("columns", "needs at least two numeric columns");
  core::Result<std::string> method = params.choice("method", {"pearson", "spearman", "both"}, "pearson");
  if (!method) return method.error();
  if (*method == "both") return materialize(ctx, params, pair_coefficients(relation->name, *columns));
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
