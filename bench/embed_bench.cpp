// Embedding figures (not assertions): hashed embedder texts/s; top-k search latency at 1k, 10k and
// 100k items (exact search, and the default HNSW above 50k); index cache load vs rebuild.
// Build with -DPLANFIRST_BENCH=ON; run build-*/bench/embed_bench.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "embed/hashed_embedder.hpp"
#include "embed/index_cache.hpp"
#include "embed/vector_index.hpp"

namespace {

using namespace planfirst::embed;

// Tool-description-like texts, the same on every run.
std::vector<std::string> tool_texts(std::size_t count) {
  static const char* const kVerbs[] = {"plot",   "aggregate", "detect", "summarize",
                                       "filter", "join",      "rank",   "forecast"};
  static const char* const kNouns[] = {"revenue", "orders",           "latency", "customers",
                                       "region",  "product category", "sprint",  "tickets",
                                       "errors",  "sessions",         "churn",   "margin"};
  static const char* const kShapes[] = {"line chart over time", "bar chart by group",  "histogram of values",
                                        "totals and averages",  "outliers and spikes", "top ten rows"};
  std::vector<std::string> texts;
  texts.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    texts.push_back("tool_" + std::to_string(i) + ": " + kVerbs[i % 8] + " " + kNouns[(i / 8) % 12] + " as " +
                    kShapes[(i / 96) % 6] + " with " + kNouns[(i / 7) % 12]);
  }
  return texts;
}

const EmbeddingMatrix& embedded(std::size_t count) {
  static std::map<std::size_t, EmbeddingMatrix> cache;  // bench-local: built once per size
  auto found = cache.find(count);
  if (found == cache.end()) found = cache.emplace(count, *HashedEmbedder().embed(tool_texts(count))).first;
  return found->second;
}

void BM_HashedEmbedder(benchmark::State& state) {
  const std::vector<std::string> texts = tool_texts(static_cast<std::size_t>(state.range(0)));
  const HashedEmbedder embedder;
  for (auto _ : state) {
    auto matrix = embedder.embed(texts);
    benchmark::DoNotOptimize(matrix);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));  // items/s = texts/s
}
BENCHMARK(BM_HashedEmbedder)->Arg(256)->Unit(benchmark::kMillisecond);

void search_top10(benchmark::State& state, const VectorIndexOptions& options) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  auto index = VectorIndex::build(embedded(n), options);
  if (!index) {
    state.SkipWithError(index.error().message.c_str());
    return;
  }
  auto queries = HashedEmbedder().embed(std::vector<std::string>{
      "line chart of revenue over time", "find spikes in latency", "total orders by region"});
  std::size_t q = 0;
  for (auto _ : state) {
    auto hits = index->search(queries->row(q++ % 3), 10);
    benchmark::DoNotOptimize(hits);
  }
  state.SetLabel(std::string(to_string(index->kind())));
}

void BM_SearchTop10Default(benchmark::State& state) {
  search_top10(state, {});  // flat up to 50k, HNSW above
}
BENCHMARK(BM_SearchTop10Default)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);

void BM_SearchTop10Exact(benchmark::State& state) {
  search_top10(state, {.hnsw_threshold = static_cast<std::size_t>(-1)});
}
BENCHMARK(BM_SearchTop10Exact)->Arg(100000)->Unit(benchmark::kMicrosecond);

std::filesystem::path bench_dir() {
  return std::filesystem::temp_directory_path() / ("planfirst-embed-bench-" + std::to_string(::getpid()));
}

void BM_CacheRebuild(benchmark::State& state) {  // embed + build + write, as after a registry change
  const std::vector<std::string> texts = tool_texts(static_cast<std::size_t>(state.range(0)));
  const HashedEmbedder embedder;
  const IndexCache cache(bench_dir());
  for (auto _ : state) {
    state.PauseTiming();
    std::filesystem::remove_all(bench_dir());
    state.ResumeTiming();
    auto built = cache.load_or_build(embedder, texts);
    if (!built || built->outcome != CacheOutcome::kBuilt) state.SkipWithError("not built");
  }
  std::filesystem::remove_all(bench_dir());
}
BENCHMARK(BM_CacheRebuild)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

void BM_CacheLoad(benchmark::State& state) {  // read, verify checksums, deserialize
  const std::vector<std::string> texts = tool_texts(static_cast<std::size_t>(state.range(0)));
  const HashedEmbedder embedder;
  const IndexCache cache(bench_dir());
  if (auto first = cache.load_or_build(embedder, texts); !first) state.SkipWithError("cannot build");
  for (auto _ : state) {
    auto loaded = cache.load_or_build(embedder, texts);
    if (!loaded || loaded->outcome != CacheOutcome::kLoaded) state.SkipWithError("not loaded");
  }
  std::filesystem::remove_all(bench_dir());
}
BENCHMARK(BM_CacheLoad)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
