// The graph the server tests answer badly: decision node "ask" pauses with a prompt; the graph's answer
// function takes only "yes" (else kInvalidArgument at "/answer"); then node "done" writes {"done": true}.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "graph/graph_builder.hpp"

namespace planfirst::server::testing {

inline core::Result<graph::CompiledGraph> answer_checked_graph(const std::string& name) {
  graph::GraphSettings settings;
  settings.answer = [](const graph::StateView&, std::string_view answer) -> core::Result<graph::Delta> {
    if (answer != "yes")
      return core::invalid_argument("answer yes, not '" + std::string(answer) + "'", "/answer");
    return graph::Delta(
        core::Json{{"requires_user_input", false}, {"checkpoint_message", ""}, {"checkpoint_prompt", ""}});
  };
  graph::GraphBuilder builder(name, settings);
  builder.add_node(graph::decision_node(
      "ask",
      [](const graph::StateView&, const graph::NodeContext&) -> core::Result<graph::Delta> {
        return graph::Delta(core::Json{
            {"requires_user_input", true}, {"checkpoint_message", "Go on?"}, {"checkpoint_prompt", "yes"}});
      },
      {"requires_user_input", "checkpoint_message", "checkpoint_prompt"}));
  builder.add_node(graph::worker_node(
      "done",
      [](const graph::StateView&, const graph::NodeContext&) -> core::Result<graph::Delta> {
        return graph::Delta(core::Json{{"done", true}});
      },
      {"done"}));
  builder.set_entry("ask");
  builder.add_edge("ask", "done");
  builder.add_edge("done", std::string(graph::kEnd));
  return builder.compile();
}

}  // namespace planfirst::server::testing
