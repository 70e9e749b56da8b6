// The two-step graphs the server tests run: node "first" then node "second", which writes
// {"second": true}. gated: "first" calls `at_gate` (which waits for the test to let it go) and writes
// {"first": true}. answer_checked: "first" is a decision node that pauses with a prompt, and the
// graph's answer function takes only "yes" (else kInvalidArgument at "/answer").
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "graph/graph_builder.hpp"

namespace planfirst::server::testing {

// `first` (named "first") -> "second" -> end, under `settings`.
inline core::Result<graph::CompiledGraph> two_step_graph(const std::string& name,
                                                         graph::GraphSettings settings,
                                                         graph::NodeSpec first) {
  graph::GraphBuilder builder(name, std::move(settings));
  builder.add_node(std::move(first));
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

using AtGate = std::function<void(const graph::StateView&, const graph::NodeContext&)>;

inline core::Result<graph::CompiledGraph> two_step_graph(const std::string& name, AtGate at_gate) {
  return two_step_graph(
      name, graph::GraphSettings{},
      graph::worker_node("first",
                         [at_gate](const graph::StateView& state,
                                   const graph::NodeContext& ctx) -> core::Result<graph::Delta> {
                           at_gate(state, ctx);
                           return graph::Delta(core::Json{{"first", true}});
                         },
                         {"first"}));
}

inline core::Result<graph::CompiledGraph> answer_checked_graph(const std::string& name) {
  graph::GraphSettings settings;
  settings.answer = [](const graph::StateView&, std::string_view answer) -> core::Result<graph::Delta> {
    if (answer != "yes")
      return core::invalid_argument("answer yes, not '" + std::string(answer) + "'", "/answer");
    return graph::Delta(
        core::Json{{"requires_user_input", false}, {"checkpoint_message", ""}, {"checkpoint_prompt", ""}});
  };
  return two_step_graph(
      name, std::move(settings),
      graph::decision_node(
          "first",
          [](const graph::StateView&, const graph::NodeContext&) -> core::Result<graph::Delta> {
            return graph::Delta(core::Json{{"requires_user_input", true},
                                           {"checkpoint_message", "Go on?"},
                                           {"checkpoint_prompt", "yes"}});
          },
          {"requires_user_input", "checkpoint_message", "checkpoint_prompt"}));
}

}  // namespace planfirst::server::testing
