// The SQLite plumbing of the stores that keep tables in one SQLite file (checkpoints, the server's
// runs): result codes mapped to error codes, owning handles, and one use of a prepared statement.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace planfirst::graph {

// "`doing`: " and SQLite's message on `db` (the text of `code` when `db` is null). kUnavailable for
// a busy, locked, full or unopenable file (retry), kInvalidArgument for a broken constraint,
// kFailedPrecondition for a corrupt file or one that is no database, kInternal otherwise.
core::Error sqlite_error(sqlite3* db, int code, std::string_view doing);

struct SqliteStatementFinalize {
  void operator()(sqlite3_stmt* statement) const { sqlite3_finalize(statement); }
};
using SqliteStatementHandle = std::unique_ptr<sqlite3_stmt, SqliteStatementFinalize>;

struct SqliteDatabaseClose {
  void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
using SqliteDatabaseHandle = std::unique_ptr<sqlite3, SqliteDatabaseClose>;

// One use of a prepared statement: binds, steps, and resets it when the scope ends. Text is bound
// without a copy, so bound values must outlive the use. A null statement (one that failed to
// prepare) steps to SQLITE_MISUSE.
class SqliteUse {
 public:
  explicit SqliteUse(sqlite3_stmt* statement) : statement_(statement) {}
  ~SqliteUse() {
    if (statement_ == nullptr) return;  // sqlite3_clear_bindings does not take null
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
  }
  SqliteUse(const SqliteUse&) = delete;
  SqliteUse& operator=(const SqliteUse&) = delete;

  SqliteUse& text(int index, std::string_view value) {
    sqlite3_bind_text(statement_, index, value.data(), static_cast<int>(value.size()), SQLITE_STATIC);
    return *this;
  }
  SqliteUse& integer(int index, std::int64_t value) {
    sqlite3_bind_int64(statement_, index, value);
    return *this;
  }
  int step() { return sqlite3_step(statement_); }  // SQLITE_ROW, SQLITE_DONE or an error
  std::string column_text(int column) const {
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(statement_, column));
    return data == nullptr
               ? std::string()
               : std::string(data, static_cast<std::size_t>(sqlite3_column_bytes(statement_, column)));
  }
  std::int64_t column_integer(int column) const { return sqlite3_column_int64(statement_, column); }

 private:
  sqlite3_stmt* statement_;
};

}  // namespace planfirst::graph
