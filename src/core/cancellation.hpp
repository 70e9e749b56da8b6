// CancellationToken lets one thread ask work running on others to stop: cancel() once, and every
// cancelled() check or wait_for() sleeping on it sees it promptly. The owner keeps it alive while any
// operation borrows it; threads may share one. Cancelling cannot be undone.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace planfirst::core {

class CancellationToken {
 public:
  CancellationToken() = default;
  CancellationToken(const CancellationToken&) = delete;
  CancellationToken& operator=(const CancellationToken&) = delete;

  void cancel();
  bool cancelled() const;
  // Waits up to `duration`; true when the token is (or becomes) cancelled, false when time ran out.
  bool wait_for(std::chrono::nanoseconds duration) const;

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  bool cancelled_ = false;  // guarded by mutex_
};

}  // namespace planfirst::core
