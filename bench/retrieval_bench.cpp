// Costs of seed 001's planning path: intent detection (rules + entities), the retrieval planner, and
// both per question, with p50/p99 latency; then a million detect+plan rounds that report how many
// allocations each round makes and whether live heap or RSS grows (this binary replaces global
// operator new/delete to count; no other program does).
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <new>
#include <string>
#include <vector>

#include "core/asset_store.hpp"
#include "pipelines/retrieval/intent_detector.hpp"
#include "pipelines/retrieval/reasoning_structure.hpp"
#include "pipelines/retrieval/retrieval_planner.hpp"

namespace {

std::atomic<std::uint64_t> g_allocations{0};
std::atomic<std::int64_t> g_live_bytes{0};

}  // namespace

void* operator new(std::size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  g_live_bytes.fetch_add(static_cast<std::int64_t>(malloc_usable_size(p)), std::memory_order_relaxed);
  return p;
}
void operator delete(void* p) noexcept {
  if (p == nullptr) return;
  g_live_bytes.fetch_sub(static_cast<std::int64_t>(malloc_usable_size(p)), std::memory_order_relaxed);
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  operator delete(p);
}

namespace {

using namespace planfirst::retrieval;

const std::vector<std::string> kQuestions = {
    "show me the commits pushed to project billing-api last week",
    "how many open issues and merge requests per week in group/app this month?",
    "what is the status of the backend repo",
    "commits and in-progress tickets for project ops since 2024-01-15",
};

const IntentDetector& detector() {
  static const IntentDetector kDetector(*IntentRules::load(planfirst::core::AssetStore()));
  return kDetector;
}

const RetrievalPlanner& planner() {
  static const RetrievalPlanner kPlanner(*PlanRules::load(planfirst::core::AssetStore()));
  return kPlanner;
}

std::size_t detect_and_plan(const std::string& question) {
  DetectedIntents detected = detector().detect(question);
  Reasoning reasoning;
  reasoning.intents = std::move(detected.intents);
  reasoning.entities = std::move(detected.entities);
  reasoning.hypotheses = build_hypotheses(reasoning.intents, detector().rules());
  planfirst::core::Result<PlannerOutput> output = planner().plan(reasoning);
  return output ? output->plans.size() : 0;
}

long rss_kib() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0;
  long resident = 0;
  statm >> pages >> resident;
  return resident * 4;
}

void report_percentiles(benchmark::State& state, std::vector<double>& nanos, std::size_t plans) {
  if (nanos.empty()) return;
  std::sort(nanos.begin(), nanos.end());
  state.counters["p50_us"] = nanos[nanos.size() / 2] / 1000.0;
  state.counters["p99_us"] = nanos[nanos.size() * 99 / 100] / 1000.0;
  state.counters["plans_per_s"] = benchmark::Counter(static_cast<double>(plans), benchmark::Counter::kIsRate);
}

void BM_IntentDetection(benchmark::State& state) {
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(detector().detect(kQuestions[i++ % kQuestions.size()]));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_IntentDetection);

void BM_RetrievalPlanner(benchmark::State& state) {
  Reasoning reasoning;
  reasoning.intents = {{"query_commits", 0.9}, {"query_issues", 0.8}, {"query_analytics", 0.6}};
  reasoning.hypotheses = {{"h0", "Retrieve commit data", {}}};
  reasoning.entities.projects = {"billing-api"};
  reasoning.entities.dates = {"last week"};
  std::size_t plans = 0;
  std::vector<double> nanos;
  nanos.reserve(1 << 20);
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    planfirst::core::Result<PlannerOutput> output = planner().plan(reasoning);
    const auto stop = std::chrono::steady_clock::now();
    plans += output->plans.size();
    if (nanos.size() < nanos.capacity())
      nanos.push_back(std::chrono::duration<double, std::nano>(stop - start).count());
  }
  report_percentiles(state, nanos, plans);
}
BENCHMARK(BM_RetrievalPlanner);

void BM_DetectAndPlan(benchmark::State& state) {
  std::size_t i = 0;
  std::size_t plans = 0;
  std::vector<double> nanos;
  nanos.reserve(1 << 20);
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    plans += detect_and_plan(kQuestions[i++ % kQuestions.size()]);
    const auto stop = std::chrono::steady_clock::now();
    if (nanos.size() < nanos.capacity())
      nanos.push_back(std::chrono::duration<double, std::nano>(stop - start).count());
  }
  report_percentiles(state, nanos, plans);
  state.counters["time_per_plan"] = benchmark::Counter(
      static_cast<double>(plans), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_DetectAndPlan);

// A million detect+plan rounds: allocations per round, and live heap and RSS before and after.
void BM_MillionRoundsMemory(benchmark::State& state) {
  for (auto _ : state) {
    for (std::size_t i = 0; i < 10'000; ++i) detect_and_plan(kQuestions[i % kQuestions.size()]);  // warm
    const std::uint64_t allocations_before = g_allocations.load();
    const std::int64_t live_before = g_live_bytes.load();
    const long rss_before = rss_kib();
    std::size_t plans = 0;
    for (std::size_t i = 0; i < 1'000'000; ++i) plans += detect_and_plan(kQuestions[i % kQuestions.size()]);
    const std::int64_t live_growth = g_live_bytes.load() - live_before;
    state.counters["plans"] = static_cast<double>(plans);
    state.counters["allocs_per_round"] = static_cast<double>(g_allocations.load() - allocations_before) / 1e6;
    state.counters["live_heap_growth_B"] = static_cast<double>(live_growth);
    state.counters["rss_growth_KiB"] = static_cast<double>(rss_kib() - rss_before);
  }
}
BENCHMARK(BM_MillionRoundsMemory)->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
