#include "pipelines/autoviz/tools/tool_relation.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/ascii_case.hpp"
#include "data/database.hpp"
#include "data/sql_quoting.hpp"
#include "pipelines/autoviz/tools/tool_sql.hpp"

namespace planfirst::autoviz {

const data::Column* Relation::find(std::string_view column) const {
  for (const data::Column& candidate : columns) {
    if (candidate.name == column) return &candidate;
  }
  return nullptr;
}

std::string Relation::column_names() const {
  std::string text;
  for (const data::Column& column : columns) text += (text.empty() ? "" : ", ") + column.name;
  return text;
}

std::vector<std::string> Relation::numeric_columns() const {
  std::vector<std::string> names;
  for (const data::Column& column : columns) {
    if (is_numeric(column.type)) names.push_back(column.name);
  }
  return names;
}

core::Result<std::vector<data::Column>> relation_columns(ToolContext& ctx, const std::string& name) {
  if (const auto known = ctx.described.find(name); known != ctx.described.end()) return known->second;
  core::Result<data::QueryResult> empty =
      ctx.db.query(fmt::format("SELECT * FROM {} LIMIT 0", data::quote_identifier(name)));
  if (!empty) return empty.error();
  return ctx.described[name] = empty->columns();
}

core::Result<Relation> describe_relation(ToolContext& ctx, const ToolParams& params,
                                         const std::string& name) {
  core::Result<std::vector<data::Column>> columns = relation_columns(ctx, name);
  if (!columns) {
    return core::Error{columns.error().code, fmt::format("{}: {}", params.tool(), columns.error().message),
                       name};
  }
  return Relation{name, std::move(*columns)};
}

core::Result<Relation> current_relation(ToolContext& ctx, const ToolParams& params) {
  if (ctx.relation.empty()) {
    return core::failed_precondition(
        fmt::format("{}: no dataset loaded; run load_dataset first", params.tool()), params.tool());
  }
  return describe_relation(ctx, params, ctx.relation);
}

core::Result<Relation> ordered_relation(ToolContext& ctx, const ToolParams& params) {
  core::Result<Relation> relation = current_relation(ctx, params);
  if (!relation) return relation;
  core::Result<data::QueryResult> views =
      run_query(ctx, params, "SELECT count(*) FROM duckdb_views() WHERE temporary AND view_name = $1",
                {data::Value(relation->name)});
  if (!views) return views.error();
  if (views->at(0, 0).as_int() == 0) return relation;
  core::Result<ToolOutput> table =
      materialize(ctx, params, fmt::format("SELECT * FROM {}", data::quote_identifier(relation->name)));
  if (!table) return table.error();
  relation->name = table->relation;  // a copy of every column: the same columns
  return relation;
}

core::Result<std::string> resolve_column(ToolContext& ctx, const ToolParams& params, const Relation& relation,
                                         std::string_view param, std::string_view name) {
  if (relation.find(name) != nullptr) return std::string(name);
  std::vector<std::string> matches;
  for (const data::Column& column : relation.columns) {
    if (core::iequals_ascii(column.name, name)) matches.push_back(column.name);
  }
  if (matches.size() == 1) {
    ctx.repairs.push_back(
        {params.tool(), std::string(param), std::string(name), matches[0], "column-name casing"});
    return matches[0];
  }
  return params.error(param,
                      fmt::format("unknown column '{}'; the table has: {}", name, relation.column_names()));
}

core::Result<std::string> column_param(ToolContext& ctx, const ToolParams& params, const Relation& relation,
                                       std::string_view param) {
  core::Result<std::string> name = params.string(param);
  if (!name) return name.error();
  return resolve_column(ctx, params, relation, param, *name);
}

core::Result<std::optional<std::string>> optional_column_param(ToolContext& ctx, const ToolParams& params,
                                                               const Relation& relation,
                                                               std::string_view param) {
  if (!params.has(param)) return std::optional<std::string>();
  core::Result<std::string> name = column_param(ctx, params, relation, param);
  if (!name) return name.error();
  return std::optional<std::string>(*name);
}

core::Result<std::vector<std::string>> columns_param(ToolContext& ctx, const ToolParams& params,
                                                     const Relation& relation, std::string_view param) {
  core::Result<std::vector<std::string>> names = params.strings(param);
  if (!names) return names.error();
  std::vector<std::string> resolved;
  for (const std::string& name : *names) {
    core::Result<std::string> column = resolve_column(ctx, params, relation, param, name);
    if (!column) return column.error();
    resolved.push_back(*column);
  }
  return resolved;
}

core::Result<void> require_numeric(const ToolParams& params, const Relation& relation, std::string_view param,
                                   std::string_view column) {
  const data::Column* found = relation.find(column);
  if (found != nullptr && is_numeric(found->type)) return core::ok();
  return params.error(param, fmt::format("column '{}' is {}, not numeric", column,
                                         found == nullptr ? "missing" : found->sql_type));
}

// Numeric columns of `param`; all numeric columns of the relation when absent.
core::Result<std::vector<std::string>> numeric_columns_param(ToolContext& ctx, const ToolParams& params,
                                                             const Relation& relation,
                                                             std::string_view param) {
  core::Result<std::vector<std::string>> columns = columns_param(ctx, params, relation, param);
  if (!columns) return columns.error();
  if (columns->empty()) *columns = relation.numeric_columns();
  if (columns->empty()) return params.error(param, "the table has no numeric column");
  for (const std::string& column : *columns) {
    if (core::Result<void> numeric = require_numeric(params, relation, param, column); !numeric) {
      return numeric.error();
    }
  }
  return columns;
}

// A temporal column of `param`; text is refused with a pointer to parse_datetime.
core::Result<std::string> temporal_column_param(ToolContext& ctx, const ToolParams& params,
                                                const Relation& relation, std::string_view param) {
  core::Result<std::string> column = column_param(ctx, params, relation, param);
  if (!column) return column.error();
  const data::Column* found = relation.find(*column);
  if (!is_temporal(found->type)) {
    return params.error(
        param, fmt::format("column '{}' is {}, not a date or timestamp; run parse_datetime first", *column,
                           found->sql_type));
  }
  return column;
}

// A required param naming a numeric column.
core::Result<std::string> numeric_column_param(ToolContext& ctx, const ToolParams& params,
                                               const Relation& relation, std::string_view param) {
  core::Result<std::string> column = column_param(ctx, params, relation, param);
  if (!column) return column.error();
  if (core::Result<void> numeric = require_numeric(params, relation, param, *column); !numeric)
    return numeric.error();
  return column;
}

std::string aggregate_expression(std::string_view func, const std::string& column, const Relation& relation) {
  const std::string quoted = data::quote_identifier(column);
  if (func == "count_distinct") return fmt::format("count(DISTINCT {})", quoted);
  if (func == "stddev") return fmt::format("list_aggregate(list_sort(list({})), 'stddev_samp')", quoted);
  const data::Column* typed = relation.find(column);
  if ((func == "sum" || func == "avg") && typed != nullptr && typed->type == data::ColumnType::kDouble) {
    return fmt::format("CAST({}(CAST({} AS DECIMAL(38, 10))) AS DOUBLE)", func, quoted);
  }
  return fmt::format("{}({})", func, quoted);
}

}  // namespace planfirst::autoviz
