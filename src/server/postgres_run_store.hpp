// PostgresRunStore keeps threads, runs and event logs in tables planfirst_server_* of a PostgreSQL
// database that several `planfirst serve` processes share: a worker claims the oldest runnable run
// with FOR UPDATE SKIP LOCKED under a lease, a run whose lease ran out is taken over by another
// process, and a run's log is appended under a per-run advisory lock, so its numbers stay gap-free
// whichever process writes. Thread-safe: one connection behind a mutex.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "server/run_store.hpp"

namespace planfirst::server {

class PostgresRunStore final : public RunStore {
 public:
  // Connects to `uri` and creates the tables if missing; kUnavailable when it cannot be reached.
  static core::Result<std::unique_ptr<PostgresRunStore>> open(const std::string& uri);
  ~PostgresRunStore() override;

  core::Result<void> create_thread(const ThreadRecord& thread) override;
  core::Result<std::optional<ThreadRecord>> thread(std::string_view thread_id) override;
  core::Result<std::vector<ThreadRecord>> threads(std::size_t limit, std::size_t offset) override;
  core::Result<void> delete_thread(std::string_view thread_id) override;
  core::Result<void> create_run(const RunRecord& run) override;
  core::Result<std::optional<RunRecord>> run(std::string_view run_id) override;
  core::Result<std::vector<RunRecord>> runs(std::string_view thread_id) override;
  core::Result<std::optional<RunRecord>> claim(std::string_view worker, Millis now,
                                               Millis lease_until) override;
  core::Result<Lease> renew(std::string_view run_id, std::string_view worker, Millis lease_until) override;
  core::Result<void> mark_started(std::string_view run_id, std::string_view start_checkpoint_id) override;
  core::Result<bool> finish(std::string_view run_id, std::string_view worker, RunStatus status,
                            std::string_view result_json, Millis now) override;
  core::Result<void> release(std::string_view run_id, std::string_view worker) override;
  core::Result<bool> request_cancel(std::string_view run_id, Millis now) override;
  core::Result<std::size_t> count_runs(RunStatus status) override;
  core::Result<bool> append_event(std::string_view run_id, std::string_view key, std::string_view event,
                                  std::string_view data_json, Millis now) override;
  core::Result<std::vector<StoredEvent>> events(std::string_view run_id, std::int64_t after,
                                                std::size_t limit) override;

 private:
  struct Connection;
  explicit PostgresRunStore(std::unique_ptr<Connection> connection);

  std::mutex mutex_;
  std::unique_ptr<Connection> connection_;  // guarded by mutex_
};

}  // namespace planfirst::server
