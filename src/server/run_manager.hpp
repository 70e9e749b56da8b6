// RunManager executes queued runs on a pool of worker threads: each worker claims a run from the
// RunStore under a lease, runs it through the graph runtime (run, resume, or recover after a crash or a
// shutdown), logs its events and records its end. A heartbeat renews the leases and passes cancels
// that arrive through the store; a run whose lease another process took over stops here. stop() leaves
// running runs resumable: they stop before their next node and go back to the queue.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/cancellation.hpp"
#include "core/json.hpp"
#include "core/metrics.hpp"
#include "graph/checkpointer.hpp"
#include "server/assistants.hpp"
#include "server/event_bell.hpp"
#include "server/run_store.hpp"

namespace planfirst::server {

class RunEventLog;

struct RunManagerOptions {
  std::size_t workers = 4;                  // runs executed at once by this process
  std::chrono::milliseconds lease{15'000};  // a run whose holder stops renewing is taken over after this
  std::chrono::milliseconds poll{250};      // how often an idle worker looks for runs queued elsewhere
  std::string worker_id;                    // this process in the runs table; empty: a random id
};

class RunManager {
 public:
  // REQUIRES: all borrowed parts outlive the manager.
  RunManager(Assistants& assistants, graph::Checkpointer& checkpoints, RunStore& store, EventBell& bell,
             core::MetricsRegistry& metrics, RunManagerOptions options);
  ~RunManager();  // stop()
  RunManager(const RunManager&) = delete;
  RunManager& operator=(const RunManager&) = delete;

  void start();
  void stop();  // running runs stop before their next node and are queued again; returns when all stopped
  bool stopping() const;  // stop() was called: no node starts from now on
  void wake();            // a run was queued

  // Asks `run_id` to stop before its next node (or drops it from the queue). The store's error, if any.
  core::Result<void> cancel(const std::string& run_id);

  const std::string& worker_id() const { return options_.worker_id; }

 private:
  struct Active {
    core::CancellationToken stop;
    std::atomic<bool> shutdown{false};
    std::atomic<bool> lost{false};
  };

  void work();
  void heartbeat();
  void execute(const RunRecord& run);
  void finish(const RunRecord& run, RunStatus status, const core::Json& result, RunEventLog& log);

  Assistants& assistants_;
  graph::Checkpointer& checkpoints_;
  RunStore& store_;
  EventBell& bell_;
  core::MetricsRegistry& metrics_;
  RunManagerOptions options_;

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  bool stopping_ = false;                                  // guarded by mutex_
  bool started_ = false;                                   // guarded by mutex_
  std::map<std::string, std::shared_ptr<Active>> active_;  // guarded by mutex_; runs executing here
  std::vector<std::thread> threads_;
};

}  // namespace planfirst::server
