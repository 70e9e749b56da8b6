// SQL quoting shared by the statements planfirst builds itself (loading files, profiling tables):
// identifiers in double quotes, literals in single quotes, embedded quotes doubled. Standard SQL,
// so the same text works on DuckDB, SQLite and PostgreSQL.
#pragma once

#include <string>
#include <string_view>

namespace planfirst::data {

std::string quote_identifier(std::string_view name);  // sales -> "sales"; a"b -> "a""b"
std::string quote_literal(std::string_view text);     // it's -> 'it''s'

}  // namespace planfirst::data
