#include "graph/json_value.hpp"

#include <nlohmann/json.hpp>

namespace planfirst::graph {

JsonValue::JsonValue() : value_(std::make_unique<core::Json>(core::Json::object())) {}
JsonValue::JsonValue(core::Json value) : value_(std::make_unique<core::Json>(std::move(value))) {}
JsonValue::JsonValue(const JsonValue& other) : value_(std::make_unique<core::Json>(*other.value_)) {}
// The moved-from value keeps a (null) JSON value, so json() stays safe to call.
JsonValue::JsonValue(JsonValue&& other) noexcept
    : value_(std::make_unique<core::Json>(std::move(*other.value_))) {}
JsonValue& JsonValue::operator=(const JsonValue& other) {
  if (this != &other) *value_ = *other.value_;
  return *this;
}
JsonValue& JsonValue::operator=(JsonValue&& other) noexcept {
  if (this != &other) value_->swap(*other.value_);
  return *this;
}
JsonValue::~JsonValue() = default;

core::Result<JsonValue> JsonValue::parse(std::string_view text, std::string_view origin) {
  try {
    return JsonValue(core::Json::parse(text));
  } catch (const core::Json::exception& e) {
    return core::invalid_argument(std::string("not JSON: ") + e.what(), std::string(origin));
  }
}

std::string JsonValue::dump() const {
  return value_->dump();
}

bool JsonValue::operator==(const JsonValue& other) const {
  return *value_ == *other.value_;
}

}  // namespace planfirst::graph
