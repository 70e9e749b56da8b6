// MetricsRegistry holds counters, gauges and histograms by name and labels and renders Prometheus
// text 0.0.4, sorted. Owned by a context object, never global; thread-safe; handles stay valid for its
// lifetime. Misuse (bad name, one name as two types, counter decreased) is a bug: std::logic_error.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace planfirst::core {

using Labels = std::map<std::string, std::string>;  // label name -> value

enum class MetricType { kCounter, kGauge, kHistogram };

class Counter {
 public:
  void inc(double amount = 1.0);  // REQUIRES: amount >= 0
  double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0.0};
};

class Gauge {
 public:
  void set(double value) { value_.store(value, std::memory_order_relaxed); }
  void inc(double amount = 1.0) { value_.fetch_add(amount, std::memory_order_relaxed); }
  void dec(double amount = 1.0) { value_.fetch_sub(amount, std::memory_order_relaxed); }
  double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0.0};
};

class Histogram {
 public:
  struct Snapshot {
    std::vector<double> upper_bounds;       // finite bounds, ascending; +Inf is implicit
    std::vector<std::uint64_t> cumulative;  // one per bound, then one for +Inf (== count)
    double sum = 0.0;
    std::uint64_t count = 0;
  };

  explicit Histogram(std::vector<double> upper_bounds);
  void observe(double value);
  Snapshot snapshot() const;

 private:
  const std::vector<double> upper_bounds_;
  mutable std::mutex mutex_;
  std::vector<std::uint64_t> bucket_counts_;  // guarded by mutex_; last slot is +Inf
  double sum_ = 0.0;                          // guarded by mutex_
};

// .005 .01 .025 .05 .1 .25 .5 1 2.5 5 10 (seconds), as the Prometheus clients default.
const std::vector<double>& default_buckets();

class MetricsRegistry {
 public:
  MetricsRegistry();
  ~MetricsRegistry();
  MetricsRegistry(const MetricsRegistry&) = delete;
  MetricsRegistry& operator=(const MetricsRegistry&) = delete;

  Counter& counter(std::string_view name, const Labels& labels = {});
  Gauge& gauge(std::string_view name, const Labels& labels = {});
  // `upper_bounds` (ascending, finite) sets the family's buckets; empty keeps them (default_buckets()
  // for a new family). Changing them once the family has a series: logic_error.
  Histogram& histogram(std::string_view name, const Labels& labels = {},
                       const std::vector<double>& upper_bounds = {});
  // Declares a family's type and # HELP text, before or after its first use.
  void describe(std::string_view name, MetricType type, std::string_view help);

  std::string render_prometheus() const;

 private:
  struct Family;
  Family& family(std::string_view name, MetricType type);  // REQUIRES: mutex_ held
  static void append_family(std::string& out, std::string_view name, const Family& family);

  mutable std::mutex mutex_;
  std::map<std::string, std::unique_ptr<Family>, std::less<>> families_;  // guarded by mutex_
};

}  // namespace planfirst::core
