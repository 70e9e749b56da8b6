// sort_limit: rows ordered by one column (missing values last), ties kept in their input order,
// optionally cut to the top k.
#include <fmt/format.h>

#include "data/sql_quoting.hpp"
#include "pipelines/autoviz/tools/tool_functions.hpp"
#include "pipelines/autoviz/tools/tool_relation.hpp"
#include "pipelines/autoviz/tools/tool_sql.hpp"

namespace planfirst::autoviz::tools {

Output sort_limit(ToolContext& ctx, const ToolParams& params) {
  core::Result<Relation> relation = ordered_relation(ctx, params);  // orders by rowid
  if (!relation) return relation.error();
  core::Result<std::string> by = column_param(ctx, params, *relation, "by");
  if (!by) return by.error();
  core::Result<std::string> direction = params.choice("direction", {"asc", "desc"}, "desc");
  if (!direction) return direction.error();
  core::Result<std::int64_t> limit = params.integer("limit", 0, 1);
  if (!limit) return limit.error();
  return materialize(
      ctx, params,
      fmt::format("SELECT * FROM {} ORDER BY {} {} NULLS LAST, rowid{}",
                  data::quote_identifier(relation->name), data::quote_identifier(*by),
                  *direction == "asc" ? "ASC" : "DESC", *limit > 0 ? fmt::format(" LIMIT {}", *limit) : ""));
}

}  // namespace planfirst::autoviz::tools
