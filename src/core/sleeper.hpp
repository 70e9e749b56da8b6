// Sleeper is how waiting code waits (retry backoff, polling), so tests can record the waits instead of
// sitting through them. ThreadSleeper really waits and wakes early on cancellation; RecordingSleeper
// returns at once and keeps every requested duration. Both are thread-safe.
#pragma once

#include <chrono>
#include <mutex>
#include <vector>

namespace planfirst::core {
class CancellationToken;

class Sleeper {
 public:
  virtual ~Sleeper() = default;
  // Waits `duration`, or less when `cancel` (may be null) fires; false when cancelled.
  virtual bool sleep_for(std::chrono::milliseconds duration, const CancellationToken* cancel) = 0;
};

class ThreadSleeper final : public Sleeper {
 public:
  bool sleep_for(std::chrono::milliseconds duration, const CancellationToken* cancel) override;
};

// The process's one ThreadSleeper (stateless), for code that takes a Sleeper& and has no test sleeper.
ThreadSleeper& thread_sleeper();

class RecordingSleeper final : public Sleeper {
 public:
  bool sleep_for(std::chrono::milliseconds duration, const CancellationToken* cancel) override;
  std::vector<std::chrono::milliseconds> sleeps() const;  // in the order requested

 private:
  mutable std::mutex mutex_;
  std::vector<std::chrono::milliseconds> sleeps_;  // guarded by mutex_
};

}  // namespace planfirst::core
