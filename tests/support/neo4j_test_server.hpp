// Neo4jTestServer speaks Neo4j's HTTP transactional API on loopback: POST /db/{database}/tx/commit
// with {"statements":[{"statement", "parameters"}]}, basic auth checked (401 with a
// Neo.ClientError.Security.Unauthorized body otherwise), each statement answered from a fixture table
// (statement text and parameters -> columns and rows) as {"results":[{"columns","data":[{"row","meta"}]}],
// "errors":[]}; an unknown statement gets a Neo.ClientError.Statement.SyntaxError in "errors" with
// HTTP 200, an unknown database Neo.ClientError.Database.DatabaseNotFound. Thread-safe.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "support/rest_test_server.hpp"

namespace planfirst::test_support {

struct Neo4jFixture {
  std::string statement;                          // as sent, whitespace collapsed to single spaces
  std::map<std::string, std::string> parameters;  // must equal the request's (string values)
  std::vector<std::string> columns;
  std::vector<std::string> rows;  // each a JSON array: R"(["api-gateway", "API Gateway", null, 1])"
};

class Neo4jTestServer {
 public:
  static constexpr const char* kUser = "neo4j";
  static constexpr const char* kPassword = "orbit-test-password";
  static constexpr const char* kDatabase = "neo4j";

  // Starts serving; throws std::runtime_error when it cannot bind loopback.
  explicit Neo4jTestServer(std::vector<Neo4jFixture> fixtures);
  ~Neo4jTestServer();

  std::string base_url() const { return server_->root_url(); }  // what Neo4jOptions::base_url takes
  RestTestServer& rest() { return *server_; }                   // scripts, credentials, request log
  std::vector<RestRequest> requests() const { return server_->requests(); }

  static std::string basic_auth(const std::string& user, const std::string& password);  // "Basic ..."

 private:
  std::vector<Neo4jFixture> fixtures_;
  std::unique_ptr<RestTestServer> server_;
};

}  // namespace planfirst::test_support
