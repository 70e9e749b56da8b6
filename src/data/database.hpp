// Database is planfirst's one small interface to a SQL engine (DuckDB, SQLite, PostgreSQL): run a
// statement with positional parameters into a typed QueryResult, run a script, collect EXPLAIN as
// JSON, list tables. Failures are Result errors carrying the engine's message; no engine exception
// or handle escapes. One instance is one connection: not thread-safe, use one per thread.
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "data/query_result.hpp"
#include "data/value.hpp"

namespace planfirst::data {

struct DatabaseOptions {
  // Refuse writes. A guard against accidental writes, not against a hostile caller: give a
  // PostgreSQL connection a read-only role for that. DuckDB and SQLite need an existing file.
  bool read_only = false;
  // Cancel a statement that runs longer than this (kUnavailable); zero means no limit.
  std::chrono::milliseconds statement_timeout{0};
};

class Database {
 public:
  virtual ~Database() = default;

  // "duckdb", "sqlite" or "postgresql".
  virtual std::string_view engine() const = 0;

  // Runs one statement; `params` bind to its placeholders in order ($1/? style, as the engine
  // spells them), and their count must match. Error codes: kNotFound for a missing table,
  // kInvalidArgument for bad SQL or parameters, kFailedPrecondition for a write refused by
  // read-only mode, kUnavailable for a lost connection or a statement timeout.
  virtual core::Result<QueryResult> query(std::string_view sql, const std::vector<Value>& params = {}) = 0;

  // Runs a script of one or more statements without parameters; results are discarded.
  virtual core::Result<void> exec(std::string_view sql) = 0;

  // The engine's own JSON plan for `sql`, parsed: DuckDB's EXPLAIN (FORMAT JSON) tree, with
  // `analyze` its profiled tree (operator_name, operator_cardinality, extra_info); PostgreSQL's
  // [{"Plan": ...}] (with `analyze`: ANALYZE, BUFFERS and "Actual Rows"); SQLite's EXPLAIN QUERY
  // PLAN as {"plan": [{"id", "parent", "detail", "children"}]} (SQLite cannot analyze:
  // kInvalidArgument). With `analyze` the statement runs.
  virtual core::Result<core::Json> explain_json(std::string_view sql, bool analyze) = 0;

  // Tables and views of the current schema, sorted by name.
  virtual core::Result<std::vector<std::string>> table_names() = 0;
};

}  // namespace planfirst::data
