// Checkpoint storage figures (not assertions): append latency p50/p99 for the memory and SQLite
// checkpointers, bytes stored per thread (100 and 1,000 steps) with a small state and with a state
// growing by 1 KiB per step, and the latency of reading a state at step 10,000.
//   build-bench/bench/graph_storage_bench [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "graph/checkpointer.hpp"
#include "graph/memory_checkpointer.hpp"
#include "graph/sqlite_checkpointer.hpp"
#include "graph/state_assembler.hpp"
#include "scratch_dir.hpp"

namespace {

using planfirst::core::Json;
using namespace planfirst::graph;
using planfirst::bench::ScratchDir;

constexpr std::size_t kChunkEvery = 16;  // the runner's default
const std::string kPayload(1000, 'x');

std::unique_ptr<Checkpointer> open_store(bool sqlite, const ScratchDir& dir, const std::string& name) {
  if (!sqlite) return std::make_unique<MemoryCheckpointer>();
  std::filesystem::remove(dir.file(name));
  auto opened = SqliteCheckpointer::open(dir.file(name));
  if (!opened) std::abort();
  return std::move(*opened);
}

// Writes one step of the peer benchmark's graph to a thread: the control fields always, and with
// `growing` a ~1 KiB message and a reasoning entry appended (a chunk every kChunkEvery, as the runner writes
// them).
class ThreadWriter {
 public:
  ThreadWriter(std::string thread, bool growing) : thread_(std::move(thread)), growing_(growing) {}

  CheckpointRecord next() {
    CheckpointRecord record;
    record.thread_id = thread_;
    record.step = step_;
    record.checkpoint_id = thread_ + "-" + std::to_string(step_);
    record.parent_id = head_;
    record.node = step_ % 2 == 1 ? "supervisor" : "analyst";
    record.last_completed_node = record.node;
    record.next_node = step_ % 2 == 1 ? "analyst" : "supervisor";
    record.created_at = std::chrono::system_clock::now();
    record.metadata_json = "{}";
    auto replace = [&](const char* key, const Json& value) {
      record.writes.push_back({key, WriteKind::kReplace, value.dump()});
    };
    replace("step", step_);
    replace("next_agent", record.next_node);
    replace("phase", "analysis");
    replace("plan_steps_completed", step_ / 2);
    replace("requires_user_input", false);
    replace("checkpoint_message", "");
    if (growing_) {
      list_write(record, "messages", {{"role", "assistant"}, {"name", record.node}, {"content", kPayload}});
      list_write(record, "reasoning",
                 {{"step_name", record.node}, {"step_text", "step " + std::to_string(step_)}});
    }
    head_ = record.checkpoint_id;
    ++step_;
    return record;
  }
  const std::string& head() const { return head_; }

 private:
  void list_write(CheckpointRecord& record, const std::string& key, Json item) {
    lists_[key].push_back(item);
    record.writes.push_back(
        append_write(key, Json::array({std::move(item)}), lists_[key], pending_, kChunkEvery));
  }

  std::string thread_;
  bool growing_;
  std::int64_t step_ = 0;
  std::string head_;
  std::map<std::string, Json> lists_;
  PendingAppendsByKey pending_;
};

double percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  return values[std::min(values.size() - 1,
                         static_cast<std::size_t>(p * static_cast<double>(values.size())))];
}

// Appends steps of 100-step threads; reports p50/p99 of one append in microseconds.
void BM_Append(benchmark::State& state) {
  const bool sqlite = state.range(0) == 1;
  const bool growing = state.range(1) == 1;
  ScratchDir dir;
  std::unique_ptr<Checkpointer> store = open_store(sqlite, dir, "append.sqlite");
  std::vector<double> micros;
  int thread = 0;
  auto writer = std::make_unique<ThreadWriter>("t0", growing);
  std::int64_t steps = 0;
  for (auto _ : state) {
    if (steps % 100 == 0 && steps > 0)
      writer = std::make_unique<ThreadWriter>("t" + std::to_string(++thread), growing);
    const CheckpointRecord record = writer->next();
    const auto start = std::chrono::steady_clock::now();
    auto appended = store->append(record, record.parent_id);
    micros.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    if (!appended) state.SkipWithError(appended.error().describe().c_str());
    ++steps;
  }
  state.counters["p50_us"] = percentile(micros, 0.50);
  state.counters["p99_us"] = percentile(micros, 0.99);
  state.counters["steps_per_s"] = benchmark::Counter(static_cast<double>(steps), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Append)
    ->ArgNames({"sqlite", "growing"})
    ->Args({0, 0})
    ->Args({1, 0})
    ->Args({0, 1})
    ->Args({1, 1})
    ->Iterations(10000)
    ->UseRealTime()
    ->Unit(benchmark::kMicrosecond);

// Bytes stored per thread of `steps` steps (logical bytes from stored_bytes(); for SQLite also the
// file), and per step: equal bytes_per_step at 100 and 1,000 steps is linear growth.
void BM_BytesPerThread(benchmark::State& state) {
  const bool sqlite = state.range(0) == 1;
  const bool growing = state.range(1) == 1;
  const std::int64_t steps = state.range(2);
  const int threads = static_cast<int>(std::max<std::int64_t>(2, 2000 / steps));
  ScratchDir dir;
  double logical = 0;
  double file = 0;
  for (auto _ : state) {
    std::unique_ptr<Checkpointer> store = open_store(sqlite, dir, "bytes.sqlite");
    logical = 0;
    for (int t = 0; t < threads; ++t) {
      ThreadWriter writer("t" + std::to_string(t), growing);
      for (std::int64_t step = 0; step < steps; ++step) {
        const CheckpointRecord record = writer.next();
        if (!store->append(record, record.parent_id)) state.SkipWithError("append failed");
      }
      logical += static_cast<double>(*store->stored_bytes("t" + std::to_string(t)));
    }
    store.reset();  // the last connection checkpoints the WAL into the file
    if (sqlite) file = static_cast<double>(std::filesystem::file_size(dir.file("bytes.sqlite")));
  }
  state.counters["stored_bytes_per_thread"] = logical / threads;
  state.counters["stored_bytes_per_step"] = logical / threads / static_cast<double>(steps);
  if (sqlite) state.counters["file_bytes_per_thread"] = file / threads;
}
BENCHMARK(BM_BytesPerThread)
    ->ArgNames({"sqlite", "growing", "steps"})
    ->ArgsProduct({{0, 1}, {0, 1}, {100, 1000}})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

// Reads the state at the head of a 10,000-step thread: writes_for_state + assemble_state.
// with_log: a reasoning entry is appended every step (a chunk every 16), so the state holds a
// 10,000-item list; without, the state is the control fields only.
void BM_StateReadAt10kSteps(benchmark::State& state) {
  const bool sqlite = state.range(0) == 1;
  const bool with_log = state.range(1) == 1;
  ScratchDir dir;
  std::unique_ptr<Checkpointer> store = open_store(sqlite, dir, "read.sqlite");
  ThreadWriter writer("long", false);
  PendingAppendsByKey pending;
  Json items = Json::array();
  for (int step = 0; step < 10000; ++step) {
    CheckpointRecord record = writer.next();
    if (with_log) {
      Json item = {{"step_name", record.node}, {"step_text", "step " + std::to_string(step)}};
      items.push_back(item);
      record.writes.push_back(append_write("reasoning", Json::array({item}), items, pending, kChunkEvery));
    }
    if (!store->append(record, record.parent_id)) state.SkipWithError("append failed");
  }
  std::size_t keys = 0;
  for (auto _ : state) {
    auto writes = store->writes_for_state("long", writer.head());
    if (!writes) state.SkipWithError(writes.error().describe().c_str());
    auto assembled = assemble_state(*writes);
    if (!assembled) state.SkipWithError(assembled.error().describe().c_str());
    keys = assembled->size();
    benchmark::DoNotOptimize(keys);
  }
  state.counters["keys"] = static_cast<double>(keys);
}
BENCHMARK(BM_StateReadAt10kSteps)
    ->ArgNames({"sqlite", "with_log"})
    ->Args({0, 0})
    ->Args({1, 0})
    ->Args({0, 1})
    ->Args({1, 1})
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
