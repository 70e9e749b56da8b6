// Checkpointer stores each thread's checkpoints: one record per step (id, parent, step, node, status,
// metadata) plus only the state keys that step changed, so stored bytes grow linearly with history.
// Every implementation (memory, SQLite, PostgreSQL) passes one conformance suite; threads may share one.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace planfirst::graph {

// Stored with every record; a reader refuses records of a newer version with a clear message.
// Version 2 added chunk writes; version 1 stores read unchanged.
inline constexpr int kCheckpointFormatVersion = 2;

enum class WriteKind {
  kReplace,   // value_json is the key's whole new value
  kAppend,    // value_json is a JSON array of the items this step appended to an append-only key
  kSnapshot,  // value_json is the whole value of an append-only key (its first write, or a fold)
  kChunk,     // value_json is {"from": I, "items": [...]}: the items of the appends since the key's
              // previous chunk or snapshot, placed from index I; written every N appends, so a state
              // is read from its last snapshot, its chunks and at most N appends
};
std::string_view to_string(WriteKind kind);                        // "replace", "append", "snapshot", "chunk"
std::optional<WriteKind> parse_write_kind(std::string_view text);  // inverse of to_string

struct KeyWrite {
  std::string key;
  WriteKind kind = WriteKind::kReplace;
  std::string value_json;
  bool operator==(const KeyWrite&) const = default;
};

enum class CheckpointStatus {
  kRunning,      // the run goes on from next_node
  kInterrupted,  // a decision node awaits user input; metadata holds the message and prompt
  kDone,         // the graph reached its end
  kFailed,       // a node failed without an error route; metadata holds the error
};
std::string_view to_string(CheckpointStatus status);  // "running", "interrupted", "done", "failed"
std::optional<CheckpointStatus> parse_checkpoint_status(std::string_view text);  // inverse of to_string

struct CheckpointRecord {
  int format_version = kCheckpointFormatVersion;
  std::string thread_id;
  std::string checkpoint_id;
  std::string parent_id;  // empty for a thread's first record
  std::int64_t step = 0;  // 0 for the input, then +1 per record
  std::string node;       // the node whose delta this record merged; "__input__" for the input
  std::string last_completed_node;
  std::string next_node;  // where a resumed run continues; empty when done
  CheckpointStatus status = CheckpointStatus::kRunning;
  std::string metadata_json = "{}";  // interrupt message/prompt, error, timings: a JSON object
  std::chrono::system_clock::time_point created_at;
  std::vector<KeyWrite> writes;  // only the keys this step changed
};

// A stored write with the step that made it, as read back to rebuild a state.
struct StepWrite {
  std::int64_t step = 0;
  KeyWrite write;
};

struct PruneOptions {
  std::optional<std::size_t> keep_last;                             // keep the newest N checkpoints
  std::optional<std::chrono::system_clock::time_point> older_than;  // drop checkpoints created before
};

struct PruneReport {
  std::size_t removed = 0;
  std::size_t kept = 0;
};

class Checkpointer {
 public:
  virtual ~Checkpointer() = default;

  // Makes `record` the head of its thread iff the head is `expected_head` (empty: the thread must
  // not exist yet); kConflict naming both ids otherwise. Durable (committed) before it returns.
  virtual core::Result<void> append(const CheckpointRecord& record, std::string_view expected_head) = 0;

  // The thread's newest record without its writes; nullopt for an unknown thread.
  virtual core::Result<std::optional<CheckpointRecord>> head(std::string_view thread_id) = 0;

  // One record without its writes; kNotFound for an unknown thread or checkpoint.
  virtual core::Result<CheckpointRecord> get(std::string_view thread_id, std::string_view checkpoint_id) = 0;

  // What rebuilds the state at `checkpoint_id`: for each key its last kReplace or kSnapshot at or
  // before that step, that key's later kChunk writes up to the step, then its kAppend writes after
  // both up to the step; ordered by step, then key.
  virtual core::Result<std::vector<StepWrite>> writes_for_state(std::string_view thread_id,
                                                                std::string_view checkpoint_id) = 0;

  // Every record of the thread, newest first, without writes.
  virtual core::Result<std::vector<CheckpointRecord>> history(std::string_view thread_id) = 0;

  virtual core::Result<std::vector<std::string>> threads() = 0;  // sorted

  // Drops old checkpoints; the states of the kept ones are unchanged (writes they depend on are
  // folded into the oldest kept record), and the head and a pending interrupt are never dropped.
  virtual core::Result<PruneReport> prune(std::string_view thread_id, const PruneOptions& options) = 0;

  virtual core::Result<void> delete_thread(std::string_view thread_id) = 0;

  // Bytes stored for the thread (records + writes), for benchmarks and `threads show`.
  virtual core::Result<std::uint64_t> stored_bytes(std::string_view thread_id) = 0;
};

}  // namespace planfirst::graph
