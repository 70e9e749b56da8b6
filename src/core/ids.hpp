// IdGenerator hands out unique string ids (runs, threads, checkpoints). RandomIdGenerator gives
// UUIDv4 text from an engine it owns (seeded from std::random_device, or from a fixed seed for
// repeatable runs); SequentialIdGenerator gives prefix + 1, 2, 3... for tests. All are thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <random>
#include <string>
#include <utility>

namespace planfirst::core {

class IdGenerator {
 public:
  virtual ~IdGenerator() = default;
  virtual std::string next() = 0;
};

class RandomIdGenerator final : public IdGenerator {
 public:
  RandomIdGenerator();                             // seeded from std::random_device
  explicit RandomIdGenerator(std::uint64_t seed);  // same seed, same ids
  std::string next() override;                     // e.g. "3f2b8c1e-9a4d-4e7f-b1c2-5d6e7f8091a2"

 private:
  std::mutex mutex_;
  std::mt19937_64 engine_;  // guarded by mutex_
};

class SequentialIdGenerator final : public IdGenerator {
 public:
  explicit SequentialIdGenerator(std::string prefix = "id-") : prefix_(std::move(prefix)) {}
  std::string next() override;  // prefix + "1", then "2", ...

 private:
  const std::string prefix_;
  std::atomic<std::uint64_t> issued_{0};
};

}  // namespace planfirst::core
