#include "data/dataset.hpp"

#include <algorithm>
#include <system_error>
#include <vector>

#include "core/join.hpp"
#include "data/sql_quoting.hpp"
#include "data/table_loader.hpp"

namespace planfirst::data {
namespace {

core::Result<std::string> pick_table(const std::string& file, const std::vector<std::string>& tables,
                                     std::string_view wanted) {
  if (!wanted.empty()) {
    if (std::find(tables.begin(), tables.end(), wanted) != tables.end()) return std::string(wanted);
    return core::invalid_argument(
        file + ": no table \"" + std::string(wanted) + "\"; tables: " + core::join(tables), file);
  }
  if (tables.size() == 1) return tables.front();
  if (tables.empty()) return core::invalid_argument(file + ": the database holds no tables", file);
  return core::invalid_argument(file + " holds " + std::to_string(tables.size()) +
                                    " tables; pick one with --table: " + core::join(tables),
                                file);
}

// Whether the file's own schema holds `table` (or a view of that name), probed with LIMIT 0 under
// its full name, so neither a system view nor a file read by name can answer: listing the catalog
// costs a cold connection ~7 ms, the probe ~1 ms. The list is read only to pick the one table or
// to name the choices in an error.
bool holds_table(DuckDbDatabase& db, std::string_view table) {
  core::Result<QueryResult> schema = db.query("SELECT current_database(), current_schema()");
  if (!schema || schema->row_count() != 1) return false;
  const std::string name = quote_identifier(schema->at(0, 0).to_string()) + "." +
                           quote_identifier(schema->at(0, 1).to_string()) + "." + quote_identifier(table);
  return db.query("SELECT * FROM " + name + " LIMIT 0").has_value();
}

}  // namespace

bool is_duckdb_file(const std::filesystem::path& path) {
  const std::string extension = path.extension().string();
  return extension == ".duckdb" || extension == ".ddb";
}

core::Result<OpenedFile> open_dataset_file(const std::filesystem::path& path, std::string_view table) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    return core::not_found(path.string() + ": file not found", path.string());
  if (std::filesystem::is_directory(path, ec)) {
    return core::invalid_argument(
        "is a directory; pass a data file (.csv, .tsv, .parquet, .json, .jsonl, .ndjson, .duckdb)",
        path.string());
  }
  if (is_duckdb_file(path)) {
    DatabaseOptions read_only;
    read_only.read_only = true;
    core::Result<std::unique_ptr<DuckDbDatabase>> db = DuckDbDatabase::open(path.string(), read_only);
    if (!db) return db.error();
    return OpenedFile{std::move(*db), {}};
  }
  if (core::Result<FileFormat> format = file_format(path); !format) return format.error();
  core::Result<std::unique_ptr<DuckDbDatabase>> db = DuckDbDatabase::open(":memory:");
  if (!db) return db.error();
  std::string name = table.empty() ? table_name_for(path) : std::string(table);
  if (core::Result<void> loaded = load_table(**db, path, name); !loaded) return loaded.error();
  return OpenedFile{std::move(*db), std::move(name)};
}

core::Result<std::string> choose_table(OpenedFile& file, const std::filesystem::path& path,
                                       std::string_view table) {
  if (!file.loaded_table.empty()) {
    if (table.empty() || table == file.loaded_table) return file.loaded_table;
    return core::invalid_argument(
        path.string() + ": no table \"" + std::string(table) + "\"; tables: " + file.loaded_table,
        path.string());
  }
  if (!table.empty() && holds_table(*file.db, table)) return std::string(table);
  core::Result<std::vector<std::string>> tables = file.db->table_names();
  if (!tables) return tables.error();
  return pick_table(path.string(), *tables, table);
}

core::Result<OpenedDataset> open_dataset(const std::filesystem::path& path, std::string_view table) {
  core::Result<OpenedFile> file = open_dataset_file(path, table);
  if (!file) return file.error();
  core::Result<std::string> chosen = choose_table(*file, path, table);
  if (!chosen) return chosen.error();
  return OpenedDataset{std::move(file->db), std::move(*chosen)};
}

}  // namespace planfirst::data
