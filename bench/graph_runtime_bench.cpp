// Graph runtime figures (not assertions), in the scenarios of the LangGraph.js peer benchmark
// (../shared/peers/langgraphjs-bench/bench.mjs; scripts/bench-vs-langgraphjs prints the two side by
// side): supervisor -> analyst|critic -> supervisor, 100 threads x 100 steps (one step = one node
// execution), a small state or one growing ~1 KiB per step (a message and a reasoning entry
// appended by every worker), with no checkpointer, the in-memory one, and SQLite (a WAL file in a
// temp dir; synchronous=NORMAL by default, `sqlite_full` fsyncs every commit). Per scenario:
// steps/s, us/step, checkpoint write p50/p99, bytes stored per thread, and the latency of reading
// the head state of a finished thread. Plus the interrupt round trip: run to a decision node's
// interrupt, then resume to the end.
//   build-bench/bench/graph_runtime_bench [--benchmark_filter=...] [--benchmark_format=json]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "graph/graph_builder.hpp"
#include "graph/memory_checkpointer.hpp"
#include "graph/runner.hpp"
#include "graph/sqlite_checkpointer.hpp"
#include "graph/supervisor.hpp"
#include "scratch_dir.hpp"

namespace {

using planfirst::bench::ScratchDir;
using planfirst::core::Json;
using planfirst::core::Result;
using namespace planfirst::graph;
using Clock = std::chrono::steady_clock;

constexpr int kThreads = 100;         // timed threads per scenario, as the peer's `node bench.mjs 100 100`
constexpr int kWarmThreads = 10;      // untimed threads first, as the peer's BENCH_WARM
constexpr std::int64_t kSteps = 100;  // node steps per thread
constexpr int kStateReads = 50;       // head-state reads averaged, as the peer's getState probe
const std::string kPayload(1000, 'x');

enum class Store { kNone, kMemory, kSqlite, kSqliteFull };

// Times every append of the checkpointer it wraps; everything else passes through.
class TimedCheckpointer final : public Checkpointer {
 public:
  explicit TimedCheckpointer(std::unique_ptr<Checkpointer> inner) : inner_(std::move(inner)) {}

  Result<void> append(const CheckpointRecord& record, std::string_view expected_head) override {
    const auto start = Clock::now();
    Result<void> appended = inner_->append(record, expected_head);
    append_us_.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
    return appended;
  }
  Result<std::optional<CheckpointRecord>> head(std::string_view thread_id) override {
    return inner_->head(thread_id);
  }
  Result<CheckpointRecord> get(std::string_view thread_id, std::string_view checkpoint_id) override {
    return inner_->get(thread_id, checkpoint_id);
  }
  Result<std::vector<StepWrite>> writes_for_state(std::string_view thread_id,
                                                  std::string_view checkpoint_id) override {
    return inner_->writes_for_state(thread_id, checkpoint_id);
  }
  Result<std::vector<CheckpointRecord>> history(std::string_view thread_id) override {
    return inner_->history(thread_id);
  }
  Result<std::vector<std::string>> threads() override { return inner_->threads(); }
  Result<PruneReport> prune(std::string_view thread_id, const PruneOptions& options) override {
    return inner_->prune(thread_id, options);
  }
  Result<void> delete_thread(std::string_view thread_id) override { return inner_->delete_thread(thread_id); }
  Result<std::uint64_t> stored_bytes(std::string_view thread_id) override {
    return inner_->stored_bytes(thread_id);
  }

  std::vector<double>& append_us() { return append_us_; }
  void close() { inner_.reset(); }  // the last SQLite connection folds the WAL into the file

 private:
  std::unique_ptr<Checkpointer> inner_;
  std::vector<double> append_us_;
};

std::unique_ptr<TimedCheckpointer> open_store(Store kind, const std::filesystem::path& file) {
  if (kind == Store::kNone) return nullptr;
  if (kind == Store::kMemory)
    return std::make_unique<TimedCheckpointer>(std::make_unique<MemoryCheckpointer>());
  SqliteCheckpointerOptions options;
  options.sync_every_commit = kind == Store::kSqliteFull;
  auto opened = SqliteCheckpointer::open(file, options);
  if (!opened) return nullptr;
  return std::make_unique<TimedCheckpointer>(std::move(*opened));
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[std::min(values.size() - 1,
                         static_cast<std::size_t>(p * static_cast<double>(values.size())))];
}

// The peer's graph: the supervisor counts steps and routes to analyst (step % 4 == 1) or critic
// until `steps`; workers count, complete a plan step and, when `growing`, append a ~1 KiB message
// and a reasoning entry. With `decision`, the supervisor's second call routes to a decision node
// that asks once, and the run ends after it.
CompiledGraph peer_graph(bool growing, bool decision = false) {
  GraphSettings settings;
  settings.reducers = {{"messages", Reducer::kAppend}, {"reasoning", Reducer::kAppend}};
  settings.common_writes = {"step", "next_agent", "requires_user_input"};
  GraphBuilder builder("peer", settings);
  builder.add_node(worker_node(
      "supervisor",
      [decision](const StateView& state, const NodeContext&) -> Result<Delta> {
        const std::int64_t step = state.int_or("step", 0) + 1;
        std::string next = step >= kSteps ? "__end__" : step % 4 == 1 ? "analyst" : "critic";
        if (decision && step == 3) next = "decision";
        if (decision && step > 3) next = "__end__";
        return Delta(
            Json{{"step", step}, {"next_agent", next}, {"phase", next == "__end__" ? "done" : "analysis"}});
      },
      {"phase"}));
  for (const char* name : {"analyst", "critic"}) {
    builder.add_node(worker_node(
        name,
        [growing, name = std::string(name)](const StateView& state, const NodeContext&) -> Result<Delta> {
          const std::int64_t step = state.int_or("step", 0) + 1;
          Json delta{{"step", step},
                     {"plan_steps_completed", state.int_or("plan_steps_completed", 0) + 1},
                     {"requires_user_input", false},
                     {"next_agent", "supervisor"}};
          if (growing) {
            delta["messages"] = Json::array({{{"role", "assistant"}, {"name", name}, {"content", kPayload}}});
            delta["reasoning"] =
                Json::array({{{"step_name", name}, {"step_text", "step " + std::to_string(step)}}});
          }
          return Delta(std::move(delta));
        },
        {"plan_steps_completed", "messages", "reasoning"}));
  }
  SupervisorLayout layout;
  layout.supervisor = "supervisor";
  layout.workers = {"analyst", "critic"};
  if (decision) {
    builder.add_node(decision_node("decision",
                                   [](const StateView& state, const NodeContext&) -> Result<Delta> {
                                     return Delta(Json{{"step", state.int_or("step", 0) + 1},
                                                       {"requires_user_input", true},
                                                       {"checkpoint_prompt", "approve plan?"},
                                                       {"next_agent", "supervisor"}});
                                   },
                                   {"checkpoint_prompt"}));
    layout.workers.push_back("decision");
  }
  builder.set_entry("supervisor");
  add_supervisor_edges(builder, layout);
  return *builder.compile();
}

JsonValue initial_input() {
  return JsonValue(
      Json{{"step", 0},
           {"phase", "planning"},
           {"analysis_complete", false},
           {"plan_tasks", Json::array({{{"id", "t1"}, {"title", "collect"}, {"status", "todo"}},
                                       {{"id", "t2"}, {"title", "critique"}, {"status", "todo"}}})},
           {"plan_steps_total", kSteps},
           {"plan_steps_completed", 0},
           {"requires_user_input", false}});
}

// One iteration = one 100-step thread; the store is shared by every thread of the scenario.
void BM_SupervisorWorker(benchmark::State& state, Store kind, bool growing) {
  ScratchDir dir;
  const std::filesystem::path file = dir.file("checkpoints.sqlite");
  std::unique_ptr<TimedCheckpointer> store = open_store(kind, file);
  if (kind != Store::kNone && store == nullptr) {
    state.SkipWithError("cannot open the checkpointer");
    return;
  }
  RunnerOptions options;
  options.checkpointer = store.get();
  Runner runner(peer_graph(growing), options);
  for (int warm = 0; warm < kWarmThreads; ++warm) {
    if (!runner.run("warm-" + std::to_string(warm), initial_input()))
      state.SkipWithError("warm-up run failed");
  }
  if (store) store->append_us().clear();

  std::int64_t steps = 0;
  int thread = 0;
  std::chrono::nanoseconds elapsed{0};
  for (auto _ : state) {
    const auto start = Clock::now();
    auto result = runner.run("t-" + std::to_string(thread++), initial_input());
    elapsed += Clock::now() - start;
    if (!result || result->status != RunStatus::kDone) {
      state.SkipWithError("run failed");
      return;
    }
    steps += result->state.json().value("step", std::int64_t{0});
  }

  const double seconds = std::chrono::duration<double>(elapsed).count();
  state.counters["steps_per_s"] = static_cast<double>(steps) / seconds;
  state.counters["us_per_step"] = seconds * 1e6 / static_cast<double>(steps);
  if (!store) return;
  state.counters["put_p50_us"] = percentile(store->append_us(), 0.50);
  state.counters["put_p99_us"] = percentile(store->append_us(), 0.99);
  double bytes = 0;
  for (int t = 0; t < thread; ++t)
    bytes += static_cast<double>(*store->stored_bytes("t-" + std::to_string(t)));
  state.counters["stored_bytes_per_thread"] = bytes / thread;
  const std::string last = "t-" + std::to_string(thread - 1);
  const auto read_start = Clock::now();
  for (int read = 0; read < kStateReads; ++read) {
    if (!runner.state(last)) state.SkipWithError("state read failed");
  }
  state.counters["state_read_us"] =
      std::chrono::duration<double, std::micro>(Clock::now() - read_start).count() / kStateReads;
  if (kind == Store::kSqlite || kind == Store::kSqliteFull) {
    store->close();
    state.counters["file_bytes_per_thread"] =
        static_cast<double>(std::filesystem::file_size(file)) / (thread + kWarmThreads);
  }
}

// One iteration = run a thread to the decision node's interrupt, then resume it to the end.
void BM_InterruptRoundTrip(benchmark::State& state, Store kind) {
  ScratchDir dir;
  std::unique_ptr<TimedCheckpointer> store = open_store(kind, dir.file("checkpoints.sqlite"));
  if (store == nullptr) {
    state.SkipWithError("cannot open the checkpointer");
    return;
  }
  RunnerOptions options;
  options.checkpointer = store.get();
  Runner runner(peer_graph(false, true), options);
  std::int64_t thread = 0;
  std::chrono::nanoseconds pause{0};
  std::chrono::nanoseconds resume{0};
  for (auto _ : state) {
    const std::string id = "hitl-" + std::to_string(++thread);
    const auto start = Clock::now();
    auto paused = runner.run(id, initial_input());
    const auto middle = Clock::now();
    if (!paused || paused->status != RunStatus::kInterrupted || paused->interrupt_node != "decision") {
      state.SkipWithError("no interrupt");
      return;
    }
    auto done = runner.resume(id, paused->checkpoint_id, "yes");
    resume += Clock::now() - middle;
    pause += middle - start;
    if (!done || done->status != RunStatus::kDone) {
      state.SkipWithError("resume failed");
      return;
    }
  }
  const double runs = static_cast<double>(state.iterations());
  state.counters["pause_run_us"] = std::chrono::duration<double, std::micro>(pause).count() / runs;
  state.counters["resume_run_us"] = std::chrono::duration<double, std::micro>(resume).count() / runs;
  state.counters["round_trips_per_s"] = runs / std::chrono::duration<double>(pause + resume).count();
}

}  // namespace

BENCHMARK_CAPTURE(BM_SupervisorWorker, none_small, Store::kNone, false)
    ->Iterations(kThreads)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SupervisorWorker, memory_small, Store::kMemory, false)
    ->Iterations(kThreads)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SupervisorWorker, sqlite_small, Store::kSqlite, false)
    ->Iterations(kThreads)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SupervisorWorker, sqlite_full_small, Store::kSqliteFull, false)
    ->Iterations(kThreads)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SupervisorWorker, none_growing, Store::kNone, true)
    ->Iterations(kThreads)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SupervisorWorker, memory_growing, Store::kMemory, true)
    ->Iterations(kThreads)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SupervisorWorker, sqlite_growing, Store::kSqlite, true)
    ->Iterations(kThreads)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_SupervisorWorker, sqlite_full_growing, Store::kSqliteFull, true)
    ->Iterations(kThreads)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_InterruptRoundTrip, memory, Store::kMemory)
    ->Iterations(200)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_InterruptRoundTrip, sqlite, Store::kSqlite)
    ->Iterations(200)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_MAIN();
