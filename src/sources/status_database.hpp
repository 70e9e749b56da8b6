// StatusDatabase is the project status database the `db` source reads (schema in
// examples/project/status/schema.sql): a PostgreSQL database the user loaded, or a DuckDB file built
// from the project's SQL scripts. Every query runs in a read-only transaction under a statement
// timeout. Owns one connection; query() serializes callers on it, so threads may share one.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "data/database.hpp"

namespace planfirst::sources {

struct StatusDatabaseOptions {
  std::chrono::milliseconds statement_timeout{10000};  // a longer query is cancelled (kUnavailable)
};

class StatusDatabase {
 public:
  // `location` is one of:
  //  - "postgresql://..." or "postgres://...": a server whose database holds the schema (loaded with
  //    psql -f schema.sql -f data.sql); the session is read-only;
  //  - a path ending in ".duckdb": that file, opened read-only;
  //  - a project folder holding status/schema.sql and status/data.sql, or that status folder: the
  //    scripts are loaded into status/status.duckdb on first use (again when a script is newer),
  //    then the file is opened read-only. When the folder cannot be written, they are loaded into
  //    an in-memory database instead.
  // Errors: kNotFound (no such file or scripts), kInvalidArgument (a script fails), kUnavailable.
  static core::Result<std::unique_ptr<StatusDatabase>> open(std::string_view location,
                                                            const StatusDatabaseOptions& options = {});
  // The folder's status/status.duckdb, built from its scripts when missing or older than them.
  static core::Result<std::filesystem::path> build_duckdb_cache(const std::filesystem::path& status_dir);

  // Runs one statement with bound parameters inside BEGIN TRANSACTION READ ONLY ... COMMIT. A write
  // fails with kFailedPrecondition; errors as data::Database::query.
  core::Result<data::QueryResult> query(std::string_view sql,
                                        const std::vector<data::Value>& params = {}) const;

  std::string_view engine() const { return engine_; }  // "duckdb" or "postgresql"
  const std::string& location() const {
    return location_;
  }  // the file, ":memory:" or the URI without password

 private:
  struct ConstructionKey {};

 public:
  StatusDatabase(ConstructionKey, std::unique_ptr<data::Database> database, std::string location);

 private:
  mutable std::mutex mutex_;
  std::unique_ptr<data::Database> database_;  // guarded by mutex_
  std::string engine_;
  std::string location_;
};

}  // namespace planfirst::sources
