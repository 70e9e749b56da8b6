#include "data/grouped_numbers.hpp"

#include <vector>

#include "core/join.hpp"
#include "data/sql_quoting.hpp"

namespace planfirst::data {
namespace {

// Whole numbers with '.' (decimal comma) or ',' (decimal point) between thousands, or none.
constexpr std::string_view kDecimalComma = R"(^[+-]?(\d{1,3}(\.\d{3})+|\d+)(,\d+)?$)";
constexpr std::string_view kDecimalPoint = R"(^[+-]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$)";

std::string matches_all(const std::string& value, std::string_view pattern) {
  return "bool_and(regexp_full_match(" + value + ", " + quote_literal(std::string(pattern)) + "))";
}

// The number `value` (trimmed text) spells when `comma` is its decimal mark, else when '.' is.
std::string as_number(const std::string& value, bool comma) {
  return comma ? "CAST(replace(replace(" + value + ", '.', ''), ',', '.') AS DOUBLE)"
               : "CAST(replace(" + value + ", ',', '') AS DOUBLE)";
}

}  // namespace

core::Result<void> read_grouped_numbers(DuckDbDatabase& db, std::string_view table,
                                        std::optional<char> delimiter) {
  core::Result<QueryResult> text_columns = db.query(
      "SELECT column_name FROM duckdb_columns() WHERE table_name = $1 AND data_type = 'VARCHAR' "
      "ORDER BY column_index",
      {Value(table)});
  if (!text_columns) return text_columns.error();
  const std::vector<Value>& names = text_columns->column(0).values;
  if (names.empty()) return core::ok();
  std::vector<std::string> reads;  // per column, in one scan: reads with a comma, with a point, grouped
  for (const Value& name : names) {
    const std::string value = "trim(" + quote_identifier(name.as_text()) + ")";
    reads.push_back(matches_all(value, kDecimalComma));
    reads.push_back(matches_all(value, kDecimalPoint));
    reads.push_back("bool_or(regexp_matches(" + value + ", '[.,]'))");
  }
  core::Result<QueryResult> read =
      db.query("SELECT " + core::join(reads) + " FROM " + quote_identifier(table));
  if (!read) return read.error();
  const auto holds = [&](std::size_t c) { return !read->at(0, c).is_null() && read->at(0, c).as_bool(); };
  for (std::size_t i = 0; i < names.size(); ++i) {
    const bool comma = holds(3 * i), point = holds(3 * i + 1);
    if ((!comma && !point) || !holds(3 * i + 2)) continue;  // "00123" stays an id
    const bool decimal_comma = comma && (!point || delimiter == ';');
    const std::string value = "trim(" + quote_identifier(names[i].as_text()) + ")";
    if (core::Result<void> altered = db.exec("ALTER TABLE " + quote_identifier(table) + " ALTER " +
                                             quote_identifier(names[i].as_text()) + " TYPE DOUBLE USING " +
                                             as_number(value, decimal_comma));
        !altered)
      return altered.error();
  }
  return core::ok();
}

}  // namespace planfirst::data
