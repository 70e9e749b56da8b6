// Harness: a runner's borrowed parts for tests (manual clock, sequential ids, recording sleeper, event
// log, recording in-memory checkpointer), and compile_or_throw for graphs a test builds.
#pragma once

#include <stdexcept>

#include "core/sleeper.hpp"
#include "graph/graph_builder.hpp"
#include "graph/runner.hpp"
#include "graph_test_support.hpp"

namespace planfirst::graph::testing {

struct Harness {
  core::ManualClock clock;
  core::SequentialIdGenerator ids{"cp-"};
  core::RecordingSleeper sleeper;
  EventLog events;
  RecordingCheckpointer store;

  RunnerOptions options() {
    RunnerOptions options;
    options.checkpointer = &store;
    options.clock = &clock;
    options.ids = &ids;
    options.sleeper = &sleeper;
    options.events = &events;
    return options;
  }
};

inline CompiledGraph compile_or_throw(const GraphBuilder& builder,
                                      const contracts::ContractRegistry* contracts = nullptr) {
  core::Result<CompiledGraph> graph = builder.compile(contracts);
  if (!graph) throw std::runtime_error(graph.error().describe());
  return *graph;
}

}  // namespace planfirst::graph::testing
