#include "data/grouped_numbers.hpp"

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

core::Result<std::vector<std::string>> read_grouped_numbers(DuckDbDatabase& db, std::string_view table,
                                                            std::optional<char> delimiter) {
  core::Result<QueryResult> text_columns = db.query(
      "SELECT column_name FROM duckdb_columns() WHERE table_name = $1 AND data_type = 'VARCHAR' "
      "ORDER BY column_index",
      {Value(table)});
  if (!text_columns) return text_columns.error();
  std::vector<std::string> converted;
  for (const Value& name : text_columns->column(0).values) {
    const std::string column = quote_identifier(name.as_text());
    const std::string value = "trim(" + column + ")";
    core::Result<QueryResult> reads =
        db.query("SELECT " + matches_all(value, kDecimalComma) + ", " + matches_all(value, kDecimalPoint) +
                 ", bool_or(regexp_matches(" + value + ", '[.,]')) FROM " + quote_identifier(table) +
                 " WHERE " + column + " IS NOT NULL");
    if (!reads) return reads.error();
    const Value& comma_read = reads->at(0, 0);
    const Value& point_read = reads->at(0, 1);
    const bool comma = !comma_read.is_null() && comma_read.as_bool();
    const bool point = !point_read.is_null() && point_read.as_bool();
    const Value& grouped = reads->at(0, 2);
    if ((!comma && !point) || grouped.is_null() || !grouped.as_bool()) continue;  // "00123" stays an id
    const bool decimal_comma = comma && (!point || delimiter == ';');
    if (core::Result<void> altered = db.exec("ALTER TABLE " + quote_identifier(table) + " ALTER " + column +
                                             " TYPE DOUBLE USING " + as_number(value, decimal_comma));
        !altered)
      return altered.error();
    converted.push_back(name.as_text() + (decimal_comma ? " (decimal comma)" : " (thousands commas)"));
  }
  return converted;
}

}  // namespace planfirst::data
