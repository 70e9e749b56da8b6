// The baseline process of autoviz_ask_bench's CLI figures: `duckdb_direct FILE SQL` opens the
// DuckDB file read-only, runs SQL and exits 0 when it gave rows, as a person running the query in
// DuckDB by hand would. It links DuckDB alone, so its start-up is DuckDB's, not planfirst's.
#include <duckdb.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: duckdb_direct FILE.duckdb SQL\n");
    return 2;
  }
  duckdb_config config = nullptr;
  duckdb_database database = nullptr;
  duckdb_connection connection = nullptr;
  duckdb_result result{};
  char* error = nullptr;
  if (duckdb_create_config(&config) == DuckDBError) return 1;
  duckdb_set_config(config, "access_mode", "READ_ONLY");
  const bool opened = duckdb_open_ext(argv[1], &database, config, &error) == DuckDBSuccess;
  duckdb_destroy_config(&config);
  if (!opened) {
    std::fprintf(stderr, "%s: %s\n", argv[1], error == nullptr ? "cannot open" : error);
    duckdb_free(error);
    return 1;
  }
  int status = 1;
  if (duckdb_connect(database, &connection) == DuckDBSuccess) {
    if (duckdb_query(connection, argv[2], &result) == DuckDBSuccess) {
      status = duckdb_row_count(&result) > 0 ? 0 : 1;
    } else {
      std::fprintf(stderr, "%s\n", duckdb_result_error(&result));
    }
    duckdb_destroy_result(&result);
    duckdb_disconnect(&connection);
  }
  duckdb_close(&database);
  return status;
}
