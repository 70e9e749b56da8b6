// MemoryCheckpointer keeps every thread in this process's memory: nothing survives the process.
// For tests, one-off runs and `memory:`; passes the same conformance suite as the durable stores.
// Thread-safe: one lock guards all threads (readers share it).
#pragma once

#include <map>
#include <memory>
#include <shared_mutex>
#include <string>

#include "graph/checkpointer.hpp"

namespace planfirst::graph {

class MemoryCheckpointer final : public Checkpointer {
 public:
  MemoryCheckpointer();
  ~MemoryCheckpointer() override;

  core::Result<void> append(const CheckpointRecord& record, std::string_view expected_head) override;
  core::Result<std::optional<CheckpointRecord>> head(std::string_view thread_id) override;
  core::Result<CheckpointRecord> get(std::string_view thread_id, std::string_view checkpoint_id) override;
  core::Result<std::vector<StepWrite>> writes_for_state(std::string_view thread_id,
                                                        std::string_view checkpoint_id) override;
  core::Result<std::vector<CheckpointRecord>> history(std::string_view thread_id) override;
  core::Result<std::vector<std::string>> threads() override;
  core::Result<PruneReport> prune(std::string_view thread_id, const PruneOptions& options) override;
  core::Result<void> delete_thread(std::string_view thread_id) override;
  core::Result<std::uint64_t> stored_bytes(std::string_view thread_id) override;

 private:
  struct Thread;

  mutable std::shared_mutex mutex_;
  std::map<std::string, std::unique_ptr<Thread>, std::less<>> threads_;  // guarded by mutex_
};

}  // namespace planfirst::graph
