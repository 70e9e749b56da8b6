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

// `pointer` names the cell, built only for an error.
template <typename Pointer>
core::Result<Value> value_from_json(const core::Json& json, ColumnType type, const Pointer& pointer) {
  switch (json.type()) {
    case core::Json::value_t::null: return Value();
    case core::Json::value_t::boolean: return Value(json.get<bool>());
    case core::Json::value_t::number_integer:
    case core::Json::value_t::number_unsigned:
      if (type == ColumnType::kDouble) return Value(json.get<double>());
      return Value(json.get<std::int64_t>());
    case core::Json::value_t::number_float: {
      const double number = json.get<double>();
      if (type == ColumnType::kInteger && std::trunc(number) == number)
        return Value(static_cast<std::int64_t>(number));
      return Value(number);
    }
    case core::Json::value_t::string: return Value(json.get<std::string>());
    default: return core::invalid_argument("a table cell must be a scalar", pointer());
  }
}

}  // namespace

ColumnType parse_column_type(std::string_view text) {
  for (ColumnType type : {ColumnType::kBoolean, ColumnType::kInteger, ColumnType::kDouble, ColumnType::kText,
                          ColumnType::kDate, ColumnType::kTimestamp}) {
    if (to_string(type) == text) return type;
  }
  return ColumnType::kOther;
}

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
  rows.get_ref<core::Json::array_t&>().reserve(row_count_);
  for (std::size_t row = 0; row < row_count_; ++row) {
    core::Json object = core::Json::object();
    for (const Column& column : columns_) object[column.name] = value_to_json(column.values[row]);
    rows.push_back(std::move(object));
  }
  return rows;
}

core::Json QueryResult::columns_json() const {
  core::Json columns = core::Json::array();
  for (const Column& column : columns_) {
    columns.push_back(
        {{"name", column.name}, {"type", to_string(column.type)}, {"sql_type", column.sql_type}});
  }
  return columns;
}

core::Result<QueryResult> QueryResult::from_json(const core::Json& columns, const core::Json& rows) {
  if (!columns.is_array()) return core::invalid_argument("the columns must be an array", "/columns");
  if (!rows.is_array()) return core::invalid_argument("the rows must be an array", "/rows");
  std::vector<Column> out;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const core::Json& column = columns[c];
    if (!column.is_object() || !column.contains("name") || !column["name"].is_string()) {
      return core::invalid_argument("a column needs a name", "/columns/" + std::to_string(c));
    }
    out.push_back({column["name"].get<std::string>(),
                   parse_column_type(column.value("type", "")),
                   column.value("sql_type", ""),
                   {}});
    out.back().values.reserve(rows.size());
  }
  for (std::size_t r = 0; r < rows.size(); ++r) {
    if (!rows[r].is_object())
      return core::invalid_argument("a row must be an object", "/rows/" + std::to_string(r));
    for (Column& column : out) {
      auto pointer = [&] { return "/rows/" + std::to_string(r) + "/" + column.name; };
      auto cell = rows[r].find(column.name);
      core::Result<Value> value =
          cell == rows[r].end() ? core::Result<Value>(Value()) : value_from_json(*cell, column.type, pointer);
      if (!value) return value.error();
      column.values.push_back(std::move(*value));
    }
  }
  return QueryResult(std::move(out));
}

}  // namespace planfirst::data
