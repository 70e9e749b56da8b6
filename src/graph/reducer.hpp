// Reducers say how a delta's value for a state key merges into the state: replace (the default),
// append (the delta's array items follow the state's), or merge by id (array items with the same
// "id" are updated field by field, new ids are appended in delta order). Pure functions; thread-safe.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "core/json.hpp"
#include "core/result.hpp"

namespace planfirst::graph {

enum class Reducer {
  kReplace,    // the delta's value replaces the state's
  kAppend,     // arrays: state items, then the delta's items (e.g. "reasoning", "messages")
  kMergeById,  // arrays of objects keyed by "id": fields of a known id are overwritten (e.g. "plan_tasks")
};
std::string_view to_string(Reducer reducer);  // "replace", "append", "merge_by_id"

// Reducer per state key; a key not listed is kReplace.
using ReducerTable = std::map<std::string, Reducer, std::less<>>;

Reducer reducer_for(const ReducerTable& reducers, std::string_view key);

// Merges `value` into `target` (the state's current value of one key, null when unset) by `reducer`.
// kInvalidArgument naming `pointer` when the value does not suit the reducer (an append of a
// non-array, a merge-by-id item without a string "id").
core::Result<void> reduce(Reducer reducer, core::Json& target, const core::Json& value,
                          std::string_view pointer);

// Merges every key of the object `delta` into the object `state`.
core::Result<void> merge_delta(const ReducerTable& reducers, core::Json& state, const core::Json& delta);

}  // namespace planfirst::graph
