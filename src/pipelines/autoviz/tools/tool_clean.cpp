// parse_datetime and cast_types: columns recomputed in place, every row kept in order, as views the
// next query computes; a column that already holds dates or timestamps is left as it is.
#include <fmt/format.h>

#include <map>

#include "data/sql_quoting.hpp"
#include "data/text_timestamp.hpp"
#include "pipelines/autoviz/tools/tool_functions.hpp"
#include "pipelines/autoviz/tools/tool_relation.hpp"
#include "pipelines/autoviz/tools/tool_sql.hpp"

namespace planfirst::autoviz::tools {
namespace {

// What parsing `column` with `parsed` (an expression over it) would give: how many present values
// fail, one of them, and whether every parsed value falls on midnight (a date, not a timestamp).
struct ParseCheck {
  std::int64_t failures = 0;
  std::string example;
  bool dates_only = true;
};

core::Result<ParseCheck> check_parse(ToolContext& ctx, const ToolParams& params, const std::string& relation,
                                     const std::string& column, const std::string& parsed,
                                     const std::vector<data::Value>& values) {
  const std::string quoted = data::quote_identifier(column);
  const std::string failed = fmt::format("{} IS NOT NULL AND {} IS NULL", quoted, parsed);
  const std::string sql = fmt::format(
      "SELECT count(*) FILTER (WHERE {0}), min(CAST({1} AS VARCHAR)) FILTER (WHERE {0}), "
      "coalesce(bool_and({2} = CAST(CAST({2} AS DATE) AS TIMESTAMP)), true) FROM {3}",
      failed, quoted, parsed, data::quote_identifier(relation));
  core::Result<data::QueryResult> row = run_query(ctx, params, sql, values);
  if (!row) return row.error();
  ParseCheck check;
  check.failures = row->at(0, 0).as_int();
  if (!row->at(0, 1).is_null()) check.example = row->at(0, 1).as_text();
  check.dates_only = row->at(0, 2).as_bool();
  return check;
}

}  // namespace

Output parse_datetime(ToolContext& ctx, const ToolParams& params) {
  core::Result<Relation> relation = current_relation(ctx, params);
  if (!relation) return relation.error();
  core::Result<std::string> column = column_param(ctx, params, *relation, "column");
  if (!column) return column.error();
  core::Result<std::optional<std::string>> format = params.optional_string("format");
  if (!format) return format.error();
  const data::ColumnType type = relation->find(*column)->type;
  if (!format->has_value() && is_temporal(type)) return unchanged(ctx, params);  // already parsed
  const std::string quoted = data::quote_identifier(*column);
  const std::string text = fmt::format("CAST({} AS VARCHAR)", quoted);
  std::vector<data::Value> values;
  std::string parsed = data::duckdb_text_timestamp(text);  // as the profile reads dates
  if (format->has_value()) {
    parsed = fmt::format("try_strptime({}, $1)", text);
    values.emplace_back(**format);
  } else if (type == data::ColumnType::kInteger) {  // bare years: 1 January
    parsed = fmt::format(
        "CASE WHEN {0} BETWEEN 1000 AND 9999 THEN CAST(make_date(CAST({0} AS INTEGER), 1, 1) AS TIMESTAMP) "
        "END",
        quoted);
  }
  core::Result<ParseCheck> check = check_parse(ctx, params, relation->name, *column, parsed, values);
  if (!check) return check.error();
  if (check->failures > 0) {
    return params.error("column", fmt::format("{} value(s) of '{}' are not dates or timestamps, e.g. '{}'",
                                              check->failures, *column, check->example));
  }
  if (check->dates_only) parsed = fmt::format("CAST({} AS DATE)", parsed);
  const std::string select = select_replacing(relation->name, {{*column, parsed}});
  return values.empty() ? derive(ctx, params, select) : materialize(ctx, params, select, values);
}

Output cast_types(ToolContext& ctx, const ToolParams& params) {
  static const std::map<std::string, std::string, std::less<>> kSqlTypes = {
      {"integer", "BIGINT"},  {"double", "DOUBLE"}, {"string", "VARCHAR"},
      {"boolean", "BOOLEAN"}, {"date", "DATE"},     {"timestamp", "TIMESTAMP"}};
  core::Result<Relation> relation = current_relation(ctx, params);
  if (!relation) return relation.error();
  core::Result<std::vector<std::string>> columns = columns_param(ctx, params, *relation, "columns");
  if (!columns) return columns.error();
  if (columns->empty()) return params.error("columns", "required: at least one column");
  core::Result<std::string> to_type =
      params.choice("to_type", {"integer", "double", "string", "boolean", "date", "timestamp"}, "");
  if (!to_type) return to_type.error();
  if (to_type->empty()) return params.error("to_type", "required");
  std::vector<std::pair<std::string, std::string>> casts;
  for (const std::string& column : *columns) {
    casts.emplace_back(column, fmt::format("CAST({} AS {})", data::quote_identifier(column),
                                           kSqlTypes.find(*to_type)->second));
  }
  return derive(ctx, params, select_replacing(relation->name, casts));
}

}  // namespace planfirst::autoviz::tools
