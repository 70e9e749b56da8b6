#include "graph/node.hpp"

#include <nlohmann/json.hpp>

#include "core/json_member.hpp"

namespace planfirst::graph {
bool StateView::has(std::string_view key) const {
  return state_.is_object() && state_.contains(key);
}

const core::Json& StateView::member_or_null(std::string_view key) const {
  return core::member_or_null(state_, key);
}

std::string StateView::string_or(std::string_view key, std::string_view fallback) const {
  const core::Json& value = member_or_null(key);
  return value.is_string() ? value.get<std::string>() : std::string(fallback);
}

std::int64_t StateView::int_or(std::string_view key, std::int64_t fallback) const {
  const core::Json& value = member_or_null(key);
  return value.is_number_integer() ? value.get<std::int64_t>() : fallback;
}

bool StateView::bool_or(std::string_view key, bool fallback) const {
  const core::Json& value = member_or_null(key);
  return value.is_boolean() ? value.get<bool>() : fallback;
}

Delta worker_delta(core::Json fields) {
  fields[std::string(kDefaultInterruptKey)] = false;
  return Delta(std::move(fields));
}

NodeSpec worker_node(std::string name, NodeFunction function, std::vector<std::string> writes) {
  NodeSpec spec;
  spec.name = std::move(name);
  spec.function = std::move(function);
  spec.writes = std::move(writes);
  return spec;
}

NodeSpec decision_node(std::string name, NodeFunction function, std::vector<std::string> writes) {
  NodeSpec spec = worker_node(std::move(name), std::move(function), std::move(writes));
  spec.kind = NodeKind::kDecision;
  return spec;
}

}  // namespace planfirst::graph
