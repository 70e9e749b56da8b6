#include "core/clock.hpp"

#include <stdexcept>

namespace planfirst::core {

const SystemClock& system_clock() {
  static const SystemClock clock;  // stateless
  return clock;
}

std::chrono::system_clock::time_point ManualClock::now() const {
  std::lock_guard lock(mutex_);
  return now_;
}

std::chrono::steady_clock::time_point ManualClock::steady_now() const {
  std::lock_guard lock(mutex_);
  return steady_;
}

void ManualClock::set(std::chrono::system_clock::time_point time) {
  std::lock_guard lock(mutex_);
  now_ = time;
}

void ManualClock::advance(std::chrono::nanoseconds by) {
  if (by < std::chrono::nanoseconds::zero()) {
    throw std::logic_error("ManualClock cannot go back in steady time");
  }
  std::lock_guard lock(mutex_);
  now_ += std::chrono::duration_cast<std::chrono::system_clock::duration>(by);
  steady_ += std::chrono::duration_cast<std::chrono::steady_clock::duration>(by);
}

}  // namespace planfirst::core
