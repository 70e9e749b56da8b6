// The graph the server tests hold mid-run: node "first" calls `at_gate` (which waits for the test to
// let it go) and writes {"first": true}, then node "second" writes {"second": true}.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "graph/graph_builder.hpp"

namespace planfirst::server::testing {

using AtGate = std::function<void(const graph::StateView&, const graph::NodeContext&)>;

inline core::Result<graph::CompiledGraph> two_step_graph(const std::string& name, AtGate at_gate) {
  graph::GraphBuilder builder(name, graph::GraphSettings{});
  builder.add_node(graph::worker_node(
      "first",
      [at_gate](const graph::StateView& state, const graph::NodeContext& ctx) -> core::Result<graph::Delta> {
        at_gate(state, ctx);
        return graph::Delta(core::Json{{"first", true}});
      },
      {"first"}));
  builder.add_node(graph::worker_node(
      "second",
      [](const graph::StateView&, const graph::NodeContext&) -> core::Result<graph::Delta> {
        return graph::Delta(core::Json{{"second", true}});
      },
      {"second"}));
  builder.set_entry("first");
  builder.add_edge("first", "second");
  builder.add_edge("second", std::string(graph::kEnd));
  return builder.compile();
}

}  // namespace planfirst::server::testing
