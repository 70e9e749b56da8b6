#include "graph/state_assembler.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

namespace planfirst::graph {
namespace {

std::string where_of(const StepWrite& write) {
  return "step " + std::to_string(write.step) + ", key '" + write.write.key + "'";
}

core::Result<core::Json> parse_value(const StepWrite& write) {
  core::Json value = core::Json::parse(write.write.value_json, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) {
    return core::invalid_argument(
        "stored " + std::string(to_string(write.write.kind)) + " value is not valid JSON", where_of(write));
  }
  return value;
}

core::Result<void> append_items(core::Json& target, core::Json& items, const StepWrite& write) {
  if (!items.is_array()) {
    return core::invalid_argument(
        "an append must be a JSON array of items, got " + std::string(items.type_name()), where_of(write));
  }
  if (target.is_null()) target = core::Json::array();
  if (!target.is_array()) {
    return core::invalid_argument("cannot append to a key whose value is " + std::string(target.type_name()),
                                  where_of(write));
  }
  for (core::Json& item : items) target.push_back(std::move(item));
  return core::ok();
}

// A chunk replaces the key's items from its index on: after a prune folded part of the chunk's
// appends into a snapshot, the chunk still lands where its items belong.
core::Result<void> place_chunk(core::Json& target, core::Json& chunk, const StepWrite& write) {
  if (!chunk.is_object() || !chunk.contains("from") || !chunk["from"].is_number_unsigned() ||
      !chunk.contains("items")) {
    return core::invalid_argument("a chunk must be an object with an index \"from\" and \"items\"",
                                  where_of(write));
  }
  const auto from = chunk["from"].get<std::size_t>();
  if (target.is_null()) target = core::Json::array();
  if (target.is_array() && target.size() < from) {
    return core::invalid_argument("a chunk starts at item " + std::to_string(from) + " but the list has " +
                                      std::to_string(target.size()),
                                  where_of(write));
  }
  if (target.is_array()) target.erase(target.begin() + static_cast<std::ptrdiff_t>(from), target.end());
  return append_items(target, chunk["items"], write);
}

// Applies one write to `state`, an object.
core::Result<void> apply(core::Json& state, const StepWrite& write) {
  core::Result<core::Json> value = parse_value(write);
  if (!value) return value.error();
  core::Json& target = state[write.write.key];
  switch (write.write.kind) {
    case WriteKind::kReplace:
    case WriteKind::kSnapshot: target = std::move(*value); return core::ok();
    case WriteKind::kAppend: return append_items(target, *value, write);
    case WriteKind::kChunk: return place_chunk(target, *value, write);
  }
  return core::ok();
}

}  // namespace

core::Result<core::Json> assemble_state(const std::vector<StepWrite>& writes) {
  core::Json state = core::Json::object();
  for (const StepWrite& write : writes) {
    if (core::Result<void> applied = apply(state, write); !applied) return applied.error();
  }
  return state;
}

PendingAppendsByKey pending_appends(const std::vector<StepWrite>& writes) {
  PendingAppendsByKey pending;
  for (const StepWrite& write : writes) {
    if (write.write.kind != WriteKind::kAppend) {
      pending.erase(write.write.key);
      continue;
    }
    PendingAppends& key = pending[write.write.key];
    ++key.appends;
    const core::Json items = core::Json::parse(write.write.value_json, nullptr, /*allow_exceptions=*/false);
    if (items.is_array()) key.items += items.size();
  }
  return pending;
}

KeyWrite append_write(const std::string& key, const core::Json& items, const core::Json& value,
                      PendingAppendsByKey& pending, std::size_t chunk_every) {
  PendingAppends& entry = pending[key];
  ++entry.appends;
  entry.items += items.size();
  if (entry.appends < chunk_every) return {key, WriteKind::kAppend, items.dump()};
  const std::size_t from = value.size() - std::min(entry.items, value.size());
  core::Json tail(value.begin() + static_cast<std::ptrdiff_t>(from), value.end());
  pending.erase(key);
  return {key, WriteKind::kChunk, core::Json{{"from", from}, {"items", std::move(tail)}}.dump()};
}

core::Result<std::vector<KeyWrite>> fold_writes(const std::vector<StepWrite>& writes) {
  std::map<std::string, std::vector<const StepWrite*>> by_key;
  for (const StepWrite& write : writes) by_key[write.write.key].push_back(&write);
  std::vector<KeyWrite> folded;
  folded.reserve(by_key.size());
  for (const auto& [key, key_writes] : by_key) {
    const WriteKind last = key_writes.back()->write.kind;
    if (last == WriteKind::kReplace || last == WriteKind::kSnapshot) {  // its last value, as written
      folded.push_back(key_writes.back()->write);
      continue;
    }
    core::Json state = core::Json::object();
    for (const StepWrite* write : key_writes) {
      if (core::Result<void> applied = apply(state, *write); !applied) return applied.error();
    }
    folded.push_back({key, WriteKind::kSnapshot, state[key].dump()});
  }
  return folded;
}

}  // namespace planfirst::graph
