// The autoviz graph runs seed 002 as one node per step: profile -> intent -> requirements -> narrow
// -> adapt -> coverage (back to narrow with the missing requirements) -> confirm (a decision node,
// only when the input asks for it) -> review -> execute (back to adapt with the refused semantic
// repairs in "replan") -> report. Coverage retries and re-plans share one budget: planning_attempts
// counts the plans made, and neither goes back once it exceeds kMaxPlanningRetries. The state is
// one JSON object whose keys are below; a run's input sets question, dataset and out_dir (and
// table, confirm when wanted; outputs, e.g. ["chart"], joins outputs the caller always wants to
// those the question asks for). plan_only ends the run after coverage; write_files=false ends it
// after execute without writing files, for evaluations that read only the state. With an LLM server
// configured, intent, requirements and adapt append which strategy answered to "strategies", and
// adapt keeps the model's changes to the template in "adaptation" (null when the rules planned).
#pragma once

#include <memory>
#include <string_view>

#include "core/result.hpp"
#include "graph/compiled_graph.hpp"
#include "graph/graph_registry.hpp"
#include "pipelines/autoviz/autoviz_services.hpp"

namespace planfirst::autoviz {

inline constexpr std::string_view kAutovizGraphName = "autoviz";
inline constexpr int kMaxPlanningRetries = 2;  // plans after the first, for coverage or a semantic repair

// REQUIRES: `services` is non-null.
core::Result<graph::CompiledGraph> build_autoviz_graph(std::shared_ptr<const AutovizServices> services);

// Adds "autoviz" to `registry`; its factory loads the services from the dependencies' assets and
// config each time it builds the graph.
core::Result<void> register_autoviz_graph(graph::GraphRegistry& registry);

}  // namespace planfirst::autoviz
