#include "graph/supervisor.hpp"

#include <algorithm>

namespace planfirst::graph {

Router supervisor_router(const SupervisorLayout& layout) {
  return [layout](const StateView& state) -> core::Result<std::string> {
    const std::string choice = state.string_or(layout.route_key, "");
    if (choice == layout.finish_value || choice == kEnd) return std::string(kEnd);
    if (std::find(layout.workers.begin(), layout.workers.end(), choice) != layout.workers.end())
      return choice;
    std::string known;
    for (const std::string& worker : layout.workers) known += (known.empty() ? "" : ", ") + worker;
    return core::invalid_argument("supervisor " + layout.supervisor + " routed to \"" + choice +
                                      "\", which is no worker (" + known + ") nor \"" + layout.finish_value +
                                      "\"",
                                  "/" + layout.route_key);
  };
}

void add_supervisor_edges(GraphBuilder& builder, const SupervisorLayout& layout) {
  std::vector<std::string> targets = layout.workers;
  targets.emplace_back(kEnd);
  builder.add_conditional_edges(layout.supervisor, supervisor_router(layout), std::move(targets));
  for (const std::string& worker : layout.workers) {
    auto chain = std::find_if(layout.chains.begin(), layout.chains.end(),
                              [&](const auto& link) { return link.first == worker; });
    builder.add_edge(worker, chain == layout.chains.end() ? layout.supervisor : chain->second);
  }
}

}  // namespace planfirst::graph
