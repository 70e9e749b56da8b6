// load_dataset and infer_schema: getting a file in, and saying what its columns are.
#include <fmt/format.h>

#include <filesystem>

#include "data/duckdb_database.hpp"
#include "data/sql_quoting.hpp"
#include "data/table_loader.hpp"
#include "data/table_profiler.hpp"
#include "pipelines/autoviz/tools/tool_functions.hpp"
#include "pipelines/autoviz/tools/tool_relation.hpp"
#include "pipelines/autoviz/tools/tool_sql.hpp"

namespace planfirst::autoviz::tools {
namespace {

std::string format_of(const std::filesystem::path& path) {
  core::Result<data::FileFormat> format = data::file_format(path);
  if (!format) return path.extension() == ".duckdb" ? "duckdb" : "";
  return *format == data::FileFormat::kParquet ? "parquet"
                                               : (*format == data::FileFormat::kJson ? "json" : "csv");
}

// A table of a DuckDB database file, copied in through a read-only ATTACH.
core::Result<void> copy_from_duckdb_file(ToolContext& ctx, const ToolParams& params,
                                         const std::filesystem::path& path, const std::string& table) {
  if (!params.has("table")) return params.error("table", "required to pick a table of a .duckdb file");
  const std::string statement = fmt::format(
      "ATTACH {} AS planfirst_source (READ_ONLY); CREATE TABLE {} AS SELECT * FROM planfirst_source.{};",
      data::quote_literal(path.string()), data::quote_identifier(table), data::quote_identifier(table));
  core::Result<void> copied = ctx.db.exec(statement);
  (void)ctx.db.exec("DETACH DATABASE IF EXISTS planfirst_source");
  if (!copied) return params.error("path", copied.error().message);
  return core::ok();
}

}  // namespace

Output load_dataset(ToolContext& ctx, const ToolParams& params) {
  core::Result<std::string> path_text = params.string("path");
  if (!path_text) return path_text.error();
  const std::filesystem::path path(*path_text);
  const std::string detected = format_of(path);
  core::Result<std::string> format = params.choice("format", {"csv", "parquet", "duckdb"}, detected);
  if (!format) return format.error();
  if (!detected.empty() && *format != detected) {
    return params.error("format",
                        fmt::format("'{}' does not match the file's extension ({})", *format, detected));
  }
  core::Result<std::optional<std::string>> table_param = params.optional_string("table");
  if (!table_param) return table_param.error();
  const std::string table = table_param->value_or(data::table_name_for(path));
  auto* duckdb = dynamic_cast<data::DuckDbDatabase*>(&ctx.db);
  if (duckdb == nullptr)
    return core::failed_precondition("load_dataset: needs a DuckDB database", "load_dataset");
  ctx.described.clear();
  if (*format == "duckdb") {
    if (core::Result<void> copied = copy_from_duckdb_file(ctx, params, path, table); !copied)
      return copied.error();
  } else if (core::Result<void> loaded = data::load_table(*duckdb, path, table); !loaded) {
    core::Error error = loaded.error();
    error.message = "load_dataset: " + error.message;
    return error;
  }
  ctx.relation = table;
  const std::string sql = fmt::format("SELECT {} AS \"table\", count(*) AS \"rows\" FROM {}",
                                      data::quote_literal(table), data::quote_identifier(table));
  core::Result<data::QueryResult> summary = run_query(ctx, params, sql);
  if (!summary) return summary.error();
  ToolOutput output;
  output.table = std::move(*summary);
  output.sql = sql;
  output.relation = table;
  return output;
}

Output infer_schema(ToolContext& ctx, const ToolParams& params) {
  core::Result<std::int64_t> sample_rows = params.integer("sample_rows", 0, 1);
  if (!sample_rows) return sample_rows.error();
  core::Result<Relation> relation = current_relation(ctx, params);
  if (!relation) return relation.error();
  std::string profiled = relation->name;
  if (*sample_rows > 0) {
    profiled = "infer_schema_sample";
    const std::string sql =
        fmt::format("CREATE OR REPLACE TEMP TABLE {} AS SELECT * FROM {} LIMIT {}",
                    data::quote_identifier(profiled), data::quote_identifier(relation->name), *sample_rows);
    if (core::Result<data::QueryResult> sampled = run_query(ctx, params, sql); !sampled)
      return sampled.error();
  }
  core::Result<data::SchemaProfile> profile = data::profile_table(ctx.db, profiled);
  if (!profile) return profile.error();
  std::vector<data::Column> columns = {{"column", data::ColumnType::kText, "VARCHAR", {}},
                                       {"sql_type", data::ColumnType::kText, "VARCHAR", {}},
                                       {"role", data::ColumnType::kText, "VARCHAR", {}},
                                       {"null_count", data::ColumnType::kInteger, "BIGINT", {}},
                                       {"distinct_count", data::ColumnType::kInteger, "BIGINT", {}}};
  for (const data::ColumnProfile& column : profile->columns) {
    columns[0].values.emplace_back(column.name);
    columns[1].values.emplace_back(column.sql_type);
    columns[2].values.emplace_back(data::to_string(column.role));
    columns[3].values.emplace_back(column.null_count);
    columns[4].values.emplace_back(column.distinct_count);
  }
  ToolOutput output;
  output.table = data::QueryResult(std::move(columns));
  return output;
}

}  // namespace planfirst::autoviz::tools
