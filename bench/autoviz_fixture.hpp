// What the autoviz benchmarks share: unwrapping a setup Result (a failed setup throws, which stops
// the program with the error's description), the shipped services loaded with the tool index cached
// in a scratch folder instead of the user's cache, and per-iteration latencies reported as p50 and
// p99 counters next to an aim, so `make bench` prints figures and ratios, never verdicts.
#pragma once

#include <benchmark/benchmark.h>
#include <stdlib.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "core/asset_store.hpp"
#include "core/result.hpp"
#include "pipelines/autoviz/autoviz_services.hpp"

namespace planfirst::bench {

template <typename T>
T value_of(core::Result<T> result) {
  if (!result) throw std::runtime_error(result.error().describe());
  return std::move(*result);
}

inline void value_of(core::Result<void> result) {
  if (!result) throw std::runtime_error(result.error().describe());
}

// The services the CLI loads without a config (built-in hashed embedder); the tool index is cached
// under `cache_home`, as XDG_CACHE_HOME would place it.
inline std::shared_ptr<const autoviz::AutovizServices> load_services(
    const std::filesystem::path& cache_home) {
  ::setenv("XDG_CACHE_HOME", cache_home.c_str(), 1);
  return value_of(autoviz::AutovizServices::load(core::AssetStore(), nullptr));
}

// The `p`th percentile (0-100) of `values` by nearest rank; 0 for none.
inline double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t rank = static_cast<std::size_t>(p / 100.0 * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(rank, values.size() - 1)];
}

// Milliseconds of each timed call, wall clock and this thread's CPU (which a busy machine's
// preemption does not inflate); percentiles by nearest rank.
class LatencyLog {
 public:
  template <typename Call>
  void time(Call&& call) {
    const double cpu_start = thread_cpu_ms();
    const auto start = std::chrono::steady_clock::now();
    call();
    wall_.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    cpu_.push_back(thread_cpu_ms() - cpu_start);
  }

  // p50_ms, p99_ms (wall), cpu_p50_ms, cpu_p99_ms, aim_ms and p99/aim on `state`.
  void report(benchmark::State& state, double aim_ms) const {
    state.counters["p50_ms"] = percentile(wall_, 50);
    state.counters["p99_ms"] = percentile(wall_, 99);
    state.counters["cpu_p50_ms"] = percentile(cpu_, 50);
    state.counters["cpu_p99_ms"] = percentile(cpu_, 99);
    state.counters["aim_ms"] = aim_ms;
    state.counters["p99/aim"] = percentile(wall_, 99) / aim_ms;
  }

 private:
  static double thread_cpu_ms() {
    timespec now{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
  }

  std::vector<double> wall_;
  std::vector<double> cpu_;
};

}  // namespace planfirst::bench
