// EventBell wakes the streams of a run when its log grows or it ends: take a ticket, read the log,
// then wait on the ticket, so an event appended in between is never waited past. Within one process
// only; streams also poll, which covers events another process appended. Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

namespace planfirst::server {

class EventBell {
 public:
  std::uint64_t ticket(std::string_view run_id);
  void ring(std::string_view run_id);
  // Returns once `run_id` rang after `ticket` was taken, or after `timeout`.
  void wait(std::string_view run_id, std::uint64_t ticket, std::chrono::milliseconds timeout);
  void forget(std::string_view run_id);  // the run ended: wakes its waiters and drops its counter
  void ring_all();                       // the server stops: every waiter rechecks now

 private:
  std::mutex mutex_;
  std::condition_variable rang_;
  std::map<std::string, std::uint64_t, std::less<>> rings_;  // guarded by mutex_
  std::uint64_t epoch_ = 0;                                  // guarded by mutex_; bumped by forget/ring_all
};

}  // namespace planfirst::server
