// The rules every Checkpointer applies the same way, so the memory, SQLite and PostgreSQL stores
// agree byte for byte: what an appendable record is, the errors a refused append or an unreadable
// record carries, how bytes are counted, and which checkpoints a prune keeps. Pure functions.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "graph/checkpointer.hpp"

namespace planfirst::graph {

// Refuses a record no store may take: empty thread or checkpoint id, a format version this build
// does not write (kFailedPrecondition), two writes of one key, a negative step, or a parent that is
// not `expected_head` when the thread exists (kInvalidArgument).
core::Result<void> check_appendable(const CheckpointRecord& record, std::string_view expected_head);

// kFailedPrecondition when a stored record has a format version newer than this build reads.
core::Result<void> check_readable(int format_version, std::string_view thread_id,
                                  std::string_view checkpoint_id);

// The refusal of an append whose expected head is not the thread's head (`actual` empty: no thread).
core::Error head_conflict(std::string_view thread_id, std::string_view expected, std::string_view actual);
// The refusal of an append whose step does not come after the head's.
core::Error step_not_after_head(const CheckpointRecord& record, std::int64_t head_step);
core::Error unknown_thread(std::string_view thread_id);
core::Error unknown_checkpoint(std::string_view thread_id, std::string_view checkpoint_id);

// Logical bytes of a record without its writes, and of one write: the same count in every store.
std::uint64_t record_bytes(const CheckpointRecord& record);
std::uint64_t write_bytes(const KeyWrite& write);

// What a prune of one thread changes, the same in every store, which then only runs its own
// deletes and inserts: records with a step below `keep_from` go, and the writes made at or before
// it are replaced by `folded`: the state at `keep_from` as one write per key, stored at that step.
struct PrunePlan {
  std::int64_t keep_from = 0;  // the step of the oldest checkpoint kept
  PruneReport report;          // report.removed == 0: nothing changes, `folded` is empty
  std::vector<KeyWrite> folded;
};

// The writes that rebuild the thread's state at a step, read by the store that prunes.
using WritesAt = std::function<core::Result<std::vector<StepWrite>>(std::int64_t step)>;

// The plan for a thread given its records newest first (the head first). Everything newer than the
// oldest record the options do not allow to drop is kept, so the kept records stay one unbroken
// chain ending at the head. kInvalidArgument when no option is set or keep_last is 0; the errors
// of `writes_at` or of folding them otherwise.
core::Result<PrunePlan> plan_prune(const std::vector<CheckpointRecord>& newest_first,
                                   const PruneOptions& options, const WritesAt& writes_at);

std::int64_t to_unix_nanos(std::chrono::system_clock::time_point time);
std::chrono::system_clock::time_point from_unix_nanos(std::int64_t nanos);

}  // namespace planfirst::graph
