#include "graph/state_assembler.hpp"

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
    return core::invalid_argument("stored " + std::string(to_string(write.write.kind)) + " value is not valid JSON",
                                  where_of(write));
  }
  return value;
}

// Applies one write to `state`, an object.
core::Result<void> apply(core::Json& state, const StepWrite& write) {
  core::Result<core::Json> value = parse_value(write);
  if (!value) return value.error();
  if (write.write.kind != WriteKind::kAppend) {
    state[write.write.key] = std::move(*value);
    return core::ok();
  }
  if (!value->is_array()) {
    return core::invalid_argument("an append must be a JSON array of items, got " + std::string(value->type_name()),
                                  where_of(write));
  }
  core::Json& target = state[write.write.key];
  if (target.is_null()) target = core::Json::array();
  if (!target.is_array()) {
    return core::invalid_argument("cannot append to a key whose value is " + std::string(target.type_name()),
                                  where_of(write));
  }
  for (core::Json& item : *value) target.push_back(std::move(item));
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

std::map<std::string, std::size_t> appends_since_snapshot(const std::vector<StepWrite>& writes) {
  std::map<std::string, std::size_t> since;
  std::map<std::string, bool> appended;
  for (const StepWrite& write : writes) {
    if (write.write.kind == WriteKind::kAppend) {
      ++since[write.write.key];
      appended[write.write.key] = true;
    } else {
      since[write.write.key] = 0;
    }
  }
  std::map<std::string, std::size_t> result;
  for (auto& [key, count] : since) {
    if (appended[key]) result.emplace(key, count);
  }
  return result;
}

core::Result<std::vector<KeyWrite>> fold_writes(const std::vector<StepWrite>& writes) {
  std::map<std::string, std::vector<const StepWrite*>> by_key;
  for (const StepWrite& write : writes) by_key[write.write.key].push_back(&write);
  std::vector<KeyWrite> folded;
  folded.reserve(by_key.size());
  for (const auto& [key, key_writes] : by_key) {
    if (key_writes.back()->write.kind != WriteKind::kAppend) {  // its last value, as written
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
