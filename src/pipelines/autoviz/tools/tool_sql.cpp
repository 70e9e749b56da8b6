#include "pipelines/autoviz/tools/tool_sql.hpp"

#include <fmt/format.h>

#include "data/database.hpp"
#include "data/schema_profile.hpp"
#include "data/sql_quoting.hpp"

namespace planfirst::autoviz {

core::Result<data::QueryResult> run_query(ToolContext& ctx, const ToolParams& params, const std::string& sql,
                                          const std::vector<data::Value>& values) {
  core::Result<data::QueryResult> result = ctx.db.query(sql, values);
  if (!result) {
    return core::Error{result.error().code, fmt::format("{}: {}", params.tool(), result.error().message),
                       result.error().where.empty() ? params.tool() : result.error().where};
  }
  return result;
}

void prepare_previews(ToolContext& ctx) {
  (void)ctx.db.exec(fmt::format("SET late_materialization_max_rows = {}", ctx.preview_rows + 1));
}

void adopt_profile_spans(ToolContext& ctx, const data::SchemaProfile& profile) {
  ctx.profiled_relation.clear();
  ctx.profiled_spans.clear();
  if (ctx.relation.empty() || profile.table != ctx.relation) return;
  core::Result<data::QueryResult> rows =
      ctx.db.query(fmt::format("SELECT count(*) FROM {}", data::quote_identifier(ctx.relation)));
  if (!rows || rows->at(0, 0).is_null() || rows->at(0, 0).as_int() != profile.row_count) return;
  ctx.profiled_relation = ctx.relation;
  for (const data::ColumnProfile& column : profile.columns) {
    const bool zoned = column.sql_type.find("TIME ZONE") != std::string::npos;
    if (data::is_temporal(column.type) && !zoned && column.span)
      ctx.profiled_spans[column.name] = *column.span;
  }
}

data::QueryResult first_rows(const data::QueryResult& result, std::size_t max_rows, bool& truncated) {
  truncated = result.row_count() > max_rows;
  if (!truncated) return result;
  std::vector<data::Column> columns = result.columns();
  for (data::Column& column : columns) column.values.resize(max_rows);
  return data::QueryResult(std::move(columns));
}

namespace {

// Creates the next relation, a TEMP `kind` ("TABLE" or "VIEW") named after the tool, from
// `select_sql`, makes it current and returns its first `max_rows` rows.
core::Result<ToolOutput> create_relation(ToolContext& ctx, const ToolParams& params, std::string_view kind,
                                         std::size_t max_rows, const std::string& select_sql,
                                         const std::vector<data::Value>& values) {
  const std::string name = fmt::format("{}_{}", params.tool(), ++ctx.steps);
  const std::string quoted = data::quote_identifier(name);
  ctx.described.clear();
  core::Result<data::QueryResult> created = run_query(
      ctx, params, fmt::format("CREATE OR REPLACE TEMP {} {} AS {}", kind, quoted, select_sql), values);
  if (!created) return created.error();
  core::Result<data::QueryResult> rows =
      run_query(ctx, params, fmt::format("SELECT * FROM {} LIMIT {}", quoted, max_rows + 1));
  if (!rows) return rows.error();
  ToolOutput output;
  output.table = first_rows(*rows, max_rows, output.truncated);
  output.sql = select_sql;
  output.relation = name;
  ctx.relation = name;
  return output;
}

}  // namespace

core::Result<ToolOutput> materialize(ToolContext& ctx, const ToolParams& params,
                                     const std::string& select_sql, const std::vector<data::Value>& values) {
  return create_relation(ctx, params, "TABLE", ctx.max_rows, select_sql, values);
}

core::Result<ToolOutput> derive(ToolContext& ctx, const ToolParams& params, const std::string& select_sql) {
  return create_relation(ctx, params, "VIEW", ctx.preview_rows, select_sql, {});
}

core::Result<ToolOutput> unchanged(ToolContext& ctx, const ToolParams& params) {
  const std::string select = fmt::format("SELECT * FROM {}", data::quote_identifier(ctx.relation));
  core::Result<data::QueryResult> rows =
      run_query(ctx, params, fmt::format("{} LIMIT {}", select, ctx.preview_rows + 1));
  if (!rows) return rows.error();
  ToolOutput output;
  output.table = first_rows(*rows, ctx.preview_rows, output.truncated);
  output.sql = select;
  output.relation = ctx.relation;
  return output;
}

std::string select_replacing(std::string_view relation,
                             const std::vector<std::pair<std::string, std::string>>& column_expressions) {
  std::string replaced;
  for (const auto& [column, expression] : column_expressions) {
    replaced +=
        fmt::format("{}{} AS {}", replaced.empty() ? "" : ", ", expression, data::quote_identifier(column));
  }
  return fmt::format("SELECT * REPLACE ({}) FROM {}", replaced, data::quote_identifier(relation));
}

std::string quoted_list(const std::vector<std::string>& names, std::string_view prefix) {
  std::string text;
  for (const std::string& name : names) {
    text += fmt::format("{}{}{}", text.empty() ? "" : ", ", prefix, data::quote_identifier(name));
  }
  return text;
}

}  // namespace planfirst::autoviz
