// The SQL a user hands planfirst, checked before anything runs: parsed with the PostgreSQL parser
// (libpg_query) into its JSON parse tree, and refused unless it is a single read-only SELECT (or
// WITH ... SELECT) statement. A parse error names the line and column.
#pragma once

#include <string>
#include <string_view>

#include "core/json.hpp"
#include "core/result.hpp"

namespace planfirst::sqlopt {

// The statement without surrounding blanks and trailing semicolons.
std::string trimmed_statement(std::string_view sql);

// libpg_query's parse tree ({"version", "stmts": [...]}); kInvalidArgument "line L, column C: ...".
core::Result<core::Json> parse_postgres_sql(std::string_view sql);

// kFailedPrecondition unless `tree` (a parse_postgres_sql result) is one SELECT/WITH statement that
// neither writes (INSERT/UPDATE/DELETE/MERGE in a CTE, SELECT INTO) nor locks rows (FOR UPDATE).
core::Result<void> require_single_select(const core::Json& tree);

// Line and column (1-based) of byte `offset` in `text`.
struct TextPosition {
  std::size_t line = 1;
  std::size_t column = 1;
};
TextPosition position_of(std::string_view text, std::size_t offset);

// The same in words: "line 3, column 7".
std::string line_column(std::string_view text, std::size_t offset);

}  // namespace planfirst::sqlopt
