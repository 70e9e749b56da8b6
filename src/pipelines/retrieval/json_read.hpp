// Readers for the JSON the retrieval nodes take from a state file: each returns the value or a
// kInvalidArgument naming the JSON pointer at fault, so an edited state is an error, not a crash.
// Pure functions over nlohmann::json; include only from .cpp files.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace planfirst::retrieval {

// A string at `pointer`; `fallback` when null.
core::Result<std::string> read_string(const nlohmann::json& value, const std::string& pointer,
                                      std::string_view fallback = "");
// An array of strings at `pointer` (a lone string counts as one); empty when null.
core::Result<std::vector<std::string>> read_strings(const nlohmann::json& value, const std::string& pointer);
// An array at `pointer`, as a pointer to it; an empty array when null.
core::Result<const nlohmann::json*> read_array(const nlohmann::json& value, const std::string& pointer);

// Each item of the array at `pointer` (empty when null) read by `read_one(item, item_pointer)`,
// which returns core::Result<T>; the first error stops the walk.
template <typename T, typename ReadOne>
core::Result<std::vector<T>> read_list(const nlohmann::json& value, const std::string& pointer,
                                       ReadOne read_one) {
  core::Result<const nlohmann::json*> array = read_array(value, pointer);
  if (!array) return array.error();
  std::vector<T> items;
  items.reserve((*array)->size());
  for (std::size_t i = 0; i < (*array)->size(); ++i) {
    core::Result<T> item = read_one((**array)[i], pointer + "/" + std::to_string(i));
    if (!item) return item.error();
    items.push_back(std::move(*item));
  }
  return items;
}

}  // namespace planfirst::retrieval
