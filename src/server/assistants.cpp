#include "server/assistants.hpp"

#include <nlohmann/json.hpp>

#include "core/join.hpp"

namespace planfirst::server {

core::Result<graph::CompiledGraph> Assistants::graph(std::string_view name) {
  std::lock_guard lock(mutex_);
  if (auto found = built_.find(name); found != built_.end()) return found->second;
  const std::vector<std::string> known = registry_.names();
  if (std::find(known.begin(), known.end(), name) == known.end()) {
    return core::not_found(
        "no assistant '" + std::string(name) + "'; the assistants are: " + core::join(known), "assistant_id");
  }
  core::Result<graph::CompiledGraph> built = registry_.build(name, dependencies_);
  if (!built) return built.error();
  built_.emplace(std::string(name), *built);
  return *built;
}

core::Json Assistants::describe(std::string_view name) const {
  const graph::GraphInputs keys = registry_.inputs(name);
  core::Json input = core::Json::object();
  if (!keys.dataset.empty()) input["dataset"] = keys.dataset;
  if (!keys.question.empty()) input["question"] = keys.question;
  return core::Json{{"assistant_id", name},
                    {"graph_id", name},
                    {"name", name},
                    {"description", registry_.description(name)},
                    {"config", core::Json::object()},
                    {"metadata", {{"input", input}}}};
}

core::Result<core::Json> Assistants::topology(std::string_view name) {
  core::Result<graph::CompiledGraph> compiled = graph(name);
  if (!compiled) return compiled.error();
  core::Json nodes = core::Json::array();
  for (const graph::CompiledNode& node : compiled->nodes()) {
    nodes.push_back({{"id", node.name},
                     {"kind", node.kind == graph::NodeKind::kDecision ? "decision" : "worker"},
                     {"fan_out", node.fan_out}});
  }
  core::Json edges = core::Json::array();
  for (const graph::Edge& edge : compiled->edges())
    edges.push_back({{"source", edge.from}, {"target", edge.to}, {"conditional", edge.conditional}});
  return core::Json{{"nodes", std::move(nodes)}, {"edges", std::move(edges)}};
}

}  // namespace planfirst::server
