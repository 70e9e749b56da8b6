// save_table: the current relation (or some of its columns) written as NAME.csv and NAME.md in the
// context's output folder. NAME defaults to the relation's; characters outside [A-Za-z0-9_-]
// become '_', so a name never leaves the folder.
#include <fmt/format.h>

#include <fstream>

#include "data/sql_quoting.hpp"
#include "pipelines/autoviz/tools/tool_functions.hpp"
#include "pipelines/autoviz/tools/tool_relation.hpp"
#include "pipelines/autoviz/tools/tool_sql.hpp"
#include "pipelines/autoviz/tools/tool_table_text.hpp"

namespace planfirst::autoviz::tools {
namespace {

std::string safe_file_stem(std::string_view name) {
  std::string stem;
  for (char c : name) {
    const bool kept =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    stem += kept ? c : '_';
  }
  return stem;
}

core::Result<void> write_text(const ToolParams& params, const std::filesystem::path& path,
                              const std::string& text) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file)
    return core::unavailable(fmt::format("{}: cannot write {}", params.tool(), path.string()), path.string());
  return core::ok();
}

}  // namespace

Output save_table(ToolContext& ctx, const ToolParams& params) {
  core::Result<Relation> relation = current_relation(ctx, params);
  if (!relation) return relation.error();
  core::Result<std::vector<std::string>> columns = columns_param(ctx, params, *relation, "columns");
  if (!columns) return columns.error();
  core::Result<std::optional<std::string>> name = params.optional_string("name");
  if (!name) return name.error();
  if (ctx.output_dir.empty())
    return core::failed_precondition("save_table: the context has no output folder");
  const std::string sql = fmt::format("SELECT {} FROM {}", columns->empty() ? "*" : quoted_list(*columns),
                                      data::quote_identifier(relation->name));
  core::Result<data::QueryResult> rows = run_query(ctx, params, sql);
  if (!rows) return rows.error();
  std::error_code created;
  std::filesystem::create_directories(ctx.output_dir, created);
  const std::string stem = safe_file_stem(name->value_or(relation->name));
  ToolOutput output;
  output.files = {ctx.output_dir / (stem + ".csv"), ctx.output_dir / (stem + ".md")};
  if (core::Result<void> csv = write_text(params, output.files[0], table_to_csv(*rows)); !csv)
    return csv.error();
  if (core::Result<void> md = write_text(params, output.files[1], table_to_markdown(*rows)); !md)
    return md.error();
  output.sql = sql;
  output.table = first_rows(*rows, ctx.preview_rows, output.truncated);  // the files hold every row
  output.row_count = rows->row_count();
  return output;
}

}  // namespace planfirst::autoviz::tools
