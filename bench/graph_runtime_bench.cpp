// Graph runtime figures (not assertions): supervisor -> worker -> supervisor steps with no
// checkpointer and with the in-memory one (steps/s, us/step), and the interrupt round trip
// (run to a decision node's interrupt, then resume to the end).
#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>

#include "graph/graph_builder.hpp"
#include "graph/memory_checkpointer.hpp"
#include "graph/runner.hpp"
#include "graph/supervisor.hpp"

namespace {

using planfirst::core::Json;
using namespace planfirst::graph;

// supervisor routes to worker until `steps` worker steps ran; worker counts and logs one line.
CompiledGraph supervisor_worker_graph(std::int64_t steps) {
  GraphSettings settings;
  settings.reducers = {{"log", Reducer::kAppend}};
  settings.common_writes = {"next_agent"};
  GraphBuilder builder("bench", settings);
  builder.add_node(worker_node("supervisor", [steps](const StateView& state, const NodeContext&) -> planfirst::core::Result<Delta> {
    return Delta(Json{{"next_agent", state.int_or("count", 0) < steps ? "worker" : "__end__"}});
  }));
  builder.add_node(worker_node(
      "worker",
      [](const StateView& state, const NodeContext&) -> planfirst::core::Result<Delta> {
        const std::int64_t count = state.int_or("count", 0) + 1;
        return Delta(Json{{"count", count}, {"log", {count}}, {"next_agent", "supervisor"}});
      },
      {"count", "log"}));
  builder.set_entry("supervisor");
  SupervisorLayout layout;
  layout.supervisor = "supervisor";
  layout.workers = {"worker"};
  add_supervisor_edges(builder, layout);
  return *builder.compile();
}

void run_steps(benchmark::State& state, bool checkpointed) {
  const std::int64_t steps = state.range(0);
  const CompiledGraph graph = supervisor_worker_graph(steps);
  planfirst::core::SequentialIdGenerator ids("cp-");
  std::int64_t thread = 0;
  std::chrono::nanoseconds elapsed{0};
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    MemoryCheckpointer store;
    RunnerOptions options;
    options.ids = &ids;
    if (checkpointed) options.checkpointer = &store;
    Runner runner(graph, options);
    auto result = runner.run("t" + std::to_string(++thread), JsonValue(Json::object()));
    if (!result || result->status != RunStatus::kDone) state.SkipWithError("run failed");
    elapsed += std::chrono::steady_clock::now() - start;
  }
  const double node_steps = static_cast<double>(2 * steps + 1);  // supervisor + worker per step, final supervisor
  state.counters["steps/s"] =
      benchmark::Counter(node_steps * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["us/step"] =
      std::chrono::duration<double, std::micro>(elapsed).count() / (node_steps * static_cast<double>(state.iterations()));
}

void BM_SupervisorWorker_NoCheckpointer(benchmark::State& state) { run_steps(state, false); }
void BM_SupervisorWorker_MemoryCheckpointer(benchmark::State& state) { run_steps(state, true); }

void BM_InterruptRoundTrip(benchmark::State& state) {
  GraphSettings settings;
  settings.reducers = {{"messages", Reducer::kAppend}};
  settings.common_writes = {"requires_user_input"};
  GraphBuilder builder("interrupt", settings);
  builder.add_node(decision_node(
      "ask",
      [](const StateView&, const NodeContext&) -> planfirst::core::Result<Delta> {
        return Delta(Json{{"requires_user_input", true}, {"checkpoint_message", "Scope ok?"}, {"checkpoint_prompt", "Go?"}});
      },
      {"checkpoint_message", "checkpoint_prompt"}));
  builder.add_node(worker_node("after", [](const StateView&, const NodeContext&) -> planfirst::core::Result<Delta> {
    return Delta(Json{{"requires_user_input", false}});
  }));
  builder.set_entry("ask");
  builder.add_edge("ask", "after");
  builder.set_finish("after");
  const CompiledGraph graph = *builder.compile();
  MemoryCheckpointer store;
  planfirst::core::SequentialIdGenerator ids("cp-");
  RunnerOptions options;
  options.checkpointer = &store;
  options.ids = &ids;
  Runner runner(graph, options);
  std::int64_t thread = 0;
  for (auto _ : state) {
    const std::string id = "t" + std::to_string(++thread);
    auto paused = runner.run(id, JsonValue(Json::object()));
    if (!paused || paused->status != RunStatus::kInterrupted) {
      state.SkipWithError("no interrupt");
      break;
    }
    auto done = runner.resume(id, paused->checkpoint_id, "yes");
    if (!done || done->status != RunStatus::kDone) state.SkipWithError("resume failed");
  }
  state.counters["round_trips/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK(BM_SupervisorWorker_NoCheckpointer)->Arg(100)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SupervisorWorker_MemoryCheckpointer)->Arg(100)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_InterruptRoundTrip)->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
