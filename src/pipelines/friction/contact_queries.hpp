// The SQL of the friction analysis, run on DuckDB: data_prep turns the user's table into prepared
// contacts (one row per contact: contact_id, contact_ts, month, channel, reason, summary,
// handle_seconds, transfers, is_repeat, resolution, resolved, lens, driver_id) written as Parquet
// in the run's output folder; the lens sub-agents, critique and reporting read that file. Every
// figure the pipeline shows comes from these statements. Counts are exact integers, and every
// result is ordered, so the same data gives the same figures.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "data/duckdb_database.hpp"
#include "pipelines/friction/column_mapping.hpp"
#include "pipelines/friction/driver_figures.hpp"
#include "pipelines/friction/friction_rules.hpp"

namespace planfirst::friction {

// Optional slicing a run asks for (state "filters"): channels to keep, and a period from/to
// (inclusive dates, YYYY-MM-DD).
struct PrepFilters {
  std::vector<std::string> channels;
  std::string from;
  std::string to;
  // kInvalidArgument naming the field of state "filters" at fault: a malformed one, a day the
  // calendar does not have, "from" after "to".
  static core::Result<PrepFilters> from_json(const core::Json& json);
  core::Json to_json() const;
};

struct PrepSummary {
  std::int64_t rows_in = 0;
  std::int64_t missing_id = 0;       // dropped: no contact id
  std::int64_t bad_timestamp = 0;    // dropped: timestamp missing or not a date
  std::int64_t bad_handle_time = 0;  // dropped: handle time missing or negative
  std::int64_t outside_filters = 0;  // dropped by the filters
  std::int64_t rows_kept = 0;
  std::int64_t unclassified = 0;  // kept, matched by no driver
  std::string period_from;        // first and last kept timestamp, ISO text
  std::string period_to;
  std::vector<std::pair<std::string, std::int64_t>> lens_contacts;  // per lens (rules' order)
  std::vector<std::pair<std::string, std::int64_t>> channels;       // per channel, most first
};

// Profile-level facts of the raw table data_discovery shows: row count, period, channels.
struct TableFacts {
  std::int64_t rows = 0;
  std::string period_from;
  std::string period_to;
  std::vector<std::pair<std::string, std::int64_t>> channels;  // trimmed ("(none)": empty), most first
  double median_handle_time = 0;
};
core::Result<TableFacts> table_facts(data::DuckDbDatabase& db, const std::string& table,
                                     const ColumnMapping& mapping);

// The contacts prepare_contacts would keep from `table` under `filters`, counted without preparing them.
core::Result<std::int64_t> count_kept(data::DuckDbDatabase& db, const std::string& table,
                                      const ColumnMapping& mapping, const FrictionRules& rules,
                                      const PrepFilters& filters);

// Creates the prepared contacts from `table` and writes them to `parquet`. Errors: the engine's,
// kInvalidArgument when the filters keep no contact.
core::Result<PrepSummary> prepare_contacts(data::DuckDbDatabase& db, const std::string& table,
                                           const ColumnMapping& mapping, const FrictionRules& rules,
                                           const PrepFilters& filters, const std::filesystem::path& parquet);

// One lens's drivers with contacts, in the rules' order (drivers the data never shows are left out).
core::Result<std::vector<DriverFigures>> lens_drivers(const std::filesystem::path& parquet, const Lens& lens);

// Contacts per month and lens ("unattributed" for contacts no driver matched), ordered by both.
struct MonthCount {
  std::string month;  // "2025-01"
  std::string lens;
  std::int64_t contacts = 0;
};
core::Result<std::vector<MonthCount>> monthly_lens_contacts(const std::filesystem::path& parquet);

// Every driver's counts recomputed straight from the prepared file in one pass, for the critique:
// the file's contacts, and each driver id's counts ("unattributed" included).
struct Recount {
  std::int64_t contacts = 0;
  std::map<std::string, DriverFigures> drivers;
  DriverFigures driver(const std::string& id) const;  // zero counts for an id the file does not hold
};
core::Result<Recount> recount_drivers(const std::filesystem::path& parquet);

std::string parquet_source(const std::filesystem::path& parquet);  // read_parquet('...')

}  // namespace planfirst::friction
