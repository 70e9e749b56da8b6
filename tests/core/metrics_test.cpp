#include "core/metrics.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <thread>
#include <vector>

namespace planfirst::core {
namespace {

TEST(MetricsRegistry, RendersCountersAndGaugesInExpositionFormat) {
  MetricsRegistry registry;
  registry.describe("llm_requests_total", MetricType::kCounter, "LLM calls by model and outcome.");
  registry.counter("llm_requests_total", {{"outcome", "ok"}, {"model", "qwen"}}).inc(3);
  registry.counter("llm_requests_total", {{"outcome", "error"}, {"model", "qwen"}}).inc();
  registry.gauge("active_runs").set(2.5);

  const std::string text = registry.render_prometheus();

  EXPECT_EQ(text,
            "# TYPE active_runs gauge\n"
            "active_runs 2.5\n"
            "# HELP llm_requests_total LLM calls by model and outcome.\n"
            "# TYPE llm_requests_total counter\n"
            "llm_requests_total{model=\"qwen\",outcome=\"error\"} 1\n"
            "llm_requests_total{model=\"qwen\",outcome=\"ok\"} 3\n");
}

TEST(MetricsRegistry, RendersHistogramBucketsCumulativelyWithSumAndCount) {
  MetricsRegistry registry;
  Histogram& latency = registry.histogram("stage_seconds", {{"stage", "plan"}}, {0.5, 1});

  latency.observe(0.25);
  latency.observe(0.5);
  latency.observe(0.75);
  latency.observe(7);

  EXPECT_EQ(registry.render_prometheus(),
            "# TYPE stage_seconds histogram\n"
            "stage_seconds_bucket{stage=\"plan\",le=\"0.5\"} 2\n"
            "stage_seconds_bucket{stage=\"plan\",le=\"1\"} 3\n"
            "stage_seconds_bucket{stage=\"plan\",le=\"+Inf\"} 4\n"
            "stage_seconds_sum{stage=\"plan\"} 8.5\n"
            "stage_seconds_count{stage=\"plan\"} 4\n");
}

TEST(MetricsRegistry, EscapesBackslashQuoteAndNewlineInLabelValues) {
  MetricsRegistry registry;
  registry.counter("errors_total", {{"path", "C:\\data\n\"x\""}}).inc();

  const std::string text = registry.render_prometheus();

  EXPECT_EQ(text, "# TYPE errors_total counter\nerrors_total{path=\"C:\\\\data\\n\\\"x\\\"\"} 1\n");
}

TEST(MetricsRegistry, UsesDefaultBucketsWhenNoneAreGiven) {
  MetricsRegistry registry;

  const Histogram::Snapshot snapshot = registry.histogram("wait_seconds").snapshot();

  EXPECT_EQ(snapshot.upper_bounds, default_buckets());
  EXPECT_EQ(snapshot.cumulative.size(), default_buckets().size() + 1);
}

TEST(MetricsRegistry, ReturnsTheSameHandleForTheSameNameAndLabels) {
  MetricsRegistry registry;

  Counter& first = registry.counter("runs_total", {{"pipeline", "autoviz"}});
  Counter& again = registry.counter("runs_total", {{"pipeline", "autoviz"}});
  Counter& other = registry.counter("runs_total", {{"pipeline", "sqlopt"}});

  EXPECT_EQ(&first, &again);
  EXPECT_NE(&first, &other);
}

TEST(MetricsRegistry, CountsEveryIncrementFromConcurrentThreads) {
  MetricsRegistry registry;
  constexpr int kThreads = 4;
  constexpr int kIncrements = 10000;
  std::vector<std::thread> threads;

  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&registry] {
      for (int i = 0; i < kIncrements; ++i) {
        registry.counter("hits_total", {{"shard", "a"}}).inc();
        registry.histogram("hit_seconds").observe(0.01);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();

  EXPECT_EQ(registry.counter("hits_total", {{"shard", "a"}}).value(), kThreads * kIncrements);
  EXPECT_EQ(registry.histogram("hit_seconds").snapshot().count,
            static_cast<std::uint64_t>(kThreads * kIncrements));
}

TEST(MetricsRegistry, ThrowsWhenANameIsUsedAsTwoTypes) {
  MetricsRegistry registry;
  registry.counter("queue_depth").inc();

  EXPECT_THROW(registry.gauge("queue_depth"), std::logic_error);
}

TEST(MetricsRegistry, ThrowsOnInvalidNamesAndReservedLabels) {
  MetricsRegistry registry;

  EXPECT_THROW(registry.counter("bad-name"), std::logic_error);
  EXPECT_THROW(registry.histogram("h_seconds", {{"le", "1"}}), std::logic_error);
  EXPECT_THROW(registry.counter("c_total", {{"__reserved", "x"}}), std::logic_error);
}

TEST(MetricsRegistry, ThrowsWhenHistogramBucketsChangeAfterUse) {
  MetricsRegistry registry;
  registry.histogram("size_bytes", {}, {10, 100});

  EXPECT_THROW(registry.histogram("size_bytes", {}, {10, 1000}), std::logic_error);
  EXPECT_THROW(registry.histogram("other_bytes", {}, {100, 10}), std::logic_error);
}

TEST(Counter, ThrowsWhenDecreased) {
  Counter counter;

  EXPECT_THROW(counter.inc(-1), std::logic_error);
}

}  // namespace
}  // namespace planfirst::core
