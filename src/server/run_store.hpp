// RunStore keeps what the server adds to the checkpointer: threads (with the assistant they run and
// their metadata), runs (a queue claimed under leases, so a run whose process died is taken over) and
// each run's durable event log, numbered 1, 2, ... without gaps. One implementation per engine
// (SQLite for one process, PostgreSQL for several); every method is atomic and thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace planfirst::server {

using Millis = std::int64_t;  // milliseconds since the Unix epoch

enum class RunStatus { kPending, kRunning, kSuccess, kError, kInterrupted };
std::string_view to_string(RunStatus status);  // "pending", "running", "success", "error", "interrupted"
std::optional<RunStatus> parse_run_status(std::string_view text);
inline bool is_final(RunStatus status) {
  return status == RunStatus::kSuccess || status == RunStatus::kError || status == RunStatus::kInterrupted;
}

struct ThreadRecord {
  std::string thread_id;
  std::string assistant_id;  // the graph its runs use; empty until its first run
  std::string metadata_json = "{}";
  Millis created_at = 0;
  Millis updated_at = 0;
};

struct RunRecord {
  std::string run_id;
  std::string thread_id;
  std::string assistant_id;
  RunStatus status = RunStatus::kPending;
  std::string multitask_strategy = "reject";  // "reject" or "enqueue"
  std::string input_json;                     // an input run: the input object; "" for a resume
  std::string resume_checkpoint_id;           // a resume: the interrupt's checkpoint id
  std::string resume_answer;
  std::string stream_modes = "values,updates,custom,events";  // what its stream sends by default
  std::string start_checkpoint_id;  // the thread's head when the run first started ("" none yet)
  bool started = false;             // a worker called the runtime for it at least once
  std::string result_json = "{}";   // final: checkpoint id, interrupt or error
  std::string worker;               // the process holding its lease
  Millis lease_until = 0;
  int attempt = 0;  // claims so far
  bool cancel_requested = false;
  Millis created_at = 0;
  Millis updated_at = 0;
};

struct StoredEvent {
  std::int64_t seq = 0;  // 1, 2, ... per run
  std::string event;     // SSE event name: metadata, values, updates, custom, events, end
  std::string data_json;
  Millis created_at = 0;
};

// What renewing a lease found.
struct Lease {
  bool held = false;
  bool cancel_requested = false;
};

class RunStore {
 public:
  virtual ~RunStore() = default;

  // kConflict when the thread exists.
  virtual core::Result<void> create_thread(const ThreadRecord& thread) = 0;
  virtual core::Result<std::optional<ThreadRecord>> thread(std::string_view thread_id) = 0;
  // Newest updated first.
  virtual core::Result<std::vector<ThreadRecord>> threads(std::size_t limit, std::size_t offset) = 0;
  virtual core::Result<void> delete_thread(std::string_view thread_id) = 0;  // its runs and events too

  // Adds `run` as pending, binding the thread to its assistant. When the thread has an unfinished
  // run: kConflict if `run.multitask_strategy` is "reject", else it waits behind it. kNotFound for
  // an unknown thread; kInvalidArgument when the thread is bound to another assistant.
  virtual core::Result<void> create_run(const RunRecord& run) = 0;
  virtual core::Result<std::optional<RunRecord>> run(std::string_view run_id) = 0;
  virtual core::Result<std::vector<RunRecord>> runs(std::string_view thread_id) = 0;  // newest first

  // The oldest pending run whose thread runs nothing else, or a running one whose lease ran out,
  // now held by `worker` until `lease_until` (attempt + 1); nullopt when there is none.
  virtual core::Result<std::optional<RunRecord>> claim(std::string_view worker, Millis now,
                                                       Millis lease_until) = 0;
  // Extends the lease; `held` false when the run is no longer this worker's (another took it over),
  // `cancel_requested` whether someone asked it to stop.
  virtual core::Result<Lease> renew(std::string_view run_id, std::string_view worker, Millis lease_until) = 0;
  virtual core::Result<void> mark_started(std::string_view run_id, std::string_view start_checkpoint_id) = 0;
  // Final status and result, if `worker` still holds it; false otherwise.
  virtual core::Result<bool> finish(std::string_view run_id, std::string_view worker, RunStatus status,
                                    std::string_view result_json, Millis now) = 0;
  // Back to pending for another worker (a shutdown): its lease is dropped.
  virtual core::Result<void> release(std::string_view run_id, std::string_view worker) = 0;
  // Asks the run to stop; a pending one becomes interrupted at once (returned true).
  virtual core::Result<bool> request_cancel(std::string_view run_id, Millis now) = 0;
  virtual core::Result<std::size_t> count_runs(RunStatus status) = 0;

  // Appends one event under the next sequence number unless the run's log already holds `key`
  // (a run taken over re-sends what it had sent): false then, and nothing is written.
  virtual core::Result<bool> append_event(std::string_view run_id, std::string_view key,
                                          std::string_view event, std::string_view data_json, Millis now) = 0;
  // Events numbered above `after`, in order, at most `limit`.
  virtual core::Result<std::vector<StoredEvent>> events(std::string_view run_id, std::int64_t after,
                                                        std::size_t limit) = 0;
};

Millis now_millis();

}  // namespace planfirst::server
