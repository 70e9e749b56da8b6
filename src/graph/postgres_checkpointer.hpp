// PostgresCheckpointer stores threads in a PostgreSQL database (tables planfirst_*, created on
// first use): one transaction per append, the head moved by a conditional update of its row in
// planfirst_heads, so any number of processes may append and exactly one wins a race for a head.
// Thread-safe: one connection behind a mutex; a process that needs more throughput opens several.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "graph/checkpointer.hpp"

namespace planfirst::graph {

class PostgresCheckpointer final : public Checkpointer {
 public:
  // Connects to `uri` (postgresql://user@host:port/db?...) and creates the schema if missing.
  // kUnavailable when the server cannot be reached; kFailedPrecondition when the database's schema
  // version is newer than this build's.
  static core::Result<std::unique_ptr<PostgresCheckpointer>> open(const std::string& uri);
  ~PostgresCheckpointer() override;

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

  static constexpr int kSchemaVersion = 1;  // the schema version this build creates and reads

 private:
  struct Connection;
  explicit PostgresCheckpointer(std::unique_ptr<Connection> connection);

  std::mutex mutex_;
  std::unique_ptr<Connection> connection_;  // guarded by mutex_
};

}  // namespace planfirst::graph
