#include "graph/reducer.hpp"

#include <nlohmann/json.hpp>

namespace planfirst::graph {
namespace {

core::Result<void> require_array(const core::Json& value, std::string_view pointer, Reducer reducer) {
  if (value.is_array()) return core::ok();
  return core::invalid_argument(
      std::string("a ") + std::string(to_string(reducer)) + " key takes an array, not " + value.type_name(),
      std::string(pointer));
}

core::Result<void> merge_by_id(core::Json& target, const core::Json& value, std::string_view pointer) {
  for (std::size_t i = 0; i < value.size(); ++i) {
    const core::Json& item = value[i];
    const std::string item_pointer = std::string(pointer) + "/" + std::to_string(i);
    if (!item.is_object() || !item.contains("id") || !item["id"].is_string()) {
      return core::invalid_argument("a merge_by_id item must be an object with a string \"id\"",
                                    item_pointer);
    }
    core::Json* existing = nullptr;
    for (core::Json& known : target) {
      if (known.is_object() && known.contains("id") && known["id"] == item["id"]) {
        existing = &known;
        break;
      }
    }
    if (existing == nullptr) {
      target.push_back(item);
    } else {
      for (const auto& [field, field_value] : item.items()) (*existing)[field] = field_value;
    }
  }
  return core::ok();
}

}  // namespace

std::string_view to_string(Reducer reducer) {
  switch (reducer) {
    case Reducer::kReplace: return "replace";
    case Reducer::kAppend: return "append";
    case Reducer::kMergeById: return "merge_by_id";
  }
  return "replace";
}

Reducer reducer_for(const ReducerTable& reducers, std::string_view key) {
  auto it = reducers.find(key);
  return it == reducers.end() ? Reducer::kReplace : it->second;
}

core::Result<void> reduce(Reducer reducer, core::Json& target, const core::Json& value,
                          std::string_view pointer) {
  if (reducer == Reducer::kReplace) {
    target = value;
    return core::ok();
  }
  if (auto ok = require_array(value, pointer, reducer); !ok) return ok;
  if (target.is_null()) target = core::Json::array();
  if (!target.is_array()) {
    return core::invalid_argument("the state holds a " + std::string(target.type_name()) + " where " +
                                      std::string(to_string(reducer)) + " needs an array",
                                  std::string(pointer));
  }
  if (reducer == Reducer::kAppend) {
    target.insert(target.end(), value.begin(), value.end());
    return core::ok();
  }
  return merge_by_id(target, value, pointer);
}

core::Result<void> merge_delta(const ReducerTable& reducers, core::Json& state, const core::Json& delta) {
  if (!delta.is_object()) return core::invalid_argument("a delta must be a JSON object", "");
  if (!state.is_object()) state = core::Json::object();
  for (const auto& [key, value] : delta.items()) {
    if (auto ok = reduce(reducer_for(reducers, key), state[key], value, "/" + key); !ok) return ok;
  }
  return core::ok();
}

}  // namespace planfirst::graph
