// Costs of the foundation's hot paths: text utilities the planners call per question, the guard
// (extract + validate) per LLM reply, and loading + profiling the bundled sales dataset in DuckDB.
#include <benchmark/benchmark.h>

#include <nlohmann/json.hpp>
#include <string>

#include "contracts/contract_registry.hpp"
#include "contracts/json_extraction.hpp"
#include "core/similarity.hpp"
#include "core/stemmer.hpp"
#include "core/tokenizer.hpp"
#include "data/duckdb_database.hpp"
#include "data/table_loader.hpp"
#include "data/table_profiler.hpp"

namespace {

const std::string kQuestion =
    "get revenue totals by region and product type over time for the last two years";
const std::string kReply =
    "Here is the plan:\n```json\n{\"intent\": \"query_sprint_completion_rate\", \"request_type\": "
    "\"STATUS_METRIC\","
    " \"track\": \"QUALITY\", \"required_sources\": [\"db\"], \"missing_info_questions\": [],"
    " \"expected_output_schema\": \"status_metric_v1_json\"}\n```\nDone.";

void BM_Tokenize(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(planfirst::core::tokenize(kQuestion));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Tokenize);

void BM_StemQuestion(benchmark::State& state) {
  planfirst::core::Stemmer stemmer;
  const auto tokens = planfirst::core::tokenize(kQuestion);
  for (auto _ : state) {
    for (const auto& token : tokens) benchmark::DoNotOptimize(stemmer.stem(token));
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(tokens.size()));
}
BENCHMARK(BM_StemQuestion);

void BM_JaroWinkler(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(planfirst::core::jaro_winkler("product_type", "product_category"));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_JaroWinkler);

void BM_GuardExtractAndValidate(benchmark::State& state) {
  auto registry = planfirst::contracts::ContractRegistry::load(planfirst::core::AssetStore());
  if (!registry) {
    state.SkipWithError(registry.error().describe().c_str());
    return;
  }
  const auto* contract = registry->find("analyst_plan");
  for (auto _ : state) {
    auto json = planfirst::contracts::extract_first_json(kReply);
    benchmark::DoNotOptimize(contract->validate(*json).ok());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_GuardExtractAndValidate)->Unit(benchmark::kMicrosecond);

void BM_LoadAndProfileSales(benchmark::State& state) {
  const std::string csv = std::string(PLANFIRST_SOURCE_DIR) + "/examples/sales.csv";
  for (auto _ : state) {
    auto db = planfirst::data::DuckDbDatabase::open(":memory:");
    if (!db || !planfirst::data::load_table(**db, csv, "sales")) {
      state.SkipWithError("cannot load examples/sales.csv");
      return;
    }
    benchmark::DoNotOptimize(planfirst::data::profile_table(**db, "sales"));
  }
}
BENCHMARK(BM_LoadAndProfileSales)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
