#include "support/neo4j_test_server.hpp"

#include <nlohmann/json.hpp>

namespace planfirst::test_support {
namespace {

using nlohmann::json;

std::string error_body(const std::string& code, const std::string& message) {
  return json{{"results", json::array()}, {"errors", json::array({{{"code", code}, {"message", message}}})}}
      .dump();
}

}  // namespace

std::string Neo4jTestServer::basic_auth(const std::string& user, const std::string& password) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const std::string bytes = user + ":" + password;
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    unsigned n = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) n |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) n |= static_cast<unsigned char>(bytes[i + 2]);
    out += kAlphabet[n >> 18];
    out += kAlphabet[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kAlphabet[n & 63] : '=';
  }
  return "Basic " + out;
}

Neo4jTestServer::Neo4jTestServer(std::vector<Neo4jFixture> fixtures) : fixtures_(std::move(fixtures)) {
  AuthCheck auth{"Authorization", basic_auth(kUser, kPassword),
                 error_body("Neo.ClientError.Security.Unauthorized", "Invalid username or password.")};
  server_ =
      std::make_unique<RestTestServer>(std::move(auth), [this](const RestRequest& request) -> RestReply {
        if (request.method != "POST" || !request.path.ends_with("/tx/commit") ||
            !request.path.starts_with("/db/")) {
          return RestReply::json(
              404, error_body("Neo.ClientError.Request.Invalid", "No such endpoint: " + request.path));
        }
        const std::string database =
            request.path.substr(4, request.path.size() - 4 - std::string("/tx/commit").size());
        if (database != kDatabase) {
          return RestReply::json(404,
                                 error_body("Neo.ClientError.Database.DatabaseNotFound",
                                            "Database does not exist. Database name: '" + database + "'."));
        }
        const json body = json::parse(request.body, nullptr, false);
        if (body.is_discarded() || !body.contains("statements") || !body["statements"].is_array()) {
          return RestReply::json(
              400, error_body("Neo.ClientError.Request.InvalidFormat", "Unable to deserialize request"));
        }
        json results = json::array();
        for (const json& statement : body["statements"]) {
          const std::string text = statement.value("statement", "");
          std::map<std::string, std::string> parameters;
          const json given = statement.contains("parameters") ? statement["parameters"] : json::object();
          for (const auto& [name, value] : given.items()) {
            parameters[name] = value.is_string() ? value.get<std::string>() : value.dump();
          }
          const Neo4jFixture* known = nullptr;
          bool statement_known = false;
          for (const Neo4jFixture& fixture : fixtures_) {
            if (fixture.statement != text) continue;
            statement_known = true;
            if (fixture.parameters == parameters) known = &fixture;
          }
          if (!statement_known) {
            // Neo4j rolls the transaction back and reports the first failing statement.
            return RestReply::json(
                200, error_body("Neo.ClientError.Statement.SyntaxError",
                                "Invalid input: unknown statement (line 1, column 1 (offset: 0))\n\"" +
                                    text.substr(0, 60) + "\""));
          }
          json result{{"columns", json::array()}, {"data", json::array()}};
          if (known != nullptr) {
            result["columns"] = known->columns;
            for (const std::string& row : known->rows) {
              const json values = json::parse(row);
              result["data"].push_back({{"row", values}, {"meta", json::array()}});
            }
          } else {
            // Same statement, other parameters: the fixture's columns and no rows.
            for (const Neo4jFixture& fixture : fixtures_) {
              if (fixture.statement == text) result["columns"] = fixture.columns;
            }
          }
          results.push_back(std::move(result));
        }
        return RestReply::json(200, json{{"results", results}, {"errors", json::array()}}.dump());
      });
}

Neo4jTestServer::~Neo4jTestServer() = default;

}  // namespace planfirst::test_support
