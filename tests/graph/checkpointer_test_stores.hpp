// The three checkpointer stores as test fixtures: each opens a fresh, empty store (memory; a SQLite
// file in a temporary folder; a new schema of the test program's shared PostgreSQL server) and
// cleans up after itself. Used by the conformance suite and the store-specific tests.
#pragma once

#include <unistd.h>

#include <atomic>
#include <memory>
#include <string>

#include "core/libpq.hpp"
#include "graph/memory_checkpointer.hpp"
#include "graph/postgres_checkpointer.hpp"
#include "graph/sqlite_checkpointer.hpp"
#include "support/postgres_server.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::graph::testing {

struct MemoryStore {
  static constexpr const char* kName = "memory";
  std::unique_ptr<Checkpointer> open(std::string*) { return std::make_unique<MemoryCheckpointer>(); }
};

struct SqliteStore {
  static constexpr const char* kName = "sqlite";
  test_support::TempDir dir;
  std::string uri() const { return "sqlite:" + (dir.path() / "checkpoints.sqlite").string(); }
  std::unique_ptr<Checkpointer> open(std::string* failure) {
    auto opened = SqliteCheckpointer::open(dir.path() / "checkpoints.sqlite");
    if (!opened) {
      *failure = opened.error().describe();
      return nullptr;
    }
    return std::move(*opened);
  }
};

// Runs one SQL command on the PostgreSQL database at `uri`; returns the error text, empty on success.
inline std::string run_sql(const std::string& uri, const std::string& sql) {
  core::Result<core::LibPq> pq = core::LibPq::load();
  if (!pq) return pq.error().describe();
  const core::PgConnHandle connection = pq->owned(pq->connectdb(uri.c_str()));
  if (pq->status(connection.get()) != CONNECTION_OK) return pq->error_message(connection.get());
  pq->set_notice_processor(
      connection.get(), [](void*, const char*) {}, nullptr);
  const core::PgResultHandle result = pq->owned(pq->exec(connection.get(), sql.c_str()));
  const ExecStatusType status = pq->result_status(result.get());
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return "";
  return pq->result_error_message(result.get());
}

// A fresh schema on the shared server, first on the search path of uri().
struct PostgresStore {
  static constexpr const char* kName = "postgres";
  std::string server_uri;
  std::string schema;

  PostgresStore() {
    static std::atomic<int> next{0};
    schema = "ck_" + std::to_string(getpid()) + "_" + std::to_string(next++);
  }
  ~PostgresStore() {
    if (!server_uri.empty()) run_sql(server_uri, "DROP SCHEMA IF EXISTS " + schema + " CASCADE");
  }
  std::string uri() const { return server_uri + "?options=-c%20search_path%3D" + schema; }
  std::unique_ptr<Checkpointer> open(std::string* failure) {
    if (server_uri.empty()) {
      test_support::PostgresServer* server = test_support::PostgresServer::shared(failure);
      if (server == nullptr) return nullptr;
      server_uri = server->uri();
      if (std::string error = run_sql(server_uri, "CREATE SCHEMA " + schema); !error.empty()) {
        *failure = error;
        return nullptr;
      }
    }
    auto opened = PostgresCheckpointer::open(uri());
    if (!opened) {
      *failure = opened.error().describe();
      return nullptr;
    }
    return std::move(*opened);
  }
};

}  // namespace planfirst::graph::testing
