#include "pipelines/sqlopt/result_equivalence.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace planfirst::sqlopt {
namespace {

std::string number_token(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value == 0) return "0";  // -0 and 0 are one value
  return fmt::format("{:.9g}", value);
}

std::string token(const data::Value& value, data::ColumnType type) {
  switch (value.kind()) {
    case data::Value::Kind::kNull: return "NULL";
    case data::Value::Kind::kBool: return value.as_bool() ? "true" : "false";
    case data::Value::Kind::kInt: return number_token(static_cast<double>(value.as_int()));
    case data::Value::Kind::kDouble: return number_token(value.as_double());
    case data::Value::Kind::kText: break;
  }
  const std::string& text = value.as_text();
  if (type == data::ColumnType::kOther || type == data::ColumnType::kText) {
    // Numbers the engine sent as text (NUMERIC beyond double, HUGEINT) compare as numbers too.
    char* end = nullptr;
    const double parsed = std::strtod(text.c_str(), &end);
    if (!text.empty() && end == text.c_str() + text.size() && type == data::ColumnType::kOther)
      return number_token(parsed);
  }
  if (text == "t" && type == data::ColumnType::kBoolean) return "true";
  if (text == "f" && type == data::ColumnType::kBoolean) return "false";
  return "'" + text + "'";
}

}  // namespace

std::vector<std::string> canonical_rows(const data::QueryResult& result) {
  std::vector<std::string> rows;
  rows.reserve(result.row_count());
  for (std::size_t r = 0; r < result.row_count(); ++r) {
    std::string row;
    for (std::size_t c = 0; c < result.column_count(); ++c) {
      if (c > 0) row += '\x1f';
      row += token(result.at(r, c), result.column(c).type);
    }
    rows.push_back(std::move(row));
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

Equivalence compare_results(const data::QueryResult& a, const data::QueryResult& b) {
  if (a.column_count() != b.column_count()) {
    return {false, fmt::format("{} columns against {}", a.column_count(), b.column_count())};
  }
  if (a.row_count() != b.row_count()) {
    return {false, fmt::format("{} rows against {}", a.row_count(), b.row_count())};
  }
  const std::vector<std::string> left = canonical_rows(a);
  const std::vector<std::string> right = canonical_rows(b);
  for (std::size_t i = 0; i < left.size(); ++i) {
    if (left[i] != right[i]) {
      std::string l = left[i], r = right[i];
      std::replace(l.begin(), l.end(), '\x1f', '|');
      std::replace(r.begin(), r.end(), '\x1f', '|');
      return {false, fmt::format("sorted row {} differs: {} against {}", i + 1, l, r)};
    }
  }
  return {true, {}};
}

}  // namespace planfirst::sqlopt
