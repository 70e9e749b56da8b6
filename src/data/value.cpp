#include "data/value.hpp"

#include <charconv>
#include <cmath>

namespace planfirst::data {

std::string Value::to_string() const {
  switch (kind()) {
    case Kind::kNull: return "NULL";
    case Kind::kBool: return as_bool() ? "true" : "false";
    case Kind::kInt: return std::to_string(as_int());
    case Kind::kDouble: {
      const double d = as_double();
      if (std::isnan(d)) return "nan";
      if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
      char buffer[64];
      auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, d);
      return ec == std::errc() ? std::string(buffer, end) : std::string("nan");
    }
    case Kind::kText: return as_text();
  }
  return {};
}

std::string_view to_string(Value::Kind kind) {
  switch (kind) {
    case Value::Kind::kNull: return "null";
    case Value::Kind::kBool: return "bool";
    case Value::Kind::kInt: return "int";
    case Value::Kind::kDouble: return "double";
    case Value::Kind::kText: return "text";
  }
  return "null";
}

}  // namespace planfirst::data
