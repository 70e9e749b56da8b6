// SqlSession is one read-only connection to the database a query is analysed on: a DuckDB file
// opened read-only, or a PostgreSQL server where every statement runs in a READ ONLY transaction
// with jit off, rolled back after. Each statement is bounded by the timeout (PostgreSQL's
// statement_timeout; DuckDB's duckdb_interrupt). Not thread-safe: one per thread.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "data/database.hpp"
#include "data/query_result.hpp"
#include "pipelines/sqlopt/plan_tree.hpp"
#include "pipelines/sqlopt/rewrites.hpp"

namespace planfirst::sqlopt {

inline constexpr std::chrono::milliseconds kDefaultStatementTimeout{60000};

class SqlSession {
 public:
  // `uri`: "duckdb:PATH", a PATH ending in .duckdb, or "postgresql://..." ("postgres://..."). Errors:
  // kInvalidArgument for a URI of another engine, kNotFound for a missing DuckDB file, kUnavailable
  // for a server that cannot be reached.
  static core::Result<SqlSession> open(std::string_view uri,
                                       std::chrono::milliseconds timeout = kDefaultStatementTimeout);

  Engine engine() const { return engine_; }

  // Refuses (kFailedPrecondition) anything but one SELECT/WITH statement, before anything runs; a
  // parse error is kInvalidArgument with line and column. DuckDB SQL the PostgreSQL parser does not
  // read is checked with DuckDB's json_serialize_sql, which serializes SELECT statements only.
  core::Result<void> check_select(std::string_view sql);

  // EXPLAIN ANALYZE of `sql` (checked first), read into a PlanTree. The query runs once.
  core::Result<PlanTree> explain_analyze(std::string_view sql);

  // The rows of `sql` (checked first).
  core::Result<data::QueryResult> run(std::string_view sql);

  // One-column primary keys and unique constraints of the current schema's tables.
  core::Result<SchemaFacts> schema_facts();

  // The version of the engine: DuckDB's library_version of pragma_version(), the value of
  // duckdb_library_version() ("v1.4.4"); PostgreSQL's server_version ("15.18 (Debian ...)").
  core::Result<std::string> server_version();

  // Runs `body` on the connection inside the READ ONLY transaction every statement gets (rolled
  // back after); directly on DuckDB.
  core::Result<void> read_only(const std::function<core::Result<void>(data::Database&)>& body);

  // Wall-clock milliseconds of one run of `sql` (checked first), rows fetched and discarded.
  core::Result<double> time_run(std::string_view sql);

 private:
  SqlSession(std::unique_ptr<data::Database> db, Engine engine) : db_(std::move(db)), engine_(engine) {}
  // Runs `body` inside BEGIN READ ONLY ... ROLLBACK with jit off on PostgreSQL; directly on DuckDB.
  template <typename T, typename F>
  core::Result<T> guarded(F&& body);
  // DuckDB 1.4 reports a scan's operator_rows_scanned as the table's rows times the threads that
  // scanned it (duckdb/duckdb#20161), so the rows a filtered scan removed are counted on its table
  // instead; a table that cannot be counted leaves them unknown.
  void count_rows_removed(PlanTree& plan);

  std::unique_ptr<data::Database> db_;
  Engine engine_;
};

}  // namespace planfirst::sqlopt
