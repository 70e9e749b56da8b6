// SqliteCheckpointer stores threads in one SQLite file (WAL): one transaction per append, so a
// record and its writes are committed together before the head moves, and a crash leaves either
// the old head or the new one. Several processes may share the file (busy timeout, BEGIN IMMEDIATE
// around every check-and-write). Thread-safe: one connection behind a mutex.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>

#include "graph/checkpointer.hpp"

namespace planfirst::graph {

struct SqliteCheckpointerOptions {
  // false: synchronous=NORMAL. In WAL mode a commit survives a killed process and the file never
  // corrupts, but a power loss may undo the last commits; no fsync per step. true: synchronous=FULL,
  // an fsync per append, which also survives power loss.
  bool sync_every_commit = false;
  std::chrono::milliseconds busy_timeout{5000};  // how long to wait for another process's write lock
};

class SqliteCheckpointer final : public Checkpointer {
 public:
  // Opens or creates `path` (its folder must exist) and its schema. kFailedPrecondition when the
  // file's schema version is newer than this build's; kUnavailable when it cannot be opened.
  static core::Result<std::unique_ptr<SqliteCheckpointer>> open(const std::filesystem::path& path,
                                                                SqliteCheckpointerOptions options = {});
  ~SqliteCheckpointer() override;

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

  // The schema version this build creates and reads.
  static constexpr int kSchemaVersion = 1;

 private:
  struct Database;
  explicit SqliteCheckpointer(std::unique_ptr<Database> db);

  std::mutex mutex_;
  std::unique_ptr<Database> db_;  // guarded by mutex_
};

}  // namespace planfirst::graph
