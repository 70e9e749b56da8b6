#include "core/sleeper.hpp"

#include <thread>

#include "core/cancellation.hpp"

namespace planfirst::core {

ThreadSleeper& thread_sleeper() {
  static ThreadSleeper sleeper;  // stateless
  return sleeper;
}

bool ThreadSleeper::sleep_for(std::chrono::milliseconds duration, const CancellationToken* cancel) {
  if (cancel == nullptr) {
    std::this_thread::sleep_for(duration);
    return true;
  }
  return !cancel->wait_for(duration);
}

bool RecordingSleeper::sleep_for(std::chrono::milliseconds duration, const CancellationToken* cancel) {
  std::lock_guard<std::mutex> lock(mutex_);
  sleeps_.push_back(duration);
  return cancel == nullptr || !cancel->cancelled();
}

std::vector<std::chrono::milliseconds> RecordingSleeper::sleeps() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return sleeps_;
}

}  // namespace planfirst::core
