// Value is one SQL scalar as planfirst binds it to a statement or reads it from a result: null,
// boolean, 64-bit integer, double or text. Dates and timestamps travel as ISO-8601 text
// ("2024-03-01", "2024-03-01 12:30:00"). A value type; copy freely.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace planfirst::data {

class Value {
 public:
  enum class Kind { kNull, kBool, kInt, kDouble, kText };

  Value() = default;                    // NULL
  Value(std::nullptr_t) {}              // NOLINT: implicit by design, like the constructors below
  Value(bool value) : value_(value) {}  // NOLINT
  template <std::integral T>
  requires(!std::same_as<T, bool> && !std::same_as<T, char>) Value(T value)
      : value_(static_cast<std::int64_t>(value)) {}              // NOLINT
  Value(double value) : value_(value) {}                         // NOLINT
  Value(std::string value) : value_(std::move(value)) {}         // NOLINT
  Value(std::string_view value) : value_(std::string(value)) {}  // NOLINT
  Value(const char* value) : value_(std::string(value)) {}       // NOLINT

  Kind kind() const { return static_cast<Kind>(value_.index()); }
  bool is_null() const { return kind() == Kind::kNull; }

  // REQUIRES: kind() is the one named.
  bool as_bool() const { return std::get<bool>(value_); }
  std::int64_t as_int() const { return std::get<std::int64_t>(value_); }
  double as_double() const { return std::get<double>(value_); }
  const std::string& as_text() const { return std::get<std::string>(value_); }

  // The value as text: "NULL", "true"/"false", digits, the shortest double that reads back the
  // same ("0.1", "1e+20", "nan", "inf"), or the text itself.
  std::string to_string() const;

  friend bool operator==(const Value&, const Value&) = default;

 private:
  std::variant<std::monostate, bool, std::int64_t, double, std::string> value_;
};

std::string_view to_string(Value::Kind kind);  // "null", "bool", "int", "double", "text"

}  // namespace planfirst::data
