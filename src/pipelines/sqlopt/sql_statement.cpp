#include "pipelines/sqlopt/sql_statement.hpp"

#include <pg_query.h>

#include <nlohmann/json.hpp>
#include <string>

namespace planfirst::sqlopt {
namespace {

// Finds the first key naming a write or a lock anywhere in the tree; "" when none.
std::string forbidden_part(const core::Json& node, int depth) {
  if (depth > 1000) return "a statement nested too deeply";
  if (node.is_object()) {
    for (const auto& [key, value] : node.items()) {
      if (key == "InsertStmt") return "an INSERT";
      if (key == "UpdateStmt") return "an UPDATE";
      if (key == "DeleteStmt") return "a DELETE";
      if (key == "MergeStmt") return "a MERGE";
      if (key == "intoClause") return "SELECT INTO";
      if (key == "lockingClause") return "a row lock (FOR UPDATE/SHARE)";
      if (std::string found = forbidden_part(value, depth + 1); !found.empty()) return found;
    }
  } else if (node.is_array()) {
    for (const core::Json& item : node)
      if (std::string found = forbidden_part(item, depth + 1); !found.empty()) return found;
  }
  return {};
}

}  // namespace

std::string trimmed_statement(std::string_view sql) {
  std::size_t begin = 0, end = sql.size();
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (begin < end && blank(sql[begin])) ++begin;
  while (end > begin && (blank(sql[end - 1]) || sql[end - 1] == ';')) --end;
  return std::string(sql.substr(begin, end - begin));
}

TextPosition position_of(std::string_view text, std::size_t offset) {
  TextPosition at;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++at.line;
      at.column = 1;
    } else {
      ++at.column;
    }
  }
  return at;
}

std::string line_column(std::string_view text, std::size_t offset) {
  const TextPosition at = position_of(text, offset);
  return "line " + std::to_string(at.line) + ", column " + std::to_string(at.column);
}

core::Result<core::Json> parse_postgres_sql(std::string_view sql) {
  const std::string text(sql);
  if (text.find('\0') != std::string::npos) return core::invalid_argument("the SQL holds a NUL byte");
  PgQueryParseResult result = pg_query_parse(text.c_str());
  if (result.error != nullptr) {
    const std::size_t offset =
        result.error->cursorpos > 0 ? static_cast<std::size_t>(result.error->cursorpos - 1) : 0;
    std::string message = result.error->message == nullptr ? "syntax error" : result.error->message;
    pg_query_free_parse_result(result);
    return core::invalid_argument("SQL parse error: " + message, line_column(text, offset));
  }
  core::Json tree = core::Json::parse(result.parse_tree == nullptr ? "" : result.parse_tree, nullptr, false);
  pg_query_free_parse_result(result);
  if (tree.is_discarded()) return core::internal_error("the PostgreSQL parser returned no JSON");
  return tree;
}

core::Result<void> require_single_select(const core::Json& tree) {
  const core::Json* stmts = tree.is_object() && tree.contains("stmts") ? &tree["stmts"] : nullptr;
  if (stmts == nullptr || !stmts->is_array() || stmts->empty())
    return core::failed_precondition("no SQL statement: planfirst sql analyzes one SELECT statement");
  if (stmts->size() > 1) {
    return core::failed_precondition("refused: " + std::to_string(stmts->size()) +
                                     " statements; planfirst sql analyzes exactly one SELECT statement");
  }
  const core::Json& stmt = (*stmts)[0].value("stmt", core::Json::object());
  if (!stmt.is_object() || !stmt.contains("SelectStmt")) {
    const std::string kind = stmt.is_object() && !stmt.empty() ? stmt.begin().key() : "an empty statement";
    return core::failed_precondition("refused: " + kind +
                                     " is not a SELECT; planfirst sql never runs DDL or DML");
  }
  if (const std::string part = forbidden_part(stmt, 0); !part.empty())
    return core::failed_precondition("refused: the statement holds " + part + "; planfirst sql only reads");
  return core::ok();
}

}  // namespace planfirst::sqlopt
