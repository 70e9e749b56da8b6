#include "data/open_database.hpp"

#include <string>

#include "data/duckdb_database.hpp"
#include "data/postgres_database.hpp"
#include "data/sqlite_database.hpp"

namespace planfirst::data {
namespace {

template <typename Engine>
core::Result<std::unique_ptr<Database>> widen(core::Result<std::unique_ptr<Engine>> opened) {
  if (!opened) return std::move(opened).error();
  return std::unique_ptr<Database>(std::move(opened).value());
}

}  // namespace

bool is_postgres_uri(std::string_view uri) {
  return uri.starts_with("postgresql://") || uri.starts_with("postgres://");
}

core::Result<std::unique_ptr<Database>> open_database(std::string_view uri, const DatabaseOptions& options) {
  if (is_postgres_uri(uri)) {
    return widen(PostgresDatabase::connect(uri, options));
  }
  if (uri.starts_with("duckdb:")) return widen(DuckDbDatabase::open(uri.substr(7), options));
  if (uri.starts_with("sqlite:")) return widen(SqliteDatabase::open(uri.substr(7), options));
  if (uri.ends_with(".duckdb")) return widen(DuckDbDatabase::open(uri, options));
  if (uri.ends_with(".sqlite") || uri.ends_with(".sqlite3")) return widen(SqliteDatabase::open(uri, options));
  return core::invalid_argument("unrecognised database URI \"" + std::string(uri) +
                                    "\"; use duckdb:PATH, duckdb::memory:, FILE.duckdb, sqlite:PATH, "
                                    "sqlite::memory:, FILE.sqlite or postgresql://USER@HOST:PORT/DB",
                                "uri");
}

}  // namespace planfirst::data
