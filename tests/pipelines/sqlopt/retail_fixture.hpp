// The retail example database (examples/sqlopt/retail.sql) loaded into a DuckDB file and into this
// test program's throwaway PostgreSQL, once each, for the tests that run real queries.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>

#include "data/duckdb_database.hpp"
#include "data/postgres_database.hpp"
#include "e2e/command_runner.hpp"
#include "support/postgres_server.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::sqlopt::testing {

// A file of the source tree, e.g. read_source("examples/sqlopt/retail.sql"); "" when unreadable.
inline std::string read_source(const std::string& relative) {
  return e2e::read_text(e2e::source(relative));
}

// "duckdb:<file>" of a DuckDB database holding the retail tables; empty on failure (the test fails).
inline std::string retail_duckdb_uri() {
  static test_support::TempDir* dir = new test_support::TempDir();  // lives as long as the program
  static std::string uri = [] {
    const std::filesystem::path file = dir->path() / "retail.duckdb";
    auto db = data::DuckDbDatabase::open(file.string());
    if (!db) return std::string();
    if (!(*db)->exec(read_source("examples/sqlopt/retail.sql"))) return std::string();
    return "duckdb:" + file.string();
  }();
  EXPECT_FALSE(uri.empty()) << "cannot load examples/sqlopt/retail.sql into DuckDB";
  return uri;
}

// The throwaway server's URI with the retail tables loaded and analyzed; empty on failure.
inline std::string retail_postgres_uri() {
  static std::string uri = [] {
    std::string failure;
    test_support::PostgresServer* server = test_support::PostgresServer::shared(&failure);
    if (server == nullptr) return "failed: " + failure;
    auto db = data::PostgresDatabase::connect(server->uri());
    if (!db) return "failed: " + db.error().describe();
    if (auto loaded = (*db)->exec(read_source("examples/sqlopt/retail.sql")); !loaded)
      return "failed: " + loaded.error().describe();
    if (auto analyzed = (*db)->exec("ANALYZE"); !analyzed) return "failed: " + analyzed.error().describe();
    return server->uri();
  }();
  EXPECT_FALSE(uri.starts_with("failed")) << uri;
  return uri.starts_with("failed") ? std::string() : uri;
}

}  // namespace planfirst::sqlopt::testing
