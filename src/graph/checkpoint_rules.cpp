#include "graph/checkpoint_rules.hpp"

#include <algorithm>
#include <set>

#include "graph/state_assembler.hpp"

namespace planfirst::graph {

core::Result<void> check_appendable(const CheckpointRecord& record, std::string_view expected_head) {
  if (record.thread_id.empty()) return core::invalid_argument("a checkpoint needs a thread id");
  const std::string where = "thread " + record.thread_id;
  if (record.checkpoint_id.empty())
    return core::invalid_argument("a checkpoint needs a checkpoint id", where);
  if (record.format_version != kCheckpointFormatVersion) {
    return core::failed_precondition("checkpoint " + record.checkpoint_id + " has format version " +
                                         std::to_string(record.format_version) +
                                         "; this planfirst writes version " +
                                         std::to_string(kCheckpointFormatVersion),
                                     where);
  }
  if (record.step < 0) {
    return core::invalid_argument(
        "checkpoint " + record.checkpoint_id + " has negative step " + std::to_string(record.step), where);
  }
  if (!expected_head.empty() && record.parent_id != expected_head) {
    return core::invalid_argument("checkpoint " + record.checkpoint_id + " names parent '" +
                                      record.parent_id + "' but is appended after head " +
                                      std::string(expected_head),
                                  where);
  }
  std::set<std::string_view> keys;
  for (const KeyWrite& write : record.writes) {
    if (write.key.empty()) {
      return core::invalid_argument("checkpoint " + record.checkpoint_id + " writes an empty key", where);
    }
    if (!keys.insert(write.key).second) {
      return core::invalid_argument("checkpoint " + record.checkpoint_id + " writes key '" + write.key +
                                        "' twice; merge the step's writes of one key into one",
                                    where);
    }
  }
  return core::ok();
}

core::Result<void> check_readable(int format_version, std::string_view thread_id,
                                  std::string_view checkpoint_id) {
  if (format_version <= kCheckpointFormatVersion) return core::ok();
  return core::failed_precondition(
      "checkpoint " + std::string(checkpoint_id) + " was stored in format version " +
          std::to_string(format_version) + ", but this planfirst reads up to version " +
          std::to_string(kCheckpointFormatVersion) + ": upgrade planfirst to read this thread",
      "thread " + std::string(thread_id));
}

core::Error head_conflict(std::string_view thread_id, std::string_view expected, std::string_view actual) {
  std::string message;
  if (expected.empty()) {
    message = "thread already exists with head " + std::string(actual) + " (expected a new thread)";
  } else if (actual.empty()) {
    message = "expected head " + std::string(expected) + " but the thread has no checkpoints";
  } else {
    message = "expected head " + std::string(expected) + " but the head is " + std::string(actual) +
              ": reload the thread, then decide (fork explicitly to continue from an older checkpoint)";
  }
  return {core::ErrorCode::kConflict, std::move(message), "thread " + std::string(thread_id)};
}

core::Error step_not_after_head(const CheckpointRecord& record, std::int64_t head_step) {
  return core::invalid_argument("checkpoint " + record.checkpoint_id + " has step " +
                                    std::to_string(record.step) + ", not after the head's step " +
                                    std::to_string(head_step),
                                "thread " + record.thread_id);
}

core::Error unknown_thread(std::string_view thread_id) {
  return core::not_found("no thread '" + std::string(thread_id) + "' in the checkpointer");
}

core::Error unknown_checkpoint(std::string_view thread_id, std::string_view checkpoint_id) {
  return core::not_found("no checkpoint '" + std::string(checkpoint_id) + "' in thread '" +
                         std::string(thread_id) + "'");
}

std::uint64_t record_bytes(const CheckpointRecord& record) {
  constexpr std::uint64_t kFixed = 3 * sizeof(std::int64_t);  // step, created_at, format_version
  return kFixed + record.checkpoint_id.size() + record.parent_id.size() + record.node.size() +
         record.last_completed_node.size() + record.next_node.size() + to_string(record.status).size() +
         record.metadata_json.size();
}

std::uint64_t write_bytes(const KeyWrite& write) {
  return sizeof(std::int64_t) + write.key.size() + to_string(write.kind).size() + write.value_json.size();
}

namespace {

// The step of the oldest checkpoint a prune keeps.
core::Result<std::int64_t> first_kept_step(const std::vector<CheckpointRecord>& newest_first,
                                           const PruneOptions& options) {
  if (!options.keep_last && !options.older_than) {
    return core::invalid_argument("prune needs keep_last or older_than");
  }
  if (options.keep_last && *options.keep_last == 0) {
    return core::invalid_argument("keep_last must be at least 1: the head is never pruned");
  }
  if (newest_first.empty()) return std::int64_t{0};
  // The head (which may also be a pending interrupt) is index 0 and never dropped.
  std::size_t oldest_kept = 0;
  for (std::size_t i = 1; i < newest_first.size(); ++i) {
    const bool beyond_count = !options.keep_last || i >= *options.keep_last;
    const bool old_enough = !options.older_than || newest_first[i].created_at < *options.older_than;
    if (!(beyond_count && old_enough)) oldest_kept = i;
  }
  return newest_first[oldest_kept].step;
}

}  // namespace

core::Result<PrunePlan> plan_prune(const std::vector<CheckpointRecord>& newest_first,
                                   const PruneOptions& options, const WritesAt& writes_at) {
  core::Result<std::int64_t> keep_from = first_kept_step(newest_first, options);
  if (!keep_from) return keep_from.error();
  PrunePlan plan;
  plan.keep_from = *keep_from;
  plan.report.removed = static_cast<std::size_t>(
      std::count_if(newest_first.begin(), newest_first.end(),
                    [&](const CheckpointRecord& r) { return r.step < plan.keep_from; }));
  plan.report.kept = newest_first.size() - plan.report.removed;
  if (plan.report.removed == 0) return plan;
  core::Result<std::vector<StepWrite>> writes = writes_at(plan.keep_from);
  if (!writes) return writes.error();
  core::Result<std::vector<KeyWrite>> folded = fold_writes(*writes);
  if (!folded) return folded.error();
  plan.folded = std::move(*folded);
  return plan;
}

std::int64_t to_unix_nanos(std::chrono::system_clock::time_point time) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch()).count();
}

std::chrono::system_clock::time_point from_unix_nanos(std::int64_t nanos) {
  return std::chrono::system_clock::time_point(
      std::chrono::duration_cast<std::chrono::system_clock::duration>(std::chrono::nanoseconds(nanos)));
}

}  // namespace planfirst::graph
