// Autoviz planning figures (not assertions): intent, requirements, narrowing, plan adaptation and
// coverage check, through the services the graph's nodes call, with nothing executed. The profile
// is a real one, of a 50-column DuckDB table of mixed types, taken once up front. Reports p50 and
// p99 per question against the aim of under 2 ms. Build with -DPLANFIRST_BENCH=ON; run
// build-*/bench/autoviz_planning_bench.
#include <benchmark/benchmark.h>

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "autoviz_fixture.hpp"
#include "data/duckdb_database.hpp"
#include "data/table_profiler.hpp"
#include "pipelines/autoviz/autoviz_graph.hpp"
#include "pipelines/autoviz/plan.hpp"
#include "pipelines/autoviz/planning/coverage_checker.hpp"
#include "scratch_dir.hpp"

namespace {

using namespace planfirst;
using namespace planfirst::autoviz;

constexpr double kAimMs = 2.0;
constexpr int kRows = 5000;

// 50 columns over range(i): keys, dates, categories, flags, measures, sparse and free text.
constexpr std::array<std::pair<std::string_view, std::string_view>, 50> kColumns = {{
    {"order_id", "i"},
    {"order_date", "DATE '2023-01-01' + CAST(i % 730 AS INTEGER)"},
    {"ship_date", "DATE '2023-01-03' + CAST(i % 730 AS INTEGER) + CAST(i % 5 AS INTEGER)"},
    {"created_at", "TIMESTAMP '2023-01-01 08:00:00' + to_minutes(i * 211)"},
    {"region", "['North', 'South', 'East', 'West'][1 + i % 4]"},
    {"country", "['US', 'CA', 'MX', 'DE', 'FR', 'UK', 'ES', 'IT', 'JP', 'KR', 'BR', 'AU'][1 + i % 12]"},
    {"city", "'City ' || (i % 40)"},
    {"product_category", "['Electronics', 'Furniture', 'Office', 'Clothing', 'Garden', 'Toys'][1 + i % 6]"},
    {"product_name", "'Product ' || (i % 200)"},
    {"brand", "'Brand ' || (i % 25)"},
    {"sales_channel", "['Online', 'Retail', 'Partner'][1 + i % 3]"},
    {"customer_segment", "['Consumer', 'Corporate', 'Home Office', 'Small Business'][1 + i % 4]"},
    {"customer_id", "i % 1500"},
    {"customer_age", "CAST(18 + i % 60 AS INTEGER)"},
    {"store_id", "CAST(i % 90 AS INTEGER)"},
    {"sales_rep", "'Rep ' || (i % 30)"},
    {"payment_method", "['Card', 'Cash', 'Transfer', 'Voucher'][1 + i % 4]"},
    {"order_priority", "['Low', 'Medium', 'High', 'Critical'][1 + i % 4]"},
    {"warehouse", "'WH-' || (i % 8)"},
    {"supplier", "'Supplier ' || (i % 45)"},
    {"color", "['Red', 'Blue', 'Green', 'Black', 'White'][1 + i % 5]"},
    {"size", "['S', 'M', 'L', 'XL'][1 + i % 4]"},
    {"currency", "['USD', 'EUR', 'GBP'][1 + i % 3]"},
    {"coupon_code", "CASE WHEN i % 7 = 0 THEN 'SAVE' || (i % 5) END"},
    {"notes", "CASE WHEN i % 3 = 0 THEN 'customer asked for gift wrap on order ' || i END"},
    {"fiscal_year", "CAST(2023 + (i % 730) // 365 AS INTEGER)"},
    {"fiscal_quarter", "'Q' || (1 + (i % 365) // 92)"},
    {"is_returned", "i % 17 = 0"},
    {"is_promo", "i % 5 = 0"},
    {"churned", "i % 23 = 0"},
    {"revenue", "round(50 + (i * 37) % 950 + (i % 4) * 12.5, 2)"},
    {"units", "CAST(1 + (i * 13) % 20 AS INTEGER)"},
    {"unit_price", "round(5 + (i * 31) % 195 + 0.99, 2)"},
    {"discount", "round(((i * 7) % 30) / 100.0, 2)"},
    {"cost", "round(30 + (i * 29) % 600, 2)"},
    {"profit", "round((i * 37) % 950 - (i * 29) % 600 + 20, 2)"},
    {"margin", "round((((i * 11) % 60) - 10) / 100.0, 3)"},
    {"tax", "round(((i * 37) % 950) * 0.08, 2)"},
    {"shipping_cost", "round(2 + (i * 3) % 40 + 0.5, 2)"},
    {"weight_kg", "round(0.1 + ((i * 19) % 500) / 10.0, 1)"},
    {"delivery_days", "CAST(1 + i % 5 + (i % 11) // 7 AS INTEGER)"},
    {"rating", "CAST(1 + (i * 3) % 5 AS INTEGER)"},
    {"returns", "CAST(CASE WHEN i % 17 = 0 THEN 1 + i % 3 ELSE 0 END AS INTEGER)"},
    {"page_views", "CAST(10 + (i * 41) % 3000 AS INTEGER)"},
    {"sessions", "CAST(1 + (i * 43) % 400 AS INTEGER)"},
    {"clicks", "CAST((i * 47) % 250 AS INTEGER)"},
    {"impressions", "CAST(100 + (i * 53) % 9000 AS INTEGER)"},
    {"conversion_rate", "round(((i * 59) % 100) / 1000.0, 4)"},
    {"marketing_spend", "CASE WHEN i % 13 = 0 THEN NULL ELSE round((i * 61) % 5000 / 3.0, 2) END"},
    {"inventory_level", "CAST((i * 67) % 1200 AS INTEGER)"},
}};

constexpr std::array<std::string_view, 7> kQuestions = {
    "get revenue totals by region and product type over time",
    "top 5 product categories by units",
    "monthly revenue trend for the West region",
    "what is the distribution of unit price",
    "relationship between discount and profit",
    "what share of revenue does each sales channel contribute",
    "are there any unusual spikes in daily returns?",
};

data::SchemaProfile synthetic_profile() {
  std::unique_ptr<data::DuckDbDatabase> db = bench::value_of(data::DuckDbDatabase::open(":memory:"));
  std::string select;
  for (const auto& [name, expression] : kColumns) {
    select += std::string(select.empty() ? "" : ", ") + std::string(expression) + " AS " + std::string(name);
  }
  bench::value_of(db->exec("CREATE TABLE orders AS SELECT " + select + " FROM range(" +
                           std::to_string(kRows) + ") AS t(i)"));
  return bench::value_of(data::profile_table(*db, "orders"));
}

struct PlanningFixture {
  bench::ScratchDir scratch;
  std::shared_ptr<const AutovizServices> services = bench::load_services(scratch.file("cache"));
  data::SchemaProfile profile = synthetic_profile();
};

const PlanningFixture& fixture() {
  static const PlanningFixture kFixture;  // bench-local: built once, before the first timing
  return kFixture;
}

struct Planned {
  Plan plan;
  CoverageReport coverage;
  int passes = 0;  // narrow, adapt and coverage runs: more than one when coverage asked for a retry
};

// What the intent, requirements, narrow, adapt and coverage nodes do for `question`, retries
// included, minus the state's JSON round trips.
core::Result<Planned> plan_question(const AutovizServices& services, const data::SchemaProfile& profile,
                                    std::string_view question) {
  core::Result<IntentChoice> intent = services.intent_classifier().classify(question, profile);
  if (!intent) return intent.error();
  core::Result<ExtractedRequirements> extracted = services.requirement_extractor().extract(question, profile);
  if (!extracted) return extracted.error();
  const Requirements* requirements = &extracted->requirements;
  const PlanTemplate* base = services.templates.find(intent->template_name);
  if (base == nullptr) return core::not_found("unknown template \"" + intent->template_name + "\"");
  Planned planned;
  std::string feedback;  // the last coverage check's retry payload, as the adapt node passes it
  do {
    core::Result<std::vector<NarrowedTool>> narrowed = services.narrower->narrow(*requirements, *base);
    if (!narrowed) return narrowed.error();
    std::vector<std::string> allowed;
    for (const NarrowedTool& tool : *narrowed) allowed.push_back(tool.tool);
    core::Result<AdaptedPlan> adapted =
        services.plan_adapter().adapt({question, *requirements, profile, *base, allowed, feedback});
    if (!adapted) return adapted.error();
    planned.plan = std::move(adapted->plan);
    planned.coverage =
        CoverageChecker(services.capabilities, services.tools).check(*requirements, planned.plan);
    feedback = planned.coverage.retry_payload();
  } while (++planned.passes <= kMaxPlanningRetries && !planned.coverage.complete());
  return planned;
}

void BM_PlanQuestion(benchmark::State& state) {
  const PlanningFixture& f = fixture();
  const std::string_view question = kQuestions[static_cast<std::size_t>(state.range(0))];
  bench::LatencyLog latencies;
  std::size_t steps = 0;
  bool complete = false;
  int passes = 0;
  for (auto _ : state) {
    latencies.time([&] {
      core::Result<Planned> planned = plan_question(*f.services, f.profile, question);
      if (!planned) {
        state.SkipWithError(planned.error().describe().c_str());
        return;
      }
      steps = planned->plan.steps.size();
      complete = planned->coverage.complete();
      passes = planned->passes;
      benchmark::DoNotOptimize(planned);
    });
  }
  latencies.report(state, kAimMs);
  state.counters["steps"] = static_cast<double>(steps);
  state.counters["covered"] = complete ? 1 : 0;
  state.counters["passes"] = passes;
  state.counters["columns"] = static_cast<double>(f.profile.columns.size());
  state.SetLabel(std::string(question));
}
BENCHMARK(BM_PlanQuestion)
    ->DenseRange(0, static_cast<int>(kQuestions.size()) - 1)
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
