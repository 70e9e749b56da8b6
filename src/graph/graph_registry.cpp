#include "graph/graph_registry.hpp"

namespace planfirst::graph {

core::Result<void> GraphRegistry::add(std::string name, std::string description, GraphFactory factory,
                                      GraphInputs inputs) {
  if (entries_.count(name) > 0)
    return core::invalid_argument("graph \"" + name + "\" is registered twice", name);
  entries_.emplace(std::move(name), Entry{std::move(description), std::move(factory), std::move(inputs)});
  return core::ok();
}

std::vector<std::string> GraphRegistry::names() const {
  std::vector<std::string> names;
  for (const auto& [name, entry] : entries_) names.push_back(name);
  return names;
}

std::string GraphRegistry::description(std::string_view name) const {
  auto it = entries_.find(name);
  return it == entries_.end() ? std::string() : it->second.description;
}

GraphInputs GraphRegistry::inputs(std::string_view name) const {
  auto it = entries_.find(name);
  return it == entries_.end() ? GraphInputs{} : it->second.inputs;
}

core::Result<CompiledGraph> GraphRegistry::build(std::string_view name,
                                                 const GraphDependencies& dependencies) const {
  auto it = entries_.find(name);
  if (it == entries_.end()) {
    std::string known;
    for (const auto& [known_name, entry] : entries_) known += (known.empty() ? "" : ", ") + known_name;
    return core::not_found("unknown graph \"" + std::string(name) + "\" (graphs: " + known + ")",
                           std::string(name));
  }
  return it->second.factory(dependencies);
}

}  // namespace planfirst::graph
