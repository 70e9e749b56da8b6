// SqliteDatabase is a Database on embedded SQLite, in memory or in a file. SQLite types columns
// loosely: a column's type comes from its declared type (INTEGER, REAL, TEXT, BOOLEAN, DATE,
// DATETIME, ...) when every value fits it, from its values when nothing is declared, else kOther.
// Owns its connection; destruction closes it.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "data/database.hpp"

namespace planfirst::data {

class SqliteDatabase final : public Database {
 public:
  // `path` is a database file (created when missing, unless read-only) or ":memory:" (or empty).
  // Errors: kNotFound for a read-only file that does not exist, kUnavailable when SQLite cannot
  // open the file.
  static core::Result<std::unique_ptr<SqliteDatabase>> open(std::string_view path,
                                                            const DatabaseOptions& options = {});
  ~SqliteDatabase() override;
  SqliteDatabase(const SqliteDatabase&) = delete;
  SqliteDatabase& operator=(const SqliteDatabase&) = delete;

  std::string_view engine() const override { return "sqlite"; }
  // Placeholders are `?`, `?NNN`, `:name` or `$name`, bound in order. Booleans bind as 0/1.
  core::Result<QueryResult> query(std::string_view sql, const std::vector<Value>& params = {}) override;
  core::Result<void> exec(std::string_view sql) override;
  // EXPLAIN QUERY PLAN as a tree; `analyze` is kInvalidArgument (SQLite has no EXPLAIN ANALYZE).
  core::Result<core::Json> explain_json(std::string_view sql, bool analyze) override;
  core::Result<std::vector<std::string>> table_names() override;

 private:
  struct Connection;
  explicit SqliteDatabase(std::unique_ptr<Connection> connection);

  std::unique_ptr<Connection> connection_;
};

}  // namespace planfirst::data
