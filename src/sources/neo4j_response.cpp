#include "sources/neo4j_response.hpp"

#include <nlohmann/json.hpp>

namespace planfirst::sources {
namespace {

using nlohmann::json;

std::string cell_text(const json& value) {
  if (value.is_null()) return {};
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

core::Error neo4j_error(const json& error, std::string_view url) {
  const std::string code = error.is_object() && error.contains("code") && error["code"].is_string()
                               ? error["code"].get<std::string>()
                               : "Neo.DatabaseError.General.UnknownError";
  const std::string message = error.is_object() && error.contains("message") && error["message"].is_string()
                                  ? error["message"].get<std::string>()
                                  : "no message";
  const std::string text = "Neo4j answered " + code + ": " + message;
  if (code.starts_with("Neo.ClientError.Security.")) return core::failed_precondition(text, std::string(url));
  if (code.starts_with("Neo.ClientError.")) return core::invalid_argument(text, std::string(url));
  return core::unavailable(text, std::string(url));
}

core::Error malformed(std::string_view url, std::string pointer, std::string_view what) {
  return core::invalid_argument("not a Neo4j transaction response: " + std::string(what),
                                std::string(url) + pointer);
}

}  // namespace

std::string neo4j_request_body(std::string_view statement,
                               const std::map<std::string, std::string>& parameters) {
  std::string collapsed;
  bool space = false;
  for (const char c : statement) {
    const bool blank = c == ' ' || c == '\n' || c == '\r' || c == '\t';
    if (blank) {
      space = !collapsed.empty();
      continue;
    }
    if (space) collapsed += ' ';
    space = false;
    collapsed += c;
  }
  json params = json::object();
  for (const auto& [name, value] : parameters) params[name] = value;
  return json{{"statements", json::array({{{"statement", collapsed}, {"parameters", params}}})}}.dump();
}

core::Result<GraphRows> parse_neo4j_response(std::string_view body, std::string_view url) {
  const json root = json::parse(body, nullptr, false);
  if (root.is_discarded() || !root.is_object()) return malformed(url, "", "the body is not a JSON object");
  if (root.contains("errors")) {
    const json& errors = root["errors"];
    if (!errors.is_array()) return malformed(url, "/errors", "errors is not an array");
    if (!errors.empty()) return neo4j_error(errors[0], url);
  }
  if (!root.contains("results") || !root["results"].is_array())
    return malformed(url, "/results", "no results array");
  const json& results = root["results"];
  if (results.empty()) return malformed(url, "/results", "no result for the statement");
  const json& result = results[0];
  if (!result.is_object() || !result.contains("columns") || !result["columns"].is_array()) {
    return malformed(url, "/results/0/columns", "no columns array");
  }
  GraphRows rows;
  for (std::size_t c = 0; c < result["columns"].size(); ++c) {
    const json& column = result["columns"][c];
    if (!column.is_string())
      return malformed(url, "/results/0/columns/" + std::to_string(c), "a column is not a string");
    rows.columns.push_back(column.get<std::string>());
  }
  if (!result.contains("data") || !result["data"].is_array())
    return malformed(url, "/results/0/data", "no data array");
  for (std::size_t r = 0; r < result["data"].size(); ++r) {
    const json& entry = result["data"][r];
    const std::string pointer = "/results/0/data/" + std::to_string(r) + "/row";
    if (!entry.is_object() || !entry.contains("row") || !entry["row"].is_array()) {
      return malformed(url, pointer, "no row array");
    }
    if (entry["row"].size() != rows.columns.size())
      return malformed(url, pointer, "a row does not match the columns");
    std::vector<std::string> row;
    for (const json& value : entry["row"]) row.push_back(cell_text(value));
    rows.rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace planfirst::sources
