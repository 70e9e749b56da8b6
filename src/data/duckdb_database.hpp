// DuckDbDatabase is a Database on embedded DuckDB (C API), in memory or in a file. It opens with
// extension autoloading and autoinstalling off, so nothing reaches for the network (parquet, json
// and icu are built in). Owns its database and connection handles; destruction closes both.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "data/database.hpp"

namespace planfirst::data {

class DuckDbDatabase final : public Database {
 public:
  // `path` is a database file (created when missing, unless read-only) or ":memory:" (or empty).
  // Errors: kNotFound for a read-only file that does not exist, kInvalidArgument for a read-only
  // in-memory database, kUnavailable when DuckDB cannot open the file (locked, unreadable).
  static core::Result<std::unique_ptr<DuckDbDatabase>> open(std::string_view path,
                                                            const DatabaseOptions& options = {});
  ~DuckDbDatabase() override;
  DuckDbDatabase(const DuckDbDatabase&) = delete;
  DuckDbDatabase& operator=(const DuckDbDatabase&) = delete;

  std::string_view engine() const override { return "duckdb"; }
  // Placeholders are `?` or `$1`. The statement timeout interrupts DuckDB between tasks.
  core::Result<QueryResult> query(std::string_view sql, const std::vector<Value>& params = {}) override;
  core::Result<void> exec(std::string_view sql) override;
  core::Result<core::Json> explain_json(std::string_view sql, bool analyze) override;
  core::Result<std::vector<std::string>> table_names() override;

  // The file this database lives in, or ":memory:".
  const std::string& path() const;

 private:
  struct Handles;
  explicit DuckDbDatabase(std::unique_ptr<Handles> handles);

  std::unique_ptr<Handles> handles_;
};

}  // namespace planfirst::data
