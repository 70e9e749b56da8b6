// compute_distributions: equal-width bins from each column's minimum to its maximum, every bin
// listed (empty ones with count 0); the maximum falls in the last bin.
#include <fmt/format.h>

#include "data/sql_quoting.hpp"
#include "pipelines/autoviz/tools/tool_functions.hpp"
#include "pipelines/autoviz/tools/tool_relation.hpp"
#include "pipelines/autoviz/tools/tool_sql.hpp"

namespace planfirst::autoviz::tools {
namespace {

// The CTEs planfirst_span_I (lo, hi) and planfirst_bin_I (bin per present value) of column `i`.
std::string bin_ctes(const std::string& relation, const std::string& column, std::size_t i,
                     std::int64_t bins) {
  const std::string value = fmt::format("CAST({} AS DOUBLE)", data::quote_identifier(column));
  const std::string from = data::quote_identifier(relation);
  return fmt::format(
      "planfirst_span_{0} AS (SELECT min({1}) AS lo, max({1}) AS hi FROM {2}), "
      "planfirst_bin_{0} AS (SELECT CASE WHEN s.hi = s.lo THEN 0 ELSE least(CAST(floor(({1} - s.lo) * {3} / "
      "(s.hi - s.lo)) AS BIGINT), {4}) END AS bin FROM {2}, planfirst_span_{0} s WHERE {1} IS NOT NULL)",
      i, value, from, bins, bins - 1);
}

std::string bin_counts(const std::string& column, std::size_t i, std::int64_t bins) {
  return fmt::format(
      "SELECT {1} AS \"column\", {0} AS planfirst_order, b.bin AS planfirst_bin, "
      "s.lo + b.bin * (s.hi - s.lo) / {2} AS \"bin_start\", s.lo + (b.bin + 1) * (s.hi - s.lo) / {2} AS "
      "\"bin_end\", "
      "count(v.bin) AS \"count\" FROM planfirst_bins b CROSS JOIN planfirst_span_{0} s "
      "LEFT JOIN planfirst_bin_{0} v ON v.bin = b.bin GROUP BY b.bin, s.lo, s.hi",
      i, data::quote_literal(column), bins);
}

}  // namespace

Output compute_distributions(ToolContext& ctx, const ToolParams& params) {
  core::Result<Relation> relation = current_relation(ctx, params);
  if (!relation) return relation.error();
  core::Result<std::vector<std::string>> columns = numeric_columns_param(ctx, params, *relation, "columns");
  if (!columns) return columns.error();
  core::Result<std::int64_t> bins = params.integer("bins", 10, 1);
  if (!bins) return bins.error();
  std::string ctes = fmt::format("planfirst_bins AS (SELECT range AS bin FROM range({}))", *bins);
  std::string parts;
  for (std::size_t i = 0; i < columns->size(); ++i) {
    ctes += ", " + bin_ctes(relation->name, (*columns)[i], i, *bins);
    parts += (parts.empty() ? "" : " UNION ALL ") + bin_counts((*columns)[i], i, *bins);
  }
  return materialize(ctx, params,
                     fmt::format("WITH {} SELECT \"column\", \"bin_start\", \"bin_end\", \"count\" FROM ({}) "
                                 "ORDER BY planfirst_order, planfirst_bin",
                                 ctes, parts));
}

}  // namespace planfirst::autoviz::tools
