// load_table copies a CSV, Parquet or JSON file into a new DuckDB table, choosing the reader by the
// file's extension. CSV goes through DuckDB's sniffer with '"' as the quote; a file the sniffer
// cannot read is re-read strictly to find the row at fault, so malformed input fails naming the
// file and line (Error::where is "FILE:LINE") instead of loading a silently mis-parsed table. A CSV
// field that is empty or reads NULL is a missing value.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace planfirst::data {
class DuckDbDatabase;

enum class FileFormat { kCsv, kParquet, kJson };

// Changes when the same file loads into other values or types (a profile of it is then stale).
inline constexpr int kTableLoaderRevision = 2;  // 2: CSV fields reading NULL are missing values

// .csv/.tsv -> kCsv, .parquet -> kParquet, .json/.jsonl/.ndjson -> kJson, each also with .gz;
// case-insensitive. Anything else: kInvalidArgument naming the file and the accepted extensions.
core::Result<FileFormat> file_format(const std::filesystem::path& path);

// A table name for a file: its stem with every character outside [A-Za-z0-9_] replaced by '_'
// ("monthly sales.csv" -> "monthly_sales"; "2024.csv" -> "t_2024").
std::string table_name_for(const std::filesystem::path& path);

// Creates `table_name` from the file at `path`. Errors: kNotFound naming a missing file,
// kInvalidArgument for an unsupported extension, a malformed file (with FILE:LINE for CSV when
// DuckDB reports the line) or a table that already exists.
core::Result<void> load_table(DuckDbDatabase& db, const std::filesystem::path& path,
                              std::string_view table_name);

}  // namespace planfirst::data
