#include "data/query_result.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

namespace planfirst::data {
namespace {

core::Json value_to_json(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kNull: return nullptr;
    case Value::Kind::kBool: return value.as_bool();
    case Value::Kind::kInt: return value.as_int();
    case Value::Kind::kDouble:
      if (!std::isfinite(value.as_double())) return nullptr;
      return value.as_double();
    case Value::Kind::kText: return value.as_text();
  }
  return nullptr;
}

}  // namespace

std::string_view to_string(ColumnType type) {
  switch (type) {
    case ColumnType::kBoolean: return "boolean";
    case ColumnType::kInteger: return "integer";
    case ColumnType::kDouble: return "double";
    case ColumnType::kText: return "text";
    case ColumnType::kDate: return "date";
    case ColumnType::kTimestamp: return "timestamp";
    case ColumnType::kOther: return "other";
  }
  return "other";
}

QueryResult::QueryResult(std::vector<Column> columns) : columns_(std::move(columns)) {
  row_count_ = columns_.empty() ? 0 : columns_.front().values.size();
}

const Column* QueryResult::find_column(std::string_view name) const {
  for (const Column& column : columns_) {
    if (column.name == name) return &column;
  }
  return nullptr;
}

core::Json QueryResult::to_json() const {
  core::Json rows = core::Json::array();
  for (std::size_t row = 0; row < row_count_; ++row) {
    core::Json object = core::Json::object();
    for (const Column& column : columns_) object[column.name] = value_to_json(column.values[row]);
    rows.push_back(std::move(object));
  }
  return rows;
}

}  // namespace planfirst::data
