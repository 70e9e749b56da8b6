// duckdb_loader FILE.duckdb SCRIPT.sql: runs a SQL script into a DuckDB database file (created when
// missing), e.g. examples/sqlopt/retail.sql for the SQL analyst's examples. Exit 1 with DuckDB's
// message when the script fails.
#include <duckdb.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: duckdb_loader FILE.duckdb SCRIPT.sql\n");
    return 2;
  }
  std::ifstream in(argv[2], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "duckdb_loader: cannot read %s\n", argv[2]);
    return 1;
  }
  std::ostringstream script;
  script << in.rdbuf();
  duckdb_database db = nullptr;
  duckdb_connection connection = nullptr;
  if (duckdb_open(argv[1], &db) == DuckDBError || duckdb_connect(db, &connection) == DuckDBError) {
    std::fprintf(stderr, "duckdb_loader: cannot open %s\n", argv[1]);
    return 1;
  }
  duckdb_result result;
  const bool failed = duckdb_query(connection, script.str().c_str(), &result) == DuckDBError;
  if (failed) std::fprintf(stderr, "duckdb_loader: %s: %s\n", argv[2], duckdb_result_error(&result));
  duckdb_destroy_result(&result);
  duckdb_disconnect(&connection);
  duckdb_close(&db);
  return failed ? 1 : 0;
}
