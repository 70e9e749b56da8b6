#include "core/cancellation.hpp"

namespace planfirst::core {

void CancellationToken::cancel() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    cancelled_ = true;
  }
  changed_.notify_all();
}

bool CancellationToken::cancelled() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cancelled_;
}

bool CancellationToken::wait_for(std::chrono::nanoseconds duration) const {
  std::unique_lock<std::mutex> lock(mutex_);
  return changed_.wait_for(lock, duration, [this] { return cancelled_; });
}

}  // namespace planfirst::core
