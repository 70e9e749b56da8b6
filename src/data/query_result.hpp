// QueryResult is what a query returns: named, typed columns of Values, stored column by column.
// Integer columns hold int64 values (a HUGEINT or UBIGINT too large for int64 is held as a double);
// double columns hold doubles (DECIMAL and NUMERIC included); date and timestamp columns hold
// ISO-8601 text; other types (lists, structs, intervals, blobs, json, uuid) hold their text form.
// A value type: immutable once built; threads may share one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "data/value.hpp"

namespace planfirst::data {

enum class ColumnType { kBoolean, kInteger, kDouble, kText, kDate, kTimestamp, kOther };

// "boolean", "integer", "double", "text", "date", "timestamp", "other".
std::string_view to_string(ColumnType type);
ColumnType parse_column_type(std::string_view text);  // the inverse; kOther for anything else
inline bool is_numeric(ColumnType type) {
  return type == ColumnType::kInteger || type == ColumnType::kDouble;
}
inline bool is_temporal(ColumnType type) {
  return type == ColumnType::kDate || type == ColumnType::kTimestamp;
}

struct Column {
  std::string name;
  ColumnType type = ColumnType::kOther;
  std::string sql_type;       // the engine's own name: "DECIMAL(10,2)", "int4", "TEXT"
  std::vector<Value> values;  // one per row; NULL as Value()
};

class QueryResult {
 public:
  QueryResult() = default;
  // REQUIRES: every column holds the same number of values.
  explicit QueryResult(std::vector<Column> columns);

  std::size_t row_count() const { return row_count_; }
  std::size_t column_count() const { return columns_.size(); }
  const std::vector<Column>& columns() const { return columns_; }
  const Column& column(std::size_t index) const { return columns_.at(index); }
  // The first column called `name`, or nullptr.
  const Column* find_column(std::string_view name) const;
  // REQUIRES: row < row_count(), column < column_count().
  const Value& at(std::size_t row, std::size_t column) const { return columns_.at(column).values.at(row); }

  // The rows as JSON objects keyed by column name, in row order: [{"id": 1, "name": "a"}, ...].
  // NULL -> null; a NaN or infinite double -> null. With duplicate names the last column wins.
  core::Json to_json() const;
  // The columns in order: [{"name": "id", "type": "integer", "sql_type": "BIGINT"}, ...].
  core::Json columns_json() const;
  // The inverse of columns_json() and to_json(): each row's value read by column name, as the
  // column's type reads it (3.0 in an integer column is 3; a NULL, NaN or infinity comes back
  // NULL). kInvalidArgument naming the pointer at fault ("/rows/2/revenue").
  static core::Result<QueryResult> from_json(const core::Json& columns, const core::Json& rows);

 private:
  std::vector<Column> columns_;
  std::size_t row_count_ = 0;
};

}  // namespace planfirst::data
