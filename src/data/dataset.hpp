// open_dataset opens what a user names as DATA: a .duckdb/.ddb file read-only, or a CSV, Parquet or
// JSON file loaded into a fresh in-memory DuckDB, and says which table holds the data. Errors name
// the file: kNotFound for a missing file, kInvalidArgument for a bad format or an unknown table,
// kFailedPrecondition when a database holds several tables and none was chosen (listing them).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "data/duckdb_database.hpp"

namespace planfirst::data {

struct OpenedDataset {
  std::unique_ptr<DuckDbDatabase> db;
  std::string table;  // the table to read
};

// `table`: the table (or view) to use, matched as DuckDB matches names (case-insensitively); empty
// picks the only table of a database file, or names a loaded file's table after the file
// (table_name_for).
core::Result<OpenedDataset> open_dataset(const std::filesystem::path& path, std::string_view table = {});

// open_dataset in two parts, for a caller that opens early and learns the table later: the file
// opened (a DuckDB file read-only, or a loaded file's in-memory database holding the one table it
// was loaded as, named `table` or after the file), then the table chosen as open_dataset chooses it.
struct OpenedFile {
  std::unique_ptr<DuckDbDatabase> db;
  std::string loaded_table;  // a loaded file's table; empty for a DuckDB file
};
core::Result<OpenedFile> open_dataset_file(const std::filesystem::path& path, std::string_view table = {});
core::Result<std::string> choose_table(OpenedFile& file, const std::filesystem::path& path,
                                       std::string_view table);

bool is_duckdb_file(const std::filesystem::path& path);  // by extension: .duckdb, .ddb

}  // namespace planfirst::data
