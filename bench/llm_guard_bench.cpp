// Guard overhead per model reply: extract the first JSON value, then validate it against its
// contract, for the reply shapes models send. Figures, not assertions: the LLM call is the slow part.
#include <benchmark/benchmark.h>

#include <stdexcept>
#include <string>

#include "contracts/contract_registry.hpp"
#include "contracts/json_extraction.hpp"
#include "core/asset_store.hpp"
#include "core/json.hpp"
#include "llm/token_budget.hpp"

namespace {

using planfirst::contracts::ContractRegistry;

const ContractRegistry& registry() {
  static const ContractRegistry loaded = [] {
    auto r = ContractRegistry::load(planfirst::core::AssetStore());
    if (!r) throw std::runtime_error(r.error().describe());
    return std::move(*r);
  }();
  return loaded;
}

const char* kAnalystPlan =
    R"({"intent": "query_sprint_completion_rate", "request_type": "STATUS_METRIC", "track": "QUALITY",
        "required_sources": ["db"], "missing_info_questions": [], "expected_output_schema": "status_metric_v1_json"})";

const char* kRequirements =
    R"({"metrics": ["revenue"], "group_by": ["region", "product_category"], "time": {"column": "date", "grain": "unknown"},
        "analysis": ["total", "compare", "trend"], "outputs": ["chart", "table"],
        "constraints": [{"type": "filter", "column": "region", "op": "in", "value": ["EU", "US"]}, {"type": "limit", "n": 10}]})";

void guard(benchmark::State& state, const char* contract_name, const std::string& reply) {
  const auto* contract = registry().find(contract_name);
  if (contract == nullptr) {
    state.SkipWithError("contract missing");
    return;
  }
  planfirst::contracts::ExtractOptions options;
  options.objects_only = true;  // as ContractGuard does for object contracts
  for (auto _ : state) {
    auto json = planfirst::contracts::extract_first_json(reply, options);
    if (!json) {
      state.SkipWithError("no JSON");
      return;
    }
    auto report = contract->validate(*json);
    benchmark::DoNotOptimize(report);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(reply.size()));
}

void BM_GuardAnalystPlanBare(benchmark::State& state) {
  guard(state, "analyst_plan", kAnalystPlan);
}
void BM_GuardAnalystPlanInProse(benchmark::State& state) {
  guard(state, "analyst_plan",
        std::string("Sure, here is the plan you asked for (see [1]):\n") + kAnalystPlan + "\nLet me know!");
}
void BM_GuardAnalystPlanFenced(benchmark::State& state) {
  guard(state, "analyst_plan", std::string("```json\n") + kAnalystPlan + "\n```");
}
void BM_GuardRequirements(benchmark::State& state) {
  guard(state, "requirements", kRequirements);
}
void BM_GuardAnalystPlanInvalid(benchmark::State& state) {
  guard(
      state, "analyst_plan",
      R"({"intent": "", "request_type": "STATUS_REPORT", "track": "SLOW", "required_sources": ["db", "doc", "web"]})");
}

void BM_EstimateTokens(benchmark::State& state) {
  std::string text;
  for (int i = 0; i < 200; ++i) text += "SELECT region, SUM(revenue) FROM sales GROUP BY region; -- line\n";
  for (auto _ : state) benchmark::DoNotOptimize(planfirst::llm::estimate_tokens(text));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(text.size()));
}

BENCHMARK(BM_GuardAnalystPlanBare)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_GuardAnalystPlanInProse)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_GuardAnalystPlanFenced)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_GuardRequirements)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_GuardAnalystPlanInvalid)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EstimateTokens)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
