#include "pipelines/autoviz/json_fields.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace planfirst::autoviz {
namespace {

std::string pointer(const std::string& where, std::string_view key) {
  return where + "/" + std::string(key);
}

}  // namespace

core::Result<void> check_object(const core::Json& json, const std::string& where,
                                std::initializer_list<std::string_view> required,
                                std::initializer_list<std::string_view> optional) {
  if (!json.is_object())
    return core::invalid_argument("expected an object, not " + std::string(json.type_name()), where);
  for (std::string_view key : required) {
    if (!json.contains(std::string(key)))
      return core::invalid_argument("'" + std::string(key) + "' is required", where);
  }
  for (const auto& [key, value] : json.items()) {
    if (std::ranges::find(required, key) == required.end() &&
        std::ranges::find(optional, key) == optional.end()) {
      return core::invalid_argument("unknown field '" + key + "'", pointer(where, key));
    }
  }
  return core::ok();
}

core::Result<std::string> string_field(const core::Json& object, std::string_view key,
                                       const std::string& where) {
  const core::Json& value = object.at(std::string(key));
  if (!value.is_string()) return core::invalid_argument("expected a string", pointer(where, key));
  return value.get<std::string>();
}

core::Result<std::optional<std::string>> nullable_string_field(const core::Json& object, std::string_view key,
                                                               const std::string& where) {
  if (object.at(std::string(key)).is_null()) return std::optional<std::string>();
  core::Result<std::string> text = string_field(object, key, where);
  if (!text) return text.error();
  return std::optional<std::string>(std::move(*text));
}

core::Result<std::vector<std::string>> string_list_field(const core::Json& object, std::string_view key,
                                                         const std::string& where) {
  const core::Json& value = object.at(std::string(key));
  if (!value.is_array()) return core::invalid_argument("expected a list of strings", pointer(where, key));
  std::vector<std::string> list;
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_string()) {
      return core::invalid_argument("expected a string", pointer(where, key) + "/" + std::to_string(i));
    }
    list.push_back(value[i].get<std::string>());
  }
  return list;
}

}  // namespace planfirst::autoviz
