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

#include "data/dataset.hpp"
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

int run_profile(const ProfileOptions& options) {
  core::Result<data::OpenedDataset> dataset = data::open_dataset(options.data, options.table);
  if (!dataset) {
    const bool ambiguous = dataset.error().code == core::ErrorCode::kFailedPrecondition;
    return ambiguous ? fail(dataset.error().message, kExitUsage) : fail(dataset.error());
  }
  core::Result<data::SchemaProfile> profile = data::profile_table(*dataset->db, dataset->table);
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
