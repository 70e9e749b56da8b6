#include "pipelines/sqlopt/sql_session.hpp"

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "data/duckdb_database.hpp"
#include "data/open_database.hpp"
#include "data/sql_quoting.hpp"
#include "pipelines/sqlopt/plan_reader.hpp"
#include "pipelines/sqlopt/sql_statement.hpp"

namespace planfirst::sqlopt {
namespace {

// DuckDB's own verdict on `sql`: ok when json_serialize_sql serializes exactly one SELECT.
core::Result<void> duckdb_select_check(std::string_view sql) {
  core::Result<std::unique_ptr<data::DuckDbDatabase>> scratch = data::DuckDbDatabase::open(":memory:");
  if (!scratch) return scratch.error();
  core::Result<data::QueryResult> result =
      (*scratch)->query("SELECT json_serialize_sql($1::VARCHAR)", {std::string(sql)});
  if (!result) return result.error();
  if (result->row_count() != 1 || result->at(0, 0).kind() != data::Value::Kind::kText)
    return core::internal_error("json_serialize_sql returned nothing");
  const core::Json json = core::Json::parse(result->at(0, 0).as_text(), nullptr, false);
  if (json.is_discarded()) return core::internal_error("json_serialize_sql returned no JSON");
  if (json.value("error", false)) {
    if (json.value("error_type", "") == "parser")
      return core::invalid_argument(json.value("error_message", std::string("syntax error")));
    return core::failed_precondition("refused: " + json.value("error_message", std::string("not a SELECT")) +
                                     "; planfirst sql analyzes one SELECT statement");
  }
  if (!json.contains("statements") || json["statements"].size() != 1)
    return core::failed_precondition("refused: planfirst sql analyzes exactly one SELECT statement");
  return core::ok();
}

}  // namespace

core::Result<SqlSession> SqlSession::open(std::string_view uri, std::chrono::milliseconds timeout) {
  data::DatabaseOptions options;
  options.read_only = true;
  options.statement_timeout = timeout;
  Engine engine;
  if (data::is_postgres_uri(uri)) {
    engine = Engine::kPostgres;
  } else if (uri.starts_with("duckdb:") || uri.ends_with(".duckdb")) {
    engine = Engine::kDuckDb;
  } else {
    return core::invalid_argument("--db takes a DuckDB file (duckdb:PATH or PATH.duckdb) or postgresql://...",
                                  std::string(uri));
  }
  core::Result<std::unique_ptr<data::Database>> db = data::open_database(uri, options);
  if (!db) return db.error();
  return SqlSession(std::move(*db), engine);
}

core::Result<void> SqlSession::check_select(std::string_view sql) {
  core::Result<core::Json> tree = parse_postgres_sql(sql);
  if (tree) return require_single_select(*tree);
  if (engine_ != Engine::kDuckDb) return tree.error();
  // DuckDB-only syntax: DuckDB's parser decides; its error stands when it cannot read it either.
  if (core::Result<void> duck = duckdb_select_check(sql); !duck) {
    // DuckDB cannot read it either: the PostgreSQL parser's error names the line and column.
    if (duck.error().code == core::ErrorCode::kInvalidArgument) return tree.error();
    return duck;
  }
  return core::ok();
}

template <typename T, typename F>
core::Result<T> SqlSession::guarded(F&& body) {
  if (engine_ != Engine::kPostgres) return body();
  if (core::Result<void> begin = db_->exec("BEGIN READ ONLY; SET LOCAL jit = off"); !begin)
    return begin.error();
  core::Result<T> result = body();
  if (core::Result<void> rollback = db_->exec("ROLLBACK"); !rollback && result) return rollback.error();
  return result;
}

core::Result<PlanTree> SqlSession::explain_analyze(std::string_view sql) {
  if (core::Result<void> checked = check_select(sql); !checked) return checked.error();
  const std::string statement = trimmed_statement(sql);
  if (engine_ == Engine::kDuckDb) {
    core::Result<core::Json> json = db_->explain_json(statement, /*analyze=*/true);
    if (!json) return json.error();
    core::Result<PlanTree> plan = read_duckdb_plan(*json);
    if (plan) count_rows_removed(*plan);
    return plan;
  }
  return guarded<PlanTree>([&]() -> core::Result<PlanTree> {
    core::Result<data::QueryResult> result =
        db_->query("EXPLAIN (ANALYZE, BUFFERS, VERBOSE, SETTINGS, FORMAT JSON) " + statement);
    if (!result) return result.error();
    if (result->row_count() != 1 || result->at(0, 0).kind() != data::Value::Kind::kText)
      return core::internal_error("PostgreSQL returned no JSON plan");
    const core::Json json = core::Json::parse(result->at(0, 0).as_text(), nullptr, false);
    if (json.is_discarded()) return core::internal_error("PostgreSQL returned a plan that is not JSON");
    return read_postgres_plan(json);
  });
}

void SqlSession::count_rows_removed(PlanTree& plan) {
  std::map<std::string, std::optional<double>> table_rows;
  for (PlanNode& node : plan.nodes) {
    if (!node.rows_removed || !node.actual_rows) continue;
    auto [rows, added] = table_rows.try_emplace(node.table);
    if (added) {
      core::Result<data::QueryResult> count =
          db_->query("SELECT COUNT(*) FROM " + data::quote_identifier(node.table));
      if (count && count->row_count() == 1) rows->second = static_cast<double>(count->at(0, 0).as_int());
    }
    node.rows_removed.reset();
    if (rows->second && *rows->second >= *node.actual_rows)
      node.rows_removed = *rows->second - *node.actual_rows;
  }
}

core::Result<data::QueryResult> SqlSession::run(std::string_view sql) {
  if (core::Result<void> checked = check_select(sql); !checked) return checked.error();
  const std::string statement = trimmed_statement(sql);
  return guarded<data::QueryResult>([&] { return db_->query(statement); });
}

core::Result<SchemaFacts> SqlSession::schema_facts() {
  const char* sql =
      engine_ == Engine::kPostgres
          ? "SELECT c.relname::text, a.attname::text FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid "
            "JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_attribute a ON a.attrelid = i.indrelid "
            "AND a.attnum = i.indkey[0] WHERE i.indisunique AND i.indnatts = 1 AND n.nspname = "
            "current_schema()"
          : "SELECT table_name, constraint_column_names[1] FROM duckdb_constraints() WHERE constraint_type "
            "IN "
            "('PRIMARY KEY', 'UNIQUE') AND len(constraint_column_names) = 1 AND schema_name = "
            "current_schema()";
  return guarded<SchemaFacts>([&]() -> core::Result<SchemaFacts> {
    core::Result<data::QueryResult> rows = db_->query(sql);
    if (!rows) return rows.error();
    SchemaFacts facts;
    for (std::size_t r = 0; r < rows->row_count(); ++r)
      facts.unique_columns[rows->at(r, 0).to_string()].insert(rows->at(r, 1).to_string());
    return facts;
  });
}

core::Result<std::string> SqlSession::server_version() {
  const char* sql =
      engine_ == Engine::kPostgres ? "SHOW server_version" : "SELECT library_version FROM pragma_version()";
  return guarded<std::string>([&]() -> core::Result<std::string> {
    core::Result<data::QueryResult> rows = db_->query(sql);
    if (!rows) return rows.error();
    if (rows->row_count() != 1) return core::internal_error("the database reported no version");
    return rows->at(0, 0).to_string();
  });
}

core::Result<void> SqlSession::read_only(const std::function<core::Result<void>(data::Database&)>& body) {
  return guarded<void>([&] { return body(*db_); });
}

core::Result<double> SqlSession::time_run(std::string_view sql) {
  if (core::Result<void> checked = check_select(sql); !checked) return checked.error();
  const std::string statement = trimmed_statement(sql);
  return guarded<double>([&]() -> core::Result<double> {
    const auto start = std::chrono::steady_clock::now();
    core::Result<data::QueryResult> rows = db_->query(statement);
    const auto stop = std::chrono::steady_clock::now();
    if (!rows) return rows.error();
    return std::chrono::duration<double, std::milli>(stop - start).count();
  });
}

}  // namespace planfirst::sqlopt
