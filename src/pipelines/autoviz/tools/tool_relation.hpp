// Relation is the table a tool reads: its name and its columns' names and types. Column parameters
// resolve against it: an exact name wins; a name that differs only in case is a safe repair (seed
// §7), applied and logged in the context; anything else is kInvalidArgument naming the tool, the
// param and the columns the table has.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "data/query_result.hpp"
#include "pipelines/autoviz/tools/tool_context.hpp"
#include "pipelines/autoviz/tools/tool_params.hpp"

namespace planfirst::autoviz {

struct Relation {
  std::string name;
  std::vector<data::Column> columns;  // names and types, no values

  const data::Column* find(std::string_view column) const;
  std::string column_names() const;  // "date, region, revenue"
  std::vector<std::string> numeric_columns() const;
};

using data::is_numeric;
using data::is_temporal;

// The context's current relation. kFailedPrecondition when no dataset is loaded yet.
core::Result<Relation> current_relation(ToolContext& ctx, const ToolParams& params);
// The current relation as a table, whose rowid keeps the rows' order: a view (derive() in
// tool_sql.hpp) is first materialized as the next relation. For tools that order by rowid.
core::Result<Relation> ordered_relation(ToolContext& ctx, const ToolParams& params);
// The columns of the relation `name`, from ToolContext::described or by reading it with LIMIT 0.
core::Result<std::vector<data::Column>> relation_columns(ToolContext& ctx, const std::string& name);
// relation_columns as a Relation; an engine error gains the tool's name.
core::Result<Relation> describe_relation(ToolContext& ctx, const ToolParams& params, const std::string& name);

// `name` as a column of `relation` (see above); `param` names the parameter it came from.
core::Result<std::string> resolve_column(ToolContext& ctx, const ToolParams& params, const Relation& relation,
                                         std::string_view param, std::string_view name);
// A required string param naming a column.
core::Result<std::string> column_param(ToolContext& ctx, const ToolParams& params, const Relation& relation,
                                       std::string_view param);
core::Result<std::optional<std::string>> optional_column_param(ToolContext& ctx, const ToolParams& params,
                                                               const Relation& relation,
                                                               std::string_view param);
// A list param of columns; absent reads as empty.
core::Result<std::vector<std::string>> columns_param(ToolContext& ctx, const ToolParams& params,
                                                     const Relation& relation, std::string_view param);
// A list param of numeric columns; every numeric column of the relation when absent.
core::Result<std::vector<std::string>> numeric_columns_param(ToolContext& ctx, const ToolParams& params,
                                                             const Relation& relation,
                                                             std::string_view param);
// A required param naming a numeric column.
core::Result<std::string> numeric_column_param(ToolContext& ctx, const ToolParams& params,
                                               const Relation& relation, std::string_view param);
// A required param naming a date or timestamp column; text is refused with a pointer to parse_datetime.
core::Result<std::string> temporal_column_param(ToolContext& ctx, const ToolParams& params,
                                                const Relation& relation, std::string_view param);
// kInvalidArgument unless `column` holds numbers.
core::Result<void> require_numeric(const ToolParams& params, const Relation& relation, std::string_view param,
                                   std::string_view column);

// `func` (an aggregate, or count_distinct) over `column` of `relation` as SQL. Sums and means of
// floating-point columns add exact decimals (10 places), so the result does not depend on the order
// parallel threads add rows in: the same data gives the same bytes. The sample standard deviation
// (NULL for fewer than two values) is taken over each group's values in sorted order, for the same reason.
std::string aggregate_expression(std::string_view func, const std::string& column, const Relation& relation);

}  // namespace planfirst::autoviz
