// filter_rows: a structured condition on one column; its values are bound as parameters, never
// pasted into the SQL. A filter that keeps no row is an error (the issue's "empty result after
// filters"), so a plan never charts nothing.
#include <fmt/format.h>

#include <algorithm>

#include "core/date_parse.hpp"
#include "data/sql_quoting.hpp"
#include "data/text_timestamp.hpp"
#include "pipelines/autoviz/tools/tool_functions.hpp"
#include "pipelines/autoviz/tools/tool_relation.hpp"
#include "pipelines/autoviz/tools/tool_sql.hpp"

namespace planfirst::autoviz::tools {
namespace {

std::string placeholders(std::size_t count) {
  std::string text;
  for (std::size_t i = 1; i <= count; ++i) text += fmt::format("{}${}", i == 1 ? "" : ", ", i);
  return text;
}

// The WHERE condition for `op` over `column` with `values` bound to $1..$n.
core::Result<std::string> condition(const ToolParams& params, const std::string& op,
                                    const std::string& column, std::vector<data::Value>& values) {
  const bool listed =
      op == "in" || op == "not_in" || ((op == "contains" || op == "not_contains") && values.size() > 1);
  const bool range = op == "between" || op == "not_between";
  const bool single = !listed && !range;
  if (single && values.size() != 1) return params.error("value", fmt::format("op '{}' takes one value", op));
  if (range && values.size() != 2) return params.error("value", fmt::format("op '{}' takes [low, high]", op));
  if ((op == "in" || op == "not_in") && values.empty())
    return params.error("value", "expected at least one value");
  if (single && values[0].is_null()) {
    if (op != "=" && op != "!=")
      return params.error("value", fmt::format("op '{}' cannot compare with null", op));
    values.clear();
    return fmt::format("{} IS {}NULL", column, op == "=" ? "" : "NOT ");
  }
  if (op == "contains" || op == "not_contains") {  // any of a list (not_contains: none), case aside like LIKE
    std::string any;
    for (std::size_t i = 1; i <= values.size(); ++i) {
      any += fmt::format("{}contains(lower(CAST({} AS VARCHAR)), lower(CAST(${} AS VARCHAR)))",
                         i == 1 ? "" : " OR ", column, i);
    }
    return fmt::format("{}({})", op == "contains" ? "" : "NOT ", any);
  }
  if (op == "between") return fmt::format("{} BETWEEN $1 AND $2", column);
  if (op == "not_between") return fmt::format("{} NOT BETWEEN $1 AND $2", column);
  if (op == "in") return fmt::format("{} IN ({})", column, placeholders(values.size()));
  if (op == "not_in") return fmt::format("{} NOT IN ({})", column, placeholders(values.size()));
  return fmt::format("{} {} $1", column, op == "!=" ? "<>" : op);
}

// Whether `values` are all ISO dates ("1986-01-01"), as the planner states a date's bounds.
bool iso_dates(const std::vector<data::Value>& values) {
  return !values.empty() && std::all_of(values.begin(), values.end(), [](const data::Value& value) {
    if (value.kind() != data::Value::Kind::kText) return false;
    const core::Result<core::ParsedDate> date = core::parse_date(value.as_text());
    return date && date->format == core::DateFormat::kIsoDate;
  });
}

// The column as the condition compares it: dates spelled as text ("May 26, 1986") are read as the
// profile reads them when the question bounds them by dates ("born after 1985": from 1986-01-01).
std::string compared_column(const Relation& relation, const std::string& column, const std::string& op,
                            const std::vector<data::Value>& values) {
  const std::string quoted = data::quote_identifier(column);
  const bool bounds =
      op == ">" || op == ">=" || op == "<" || op == "<=" || op == "between" || op == "not_between";
  const data::Column* found = relation.find(column);
  if (!bounds || found == nullptr || found->type != data::ColumnType::kText || !iso_dates(values))
    return quoted;
  return data::duckdb_text_timestamp(quoted);
}

// "2031-01-01" or "North, South": the values a filter was given, as the message names them.
std::string values_text(const std::vector<data::Value>& values) {
  std::string text;
  for (const data::Value& value : values) text += (text.empty() ? "" : ", ") + value.to_string();
  return text;
}

// " (date runs from 2023-01-01 to 2024-12-31)": the range of a column of numbers or dates before
// the filter, so an empty filter says where the data lies; "" for other columns.
std::string range_text(ToolContext& ctx, const ToolParams& params, const Relation& relation,
                       const std::string& column) {
  const data::Column* found = relation.find(column);
  if (found == nullptr || !(is_numeric(found->type) || is_temporal(found->type))) return "";
  const std::string quoted = data::quote_identifier(column);
  core::Result<data::QueryResult> range =
      run_query(ctx, params,
                fmt::format("SELECT CAST(min({0}) AS VARCHAR), CAST(max({0}) AS VARCHAR) FROM {1}", quoted,
                            data::quote_identifier(relation.name)),
                {});
  if (!range || range->row_count() != 1 || range->at(0, 0).is_null()) return "";
  return fmt::format(" ({} runs from {} to {})", column, range->at(0, 0).to_string(),
                     range->at(0, 1).to_string());
}

}  // namespace

Output filter_rows(ToolContext& ctx, const ToolParams& params) {
  core::Result<Relation> relation = current_relation(ctx, params);
  if (!relation) return relation.error();
  core::Result<std::string> column = column_param(ctx, params, *relation, "column");
  if (!column) return column.error();
  core::Result<std::string> op = params.choice(
      "op",
      {"=", "!=", ">", ">=", "<", "<=", "in", "not_in", "between", "not_between", "contains", "not_contains"},
      "");
  if (!op) return op.error();
  if (op->empty()) return params.error("op", "required");
  core::Result<std::vector<data::Value>> values = params.values("value");
  if (!values) return values.error();
  core::Result<std::string> where =
      condition(params, *op, compared_column(*relation, *column, *op, *values), *values);
  if (!where) return where.error();
  const std::string previous = ctx.relation;
  core::Result<ToolOutput> output = materialize(
      ctx, params, fmt::format("SELECT * FROM {} WHERE {}", data::quote_identifier(relation->name), *where),
      *values);
  if (output && output->table->row_count() == 0) {
    ctx.relation = previous;
    return params.error("value",
                        fmt::format("no row has {} {} {}{}; the result would be empty", *column, *op,
                                    values_text(*values), range_text(ctx, params, *relation, *column)));
  }
  return output;
}

}  // namespace planfirst::autoviz::tools
