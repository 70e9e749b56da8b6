// planfirst profile DATA [--json] [--table NAME]: what each column of a dataset is (type, role,
// nulls, distinct values, range, top values, temporal span), as a table or as JSON.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "data/duckdb_database.hpp"
#include "data/table_loader.hpp"
#include "data/table_profiler.hpp"
#include "planfirst/cli.hpp"

namespace planfirst::cli {
namespace {

struct ProfileOptions {
  std::string data;
  std::string table;
  bool json = false;
};

int fail(const std::string& message, int code) {
  std::cerr << "planfirst profile: " << message << "\n";
  return code;
}

int fail(const core::Error& error) {
  const int code = error.code == core::ErrorCode::kInternal ? kExitCheckFailed : kExitInputError;
  return fail(error.describe(), code);
}

std::string joined(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

bool is_duckdb_file(const std::filesystem::path& path) {
  const std::string extension = path.extension().string();
  return extension == ".duckdb" || extension == ".ddb";
}

// Opens DATA: a .duckdb file read-only, or a CSV/Parquet/JSON file loaded into an in-memory
// database. Sets `table` to the table to profile; returns nullptr after reporting a failure.
std::unique_ptr<data::DuckDbDatabase> open_data(const ProfileOptions& options, std::string& table,
                                                int& exit_code) {
  const std::filesystem::path path(options.data);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    exit_code = fail(options.data + ": file not found", kExitInputError);
    return nullptr;
  }
  if (is_duckdb_file(path)) {
    data::DatabaseOptions read_only;
    read_only.read_only = true;
    core::Result<std::unique_ptr<data::DuckDbDatabase>> db =
        data::DuckDbDatabase::open(options.data, read_only);
    if (!db) {
      exit_code = fail(db.error());
      return nullptr;
    }
    core::Result<std::vector<std::string>> tables = (*db)->table_names();
    if (!tables) {
      exit_code = fail(tables.error());
      return nullptr;
    }
    if (!options.table.empty()) {
      if (std::find(tables->begin(), tables->end(), options.table) == tables->end()) {
        exit_code = fail(options.data + ": no table \"" + options.table + "\"; tables: " + joined(*tables),
                         kExitInputError);
        return nullptr;
      }
      table = options.table;
    } else if (tables->size() == 1) {
      table = tables->front();
    } else if (tables->empty()) {
      exit_code = fail(options.data + ": the database holds no tables", kExitInputError);
      return nullptr;
    } else {
      exit_code = fail(options.data + " holds " + std::to_string(tables->size()) +
                           " tables; pick one with --table: " + joined(*tables),
                       kExitUsage);
      return nullptr;
    }
    return std::move(db).value();
  }

  if (core::Result<data::FileFormat> format = data::file_format(path); !format) {
    exit_code = fail(format.error());
    return nullptr;
  }
  core::Result<std::unique_ptr<data::DuckDbDatabase>> db = data::DuckDbDatabase::open(":memory:");
  if (!db) {
    exit_code = fail(db.error());
    return nullptr;
  }
  table = options.table.empty() ? data::table_name_for(path) : options.table;
  if (core::Result<void> loaded = data::load_table(**db, path, table); !loaded) {
    exit_code = fail(loaded.error());
    return nullptr;
  }
  return std::move(db).value();
}

int run_profile(const ProfileOptions& options) {
  std::string table;
  int exit_code = kExitOk;
  std::unique_ptr<data::DuckDbDatabase> db = open_data(options, table, exit_code);
  if (db == nullptr) return exit_code;
  core::Result<data::SchemaProfile> profile = data::profile_table(*db, table);
  if (!profile) return fail(profile.error());
  if (options.json) {
    std::cout << profile->to_json().dump(2) << "\n";
  } else {
    std::cout << profile->to_table();
  }
  return kExitOk;
}

}  // namespace

void add_profile_command(CLI::App& app, CliContext& ctx) {
  auto options = std::make_shared<ProfileOptions>();
  CLI::App* command = app.add_subcommand(
      "profile",
      "Profile a dataset: per column its type, role (temporal, measure, categorical, identifier, text,\n"
      "boolean), null rate, distinct count, min/max, top values and, for temporal columns, span and "
      "density.");
  command
      ->add_option("DATA", options->data,
                   "A .csv, .tsv, .parquet, .json, .jsonl or .ndjson file (optionally .gz), loaded into an\n"
                   "in-memory DuckDB; or a .duckdb file, opened read-only")
      ->required();
  command->add_flag("--json", options->json, "Print the profile as JSON instead of a table");
  command->add_option("--table", options->table,
                      "For a .duckdb file: the table to profile (default: its only table).\n"
                      "For other files: the name to load the data under (default: the file's stem)");
  command->footer(
      "Examples:\n"
      "  planfirst profile examples/sales.csv\n"
      "  planfirst profile warehouse.duckdb --table orders --json\n"
      "Exit codes: 0 ok; 2 usage (e.g. a .duckdb file with several tables and no --table);\n"
      "3 input error (missing or malformed file: the message names the file and, for CSV, the line).\n");
  command->callback([options, &ctx] {
    if (prepare_run(ctx)) ctx.exit_code = run_profile(*options);
  });
}

}  // namespace planfirst::cli
