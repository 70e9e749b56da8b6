// Clock is where time comes from, so tests can fix it: now() is wall time for timestamps,
// steady_now() is monotonic time for durations. SystemClock reads the real clocks; ManualClock
// moves only when told. Both are thread-safe.
#pragma once

#include <chrono>
#include <mutex>

namespace planfirst::core {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual std::chrono::system_clock::time_point now() const = 0;
  virtual std::chrono::steady_clock::time_point steady_now() const = 0;
};

class SystemClock final : public Clock {
 public:
  std::chrono::system_clock::time_point now() const override { return std::chrono::system_clock::now(); }
  std::chrono::steady_clock::time_point steady_now() const override {
    return std::chrono::steady_clock::now();
  }
};

// The process's one SystemClock (stateless), for code that takes a Clock& and has no test clock.
const SystemClock& system_clock();

class ManualClock final : public Clock {
 public:
  explicit ManualClock(std::chrono::system_clock::time_point start = {}) : now_(start) {}

  std::chrono::system_clock::time_point now() const override;
  std::chrono::steady_clock::time_point steady_now() const override;

  void set(std::chrono::system_clock::time_point time);  // wall time only; steady time never goes back
  void advance(std::chrono::nanoseconds by);             // both clocks; negative: std::logic_error

 private:
  mutable std::mutex mutex_;
  std::chrono::system_clock::time_point now_;     // guarded by mutex_
  std::chrono::steady_clock::time_point steady_;  // guarded by mutex_
};

}  // namespace planfirst::core
