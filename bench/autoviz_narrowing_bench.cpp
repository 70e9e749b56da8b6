// Tool narrowing figures (not assertions): ToolNarrower::narrow() on the seed walkthrough's
// requirements (ten queries) and template, over the shipped tools and over a synthetic 10,000-tool
// registry (the shipped tools plus generated ones), built-in hashed embedder, index built once up
// front. Reports p50 and p99 against the aim of under 5 ms per narrow(). Build with
// -DPLANFIRST_BENCH=ON; run build-*/bench/autoviz_narrowing_bench.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "autoviz_fixture.hpp"
#include "embed/hashed_embedder.hpp"
#include "pipelines/autoviz/planning/tool_narrower.hpp"
#include "scratch_dir.hpp"

namespace {

using namespace planfirst;
using namespace planfirst::autoviz;

constexpr double kAimMs = 5.0;

// The shipped tools.yaml followed by `extra` generated tools, the same on every run.
std::string synthetic_registry(std::size_t extra) {
  static const char* const kVerbs[] = {"plot",   "aggregate", "detect", "summarize",
                                       "filter", "join",      "rank",   "forecast"};
  static const char* const kNouns[] = {"revenue", "orders",           "latency", "customers",
                                       "region",  "product category", "sprint",  "tickets",
                                       "errors",  "sessions",         "churn",   "margin"};
  static const char* const kShapes[] = {"line chart over time", "bar chart by group",  "histogram of values",
                                        "totals and averages",  "outliers and spikes", "top ten rows"};
  static const char* const kCapabilities[] = {
      "plot",    "aggregate", "anomaly_detection",   "summary_stats", "filter",
      "segment", "top_k",     "time_series_features"};
  std::string text = bench::value_of(core::AssetStore().read(ToolRegistry::kPath));
  for (std::size_t i = 0; i < extra; ++i) {
    text += "\n  - name: synthetic_" + std::to_string(i) + "\n    description: " + kVerbs[i % 8] + " " +
            kNouns[(i / 8) % 12] + " as " + kShapes[(i / 96) % 6] + " (variant " + std::to_string(i) + ")." +
            "\n    capabilities: [" + kCapabilities[i % 8] +
            "]\n    inputs: [df]\n    params:\n      type: object\n" +
            "      properties:\n        column: {type: string}\n    outputs: [df]\n";
  }
  return text;
}

struct NarrowingFixture {
  explicit NarrowingFixture(std::size_t extra_tools) {
    std::filesystem::create_directories(scratch.file("assets/autoviz"));
    std::ofstream(scratch.file("assets/autoviz/tools.yaml")) << synthetic_registry(extra_tools);
    registry = std::make_unique<ToolRegistry>(
        bench::value_of(ToolRegistry::load(core::AssetStore(scratch.file("assets")))));
    const core::AssetStore shipped;
    templates = std::make_unique<TemplateRegistry>(bench::value_of(TemplateRegistry::load(shipped)));
    narrower = std::make_unique<ToolNarrower>(bench::value_of(
        ToolNarrower::build(*registry, embedder, {}, bench::value_of(NarrowingOptions::load(shipped)))));
    requirements = bench::value_of(Requirements::from_json(core::Json::parse(
        R"({"metrics": ["revenue"], "group_by": ["region", "product_category"],
            "time": {"column": "date", "grain": "unknown"}, "analysis": ["total", "compare", "trend"],
            "outputs": ["chart", "table"], "constraints": []})")));
  }

  bench::ScratchDir scratch;
  embed::HashedEmbedder embedder;
  std::unique_ptr<ToolRegistry> registry;
  std::unique_ptr<TemplateRegistry> templates;
  std::unique_ptr<ToolNarrower> narrower;
  Requirements requirements;
};

void BM_Narrow(benchmark::State& state) {
  static std::map<std::int64_t, std::unique_ptr<NarrowingFixture>> fixtures;  // bench-local: one per size
  std::unique_ptr<NarrowingFixture>& fixture = fixtures[state.range(0)];
  if (!fixture) fixture = std::make_unique<NarrowingFixture>(static_cast<std::size_t>(state.range(0)));
  const PlanTemplate& base = *fixture->templates->find("time_series_grouped");
  bench::LatencyLog latencies;
  for (auto _ : state) {
    latencies.time([&] {
      core::Result<std::vector<NarrowedTool>> narrowed =
          fixture->narrower->narrow(fixture->requirements, base);
      if (!narrowed) state.SkipWithError(narrowed.error().describe().c_str());
      benchmark::DoNotOptimize(narrowed);
    });
  }
  latencies.report(state, kAimMs);
  state.counters["tools"] = static_cast<double>(fixture->registry->tools().size());
  state.counters["queries"] = static_cast<double>(fixture->narrower->queries(fixture->requirements).size());
}
BENCHMARK(BM_Narrow)->Arg(0)->Arg(9973)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
