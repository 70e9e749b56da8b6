#include "graph/memory_checkpointer.hpp"

#include <algorithm>
#include <mutex>
#include <unordered_map>

#include "graph/checkpoint_rules.hpp"

namespace planfirst::graph {

struct MemoryCheckpointer::Thread {
  std::vector<CheckpointRecord> records;                              // oldest first, without writes
  std::unordered_map<std::string, std::size_t> index_of;              // checkpoint id -> position in records
  std::map<std::string, std::vector<StepWrite>, std::less<>> writes;  // per key, oldest first

  const CheckpointRecord* find(std::string_view checkpoint_id) const {
    auto it = index_of.find(std::string(checkpoint_id));
    return it == index_of.end() ? nullptr : &records[it->second];
  }
  void reindex() {
    index_of.clear();
    for (std::size_t i = 0; i < records.size(); ++i) index_of.emplace(records[i].checkpoint_id, i);
  }
  // The writes that rebuild the state at `step`, ordered by step then key.
  std::vector<StepWrite> writes_at(std::int64_t step) const {
    std::vector<StepWrite> result;
    for (const auto& [key, key_writes] : writes) {
      auto end = std::upper_bound(key_writes.begin(), key_writes.end(), step,
                                  [](std::int64_t s, const StepWrite& w) { return s < w.step; });
      // Backwards from the step: appends until the first chunk, then chunks, to the base.
      std::vector<StepWrite> picked;
      bool chunked = false;
      for (auto it = end; it != key_writes.begin();) {
        const StepWrite& write = *--it;
        const WriteKind kind = write.write.kind;
        if (kind == WriteKind::kAppend && chunked) continue;
        picked.push_back(write);
        if (kind == WriteKind::kChunk) chunked = true;
        if (kind == WriteKind::kReplace || kind == WriteKind::kSnapshot) break;
      }
      result.insert(result.end(), picked.rbegin(), picked.rend());
    }
    std::stable_sort(result.begin(), result.end(), [](const StepWrite& a, const StepWrite& b) {
      return a.step != b.step ? a.step < b.step : a.write.key < b.write.key;
    });
    return result;
  }
};

MemoryCheckpointer::MemoryCheckpointer() = default;
MemoryCheckpointer::~MemoryCheckpointer() = default;

core::Result<void> MemoryCheckpointer::append(const CheckpointRecord& record,
                                              std::string_view expected_head) {
  if (core::Result<void> valid = check_appendable(record, expected_head); !valid) return valid.error();
  std::unique_lock lock(mutex_);
  auto it = threads_.find(record.thread_id);
  Thread* thread = it == threads_.end() ? nullptr : it->second.get();
  const CheckpointRecord* current =
      thread != nullptr && !thread->records.empty() ? &thread->records.back() : nullptr;
  const std::string actual = current != nullptr ? current->checkpoint_id : std::string();
  if (actual != expected_head) return head_conflict(record.thread_id, expected_head, actual);
  if (current != nullptr && record.step <= current->step) return step_not_after_head(record, current->step);
  if (thread != nullptr && thread->find(record.checkpoint_id) != nullptr) {
    return core::invalid_argument("checkpoint id " + record.checkpoint_id + " is already used in this thread",
                                  "thread " + record.thread_id);
  }

  if (thread == nullptr) {
    thread = threads_.emplace(record.thread_id, std::make_unique<Thread>()).first->second.get();
  }
  CheckpointRecord stored = record;
  stored.writes.clear();
  thread->index_of.emplace(stored.checkpoint_id, thread->records.size());
  thread->records.push_back(std::move(stored));
  for (const KeyWrite& write : record.writes) thread->writes[write.key].push_back({record.step, write});
  return core::ok();
}

core::Result<std::optional<CheckpointRecord>> MemoryCheckpointer::head(std::string_view thread_id) {
  std::shared_lock lock(mutex_);
  auto it = threads_.find(thread_id);
  if (it == threads_.end() || it->second->records.empty()) return std::optional<CheckpointRecord>();
  return std::optional<CheckpointRecord>(it->second->records.back());
}

core::Result<CheckpointRecord> MemoryCheckpointer::get(std::string_view thread_id,
                                                       std::string_view checkpoint_id) {
  std::shared_lock lock(mutex_);
  auto it = threads_.find(thread_id);
  const CheckpointRecord* record = it == threads_.end() ? nullptr : it->second->find(checkpoint_id);
  if (record == nullptr) return unknown_checkpoint(thread_id, checkpoint_id);
  return *record;
}

core::Result<std::vector<StepWrite>> MemoryCheckpointer::writes_for_state(std::string_view thread_id,
                                                                          std::string_view checkpoint_id) {
  std::shared_lock lock(mutex_);
  auto it = threads_.find(thread_id);
  const CheckpointRecord* record = it == threads_.end() ? nullptr : it->second->find(checkpoint_id);
  if (record == nullptr) return unknown_checkpoint(thread_id, checkpoint_id);
  return it->second->writes_at(record->step);
}

core::Result<std::vector<CheckpointRecord>> MemoryCheckpointer::history(std::string_view thread_id) {
  std::shared_lock lock(mutex_);
  auto it = threads_.find(thread_id);
  if (it == threads_.end()) return unknown_thread(thread_id);
  return std::vector<CheckpointRecord>(it->second->records.rbegin(), it->second->records.rend());
}

core::Result<std::vector<std::string>> MemoryCheckpointer::threads() {
  std::shared_lock lock(mutex_);
  std::vector<std::string> names;
  names.reserve(threads_.size());
  for (const auto& [name, thread] : threads_) names.push_back(name);
  return names;
}

core::Result<PruneReport> MemoryCheckpointer::prune(std::string_view thread_id, const PruneOptions& options) {
  std::unique_lock lock(mutex_);
  auto it = threads_.find(thread_id);
  if (it == threads_.end()) return unknown_thread(thread_id);
  Thread& thread = *it->second;
  const std::vector<CheckpointRecord> newest_first(thread.records.rbegin(), thread.records.rend());
  core::Result<PrunePlan> plan = plan_prune(newest_first, options, [&](std::int64_t step) {
    return core::Result<std::vector<StepWrite>>(thread.writes_at(step));
  });
  if (!plan) return plan.error();
  if (plan->report.removed == 0) return plan->report;
  const std::int64_t keep_from = plan->keep_from;
  for (auto& [key, key_writes] : thread.writes) {
    std::erase_if(key_writes, [&](const StepWrite& w) { return w.step <= keep_from; });
  }
  for (KeyWrite& write : plan->folded) {
    std::vector<StepWrite>& key_writes = thread.writes[write.key];
    key_writes.insert(key_writes.begin(), StepWrite{keep_from, std::move(write)});
  }
  std::erase_if(thread.writes, [](const auto& entry) { return entry.second.empty(); });
  thread.records.erase(thread.records.begin(),
                       thread.records.begin() + static_cast<std::ptrdiff_t>(plan->report.removed));
  thread.reindex();
  return plan->report;
}

core::Result<void> MemoryCheckpointer::delete_thread(std::string_view thread_id) {
  std::unique_lock lock(mutex_);
  auto it = threads_.find(thread_id);
  if (it == threads_.end()) return unknown_thread(thread_id);
  threads_.erase(it);
  return core::ok();
}

core::Result<std::uint64_t> MemoryCheckpointer::stored_bytes(std::string_view thread_id) {
  std::shared_lock lock(mutex_);
  auto it = threads_.find(thread_id);
  if (it == threads_.end()) return unknown_thread(thread_id);
  std::uint64_t bytes = 0;
  for (const CheckpointRecord& record : it->second->records) bytes += record_bytes(record);
  for (const auto& [key, key_writes] : it->second->writes) {
    for (const StepWrite& write : key_writes) bytes += write_bytes(write.write);
  }
  return bytes;
}

}  // namespace planfirst::graph
