// Field readers for the JSON mappings of this folder's value types (Requirements, Plan): each
// failure is kInvalidArgument whose `where` is the JSON pointer at fault. Pure functions.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"

namespace planfirst::autoviz {

// `json` is an object holding every `required` key and no key outside `required` and `optional`.
core::Result<void> check_object(const core::Json& json, const std::string& where,
                                std::initializer_list<std::string_view> required,
                                std::initializer_list<std::string_view> optional = {});
core::Result<std::string> string_field(const core::Json& object, std::string_view key,
                                       const std::string& where);
// A string or null; nullopt for null.
core::Result<std::optional<std::string>> nullable_string_field(const core::Json& object, std::string_view key,
                                                               const std::string& where);
core::Result<std::vector<std::string>> string_list_field(const core::Json& object, std::string_view key,
                                                         const std::string& where);

}  // namespace planfirst::autoviz
