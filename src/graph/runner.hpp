// Runner executes a CompiledGraph step by step: each node's delta is validated, merged by the
// graph's reducers and, with a checkpointer, written as one CheckpointRecord holding only the keys
// that changed (append keys as appends, compacted into a chunk every `chunk_every`). The head moves by
// compare-and-swap, so a stale or unknown checkpoint id on resume is kConflict, never a silent fork;
// fork() is the explicit way to branch. A decision node's interrupt ends the call with the message,
// prompt and checkpoint id; resume() continues from the node after it, never re-running it.
// Thread-safe: one runner may serve many threads at once (the checkpointer serializes each thread).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/cancellation.hpp"
#include "core/clock.hpp"
#include "core/ids.hpp"
#include "core/result.hpp"
#include "core/sleeper.hpp"
#include "graph/checkpointer.hpp"
#include "graph/compiled_graph.hpp"
#include "graph/events.hpp"
#include "graph/json_value.hpp"
#include "graph/thread_pool.hpp"

namespace planfirst::graph {

struct RunnerOptions {
  Checkpointer* checkpointer = nullptr;  // borrowed; nullptr: nothing persists, resume is unavailable
  const core::Clock* clock = nullptr;    // borrowed; nullptr: the system clock
  core::IdGenerator* ids = nullptr;      // borrowed; checkpoint ids; nullptr: random UUIDs
  core::Sleeper* sleeper = nullptr;      // borrowed; retry pauses; nullptr: real sleeps
  EventSink* events = nullptr;           // borrowed; nullptr: no events
  bool stream_values = false;            // also send a `values` event (the whole state) per step
  std::size_t chunk_every = 16;     // every Nth append to a key is written as a chunk of the pending ones
  std::int64_t max_steps = 10'000;  // node steps per call; beyond: the run fails
  std::size_t branch_threads = 4;   // fan-out thread pool size
  // Borrowed; once cancelled, the run stops before its next node: the head becomes a failed record
  // (metadata "stopped": true) whose next node is that node, so recover() continues from it and a
  // new input starts a new turn. No event is sent; the call returns kFailed with a kUnavailable error.
  const core::CancellationToken* stop = nullptr;
};

enum class RunStatus { kDone, kInterrupted, kFailed };
std::string_view to_string(RunStatus status);  // "done", "interrupted", "failed"

// Whether `record` is the failed record a stop leaves (RunnerOptions::stop): recover() continues it.
bool stopped_record(const CheckpointRecord& record);

struct RunResult {
  RunStatus status = RunStatus::kDone;
  std::string thread_id;
  std::string checkpoint_id;  // the thread's head after this call: resume() takes it
  std::int64_t step = 0;
  std::string last_completed_node;
  std::string interrupt_node;        // kInterrupted: the decision node that asks
  std::string message;               // kInterrupted: the checkpoint message
  std::string prompt;                // kInterrupted: the checkpoint prompt
  std::optional<core::Error> error;  // kFailed: why (the node's error or its invalid delta)
  JsonValue state;                   // the state at checkpoint_id
};

class Runner {
 public:
  // REQUIRES: everything `options` borrows outlives the runner.
  Runner(CompiledGraph graph, RunnerOptions options);
  ~Runner();  // waits for node calls abandoned after a timeout
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  const CompiledGraph& graph() const { return graph_; }

  // Starts `thread_id` from the entry with `input` (an object under the state contract). A thread
  // that is done or failed takes the input as a new turn; one that awaits an answer or is mid-run
  // is kFailedPrecondition (resume or recover it). kConflict if another writer moved the head.
  core::Result<RunResult> run(std::string_view thread_id, const JsonValue& input);

  // Merges `answer` (GraphSettings::answer) and continues from the interrupted node's successor.
  // kConflict unless `checkpoint_id` is the thread's head; kFailedPrecondition if the head does
  // not await an answer; kNotFound for an unknown thread.
  core::Result<RunResult> resume(std::string_view thread_id, std::string_view checkpoint_id,
                                 std::string_view answer);

  // Continues a thread whose head is running (after a crash) or failed (re-runs the failed node).
  core::Result<RunResult> recover(std::string_view thread_id);

  // Copies the state at `checkpoint_id` into the new thread `new_thread_id` as its first record
  // (same status, next node and interrupt; metadata names the source). Returns its checkpoint id.
  // kNotFound for an unknown source; kConflict when `new_thread_id` exists.
  core::Result<std::string> fork(std::string_view thread_id, std::string_view checkpoint_id,
                                 std::string_view new_thread_id);

  // The state at `checkpoint_id` (empty: the head).
  core::Result<JsonValue> state(std::string_view thread_id, std::string_view checkpoint_id = "");

  // Runs one node (with its policies, fan-out included) on `state` and returns its validated delta,
  // as the runtime would merge it; nothing is merged or persisted. kNotFound for an unknown node;
  // kInvalidArgument listing every violation of an invalid delta.
  core::Result<Delta> run_node(std::string_view node, const JsonValue& state);

 private:
  struct Cursor;
  struct StepOutcome;

  core::Result<RunResult> drive(Cursor& cursor, std::string next);
  core::Result<StepOutcome> execute(const Cursor& cursor, const CompiledNode& node);
  core::Result<StepOutcome> execute_fan_out(const Cursor& cursor, const CompiledNode& node);
  core::Result<Delta> call_with_policy(const CompiledNode& node, const NodeFunction& function,
                                       const core::Json& state, NodeContext context);
  core::Result<Delta> call_once(const CompiledNode& node, const NodeFunction& function,
                                const core::Json& state, const NodeContext& context);
  core::Result<void> commit(Cursor& cursor, CheckpointRecord record);
  core::Result<Cursor> load(std::string_view thread_id, const CheckpointRecord& record);
  core::Result<CheckpointRecord> require_head(std::string_view thread_id);
  NodeContext context_for(const Cursor& cursor, std::string node_path);
  void emit(EventKind kind, const Cursor& cursor, std::string_view node, core::Json data);

  CompiledGraph graph_;
  RunnerOptions options_;
  std::unique_ptr<core::Clock> own_clock_;      // when options_.clock is null
  std::unique_ptr<core::IdGenerator> own_ids_;  // when options_.ids is null
  std::unique_ptr<core::Sleeper> own_sleeper_;  // when options_.sleeper is null
  std::unique_ptr<ThreadPool> pool_;            // created on the first fan-out
  std::once_flag pool_once_;
  std::mutex abandoned_mutex_;
  std::vector<std::thread> abandoned_;  // guarded by abandoned_mutex_; timed-out calls still running
};

}  // namespace planfirst::graph
