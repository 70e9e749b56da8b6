// PostgresServer is a throwaway PostgreSQL 15 cluster for tests: initdb into a temporary directory
// (trust authentication, no sync), listening on 127.0.0.1 on a free port with its socket in that
// directory and fsync off. Destruction stops it (pg_ctl -m fast) and deletes the directory. As
// root, initdb and pg_ctl run as the postgres user, since initdb refuses root. Standard library and
// POSIX only (every test program compiles tests/support/); not thread-safe.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

namespace planfirst::test_support {

class PostgresServer {
 public:
  // Starts a new server (0.5-1 s). On failure returns nullptr and sets `*failure` to the reason:
  // the command that failed and the end of its log.
  static std::unique_ptr<PostgresServer> start(std::string* failure);

  // The one server of this test program, started on first use and stopped when the program exits;
  // use it as a shared fixture. On failure returns nullptr and sets `*failure`; a failed start is
  // remembered, not retried.
  static PostgresServer* shared(std::string* failure);

  ~PostgresServer();
  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;

  // postgresql://postgres@127.0.0.1:PORT/postgres
  const std::string& uri() const { return uri_; }
  int port() const { return port_; }

 private:
  PostgresServer(std::filesystem::path root, int port);

  std::filesystem::path root_;  // holds data/, the socket and the logs
  int port_;
  std::string uri_;
};

}  // namespace planfirst::test_support
