// StepExecutor over real DuckDB: the seed walkthrough plan end to end on examples/sales.csv, schema
// violations by pointer, safe repairs logged with their step, semantic repairs sent back to
// planning, the requirements' grain winning over the plan's, and a byte-stable report.
#include "pipelines/autoviz/tools/step_executor.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/asset_store.hpp"
#include "core/metrics.hpp"
#include "data/duckdb_database.hpp"
#include "pipelines/autoviz/autoviz_fixtures.hpp"
#include "pipelines/autoviz/plan.hpp"
#include "pipelines/autoviz/planning/tool_registry.hpp"
#include "pipelines/autoviz/requirements.hpp"
#include "pipelines/autoviz/tools/tool_library.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::autoviz {
namespace {

// Six sales rows over three months.
constexpr const char* kSmallCsv =
    "date,region,product_category,revenue\n"
    "2024-01-05,North,Toys,10\n"
    "2024-01-20,South,Games,20\n"
    "2024-02-03,North,Games,30\n"
    "2024-02-17,South,Toys,40\n"
    "2024-03-09,North,Toys,50\n"
    "2024-03-21,South,Games,60\n";

PlanStep step(std::string id, std::string tool, const core::Json& params) {
  return {std::move(id), std::move(tool), testing::loaded(params_from_json(params, "/params")), "", {}};
}

std::string sales_path() {
  return (std::filesystem::path(PLANFIRST_SOURCE_DIR) / "examples/sales.csv").string();
}

// The seed 002 walkthrough: revenue totals by product category over time, as a chart and a table.
Plan walkthrough_plan(const std::string& path) {
  return {{step("load", "load_dataset", {{"path", path}}),
           step("parse_date", "parse_datetime", {{"column", "date"}}),
           step("bucket_date", "time_bucket", {{"column", "date"}, {"grain", "auto"}}),
           step("totals", "aggregate",
                {{"group_by", {"date", "product_category"}}, {"agg_func", "sum"}, {"metrics", {"revenue"}}}),
           step("trend_chart", "plot_line", {{"x", "date"}, {"y", "revenue"}, {"color", "product_category"}}),
           step("totals_table", "save_table", {{"name", "revenue_by_category"}})}};
}

class StepExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override { small_csv_ = dir_.write("small.csv", kSmallCsv).string(); }

  // Runs `plan` on a fresh in-memory database with `registry`'s schemas (the shipped ones by default).
  ExecutionReport run(const Plan& plan, const Requirements& requirements = {},
                      const ToolRegistry* registry = nullptr, core::MetricsRegistry* metrics = nullptr) {
    const StepExecutor executor = testing::loaded(
        StepExecutor::create(registry != nullptr ? *registry : registry_, ToolLibrary::builtin(), metrics));
    ctx_.reset();
    db_ = std::move(*data::DuckDbDatabase::open(":memory:"));
    ctx_ = std::make_unique<ToolContext>(*db_, "", dir_.path() / "out");
    return executor.execute(plan, requirements, *ctx_);
  }

  // A load of the small CSV followed by `steps`.
  Plan small_plan(std::vector<PlanStep> steps) const {
    Plan plan{{step("load", "load_dataset", {{"path", small_csv_}})}};
    plan.steps.insert(plan.steps.end(), steps.begin(), steps.end());
    return plan;
  }

  static std::vector<std::string> statuses(const ExecutionReport& report) {
    std::vector<std::string> out;
    for (const StepReport& step : report.steps) out.emplace_back(to_string(step.status));
    return out;
  }

  test_support::TempDir dir_;
  std::string small_csv_;
  ToolRegistry registry_ = testing::loaded(ToolRegistry::load(core::AssetStore()));
  std::unique_ptr<data::Database> db_;
  std::unique_ptr<ToolContext> ctx_;
};

TEST_F(StepExecutorTest, WalkthroughPlanRunsEndToEndOnSales) {
  const ExecutionReport report = run(walkthrough_plan(sales_path()));

  ASSERT_TRUE(report.ok()) << report.to_json().dump(2);
  EXPECT_EQ(statuses(report), (std::vector<std::string>{"ok", "ok", "ok", "ok", "ok", "ok"}));
  EXPECT_TRUE(report.replan.empty());
  EXPECT_EQ(report.repair_count(), 0u);
  // Two years of days: monthly buckets, 24 months for each of the 4 categories.
  EXPECT_EQ(report.steps[2].grain, "month");
  EXPECT_EQ(report.steps[3].output->table->row_count(), 24u * 4u);
  const core::Json chart = core::Json::parse(report.steps[4].output->chart);
  EXPECT_EQ(chart["mark"]["type"], "line") << chart.dump();
  EXPECT_EQ(chart["encoding"]["color"]["field"], "product_category");
  ASSERT_FALSE(report.steps[5].output->files.empty());
  for (const std::filesystem::path& file : report.steps[5].output->files)
    EXPECT_TRUE(std::filesystem::exists(file));
  EXPECT_EQ(report.steps[1].input, report.steps[0].output->relation);
}

TEST_F(StepExecutorTest, WrongTypeParamIsRejectedWithItsPointer) {
  const ExecutionReport report =
      run(small_plan({step("parse_date", "parse_datetime", {{"column", "date"}}),
                      step("totals", "aggregate", {{"agg_func", 3}, {"metrics", {"revenue"}}}),
                      step("chart", "plot_line", {{"x", "date"}, {"y", "revenue"}})}));

  EXPECT_EQ(statuses(report), (std::vector<std::string>{"ok", "ok", "failed", "skipped"}));
  const StepReport* failed = report.failed_step();
  ASSERT_NE(failed, nullptr);
  EXPECT_EQ(failed->step_id, "totals");
  EXPECT_EQ(failed->error->code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(failed->error->where, "/steps/2/params/agg_func");
  EXPECT_NE(failed->error->message.find("step 'totals'"), std::string::npos) << failed->error->message;
  EXPECT_FALSE(failed->output.has_value());
  EXPECT_TRUE(report.steps[1].output.has_value());  // the steps before keep their outputs
  EXPECT_TRUE(report.replan.empty());
}

TEST_F(StepExecutorTest, MissingRequiredParamIsNamedByItsPointer) {
  const ExecutionReport report = run(small_plan({step("totals", "aggregate", {{"agg_func", "sum"}})}));

  ASSERT_NE(report.failed_step(), nullptr);
  EXPECT_EQ(report.failed_step()->error->where, "/steps/1/params/metrics");
}

TEST_F(StepExecutorTest, MissingDefaultIsFilledFromTheSchemaAndLogged) {
  testing::AssetOverrides overrides;
  std::string tools = testing::loaded(core::AssetStore().read(ToolRegistry::kPath));
  const std::string agg_func =
      "agg_func: {type: string, enum: [sum, avg, count, count_distinct, min, max, median, stddev]}";
  tools.replace(tools.find(agg_func), agg_func.size(),
                "agg_func: {type: string, enum: [sum, avg, count, count_distinct, min, max, median, stddev], "
                "default: avg}");
  overrides.write(std::string(ToolRegistry::kPath), tools);
  const ToolRegistry registry = testing::loaded(ToolRegistry::load(overrides.store()));

  const ExecutionReport report =
      run(small_plan({step("totals", "aggregate", {{"group_by", {"region"}}, {"metrics", {"revenue"}}})}), {},
          &registry);

  ASSERT_TRUE(report.ok()) << report.to_json().dump(2);
  const StepReport& totals = report.steps[1];
  EXPECT_EQ(totals.status, StepStatus::kRepaired);
  EXPECT_EQ(totals.params.at("agg_func").to_json(), "avg");
  ASSERT_EQ(totals.repairs.size(), 1u);
  EXPECT_EQ(totals.repairs[0].to_json(), (core::Json{{"step_id", "totals"},
                                                     {"tool", "aggregate"},
                                                     {"param", "agg_func"},
                                                     {"before", "(none)"},
                                                     {"after", "avg"},
                                                     {"reason", "default param from the tool's schema"},
                                                     {"kind", "default_param"}}));
  // North averages (10 + 30 + 50) / 3 and South (20 + 40 + 60) / 3.
  EXPECT_EQ(totals.output->table->at(0, 1).to_string(), "30");
  EXPECT_EQ(totals.output->table->at(1, 1).to_string(), "40");
}

TEST_F(StepExecutorTest, ColumnCasingIsRepairedOnceAndLoggedWithTheStepId) {
  const ExecutionReport report = run(small_plan({step(
      "totals", "aggregate", {{"group_by", {"Region"}}, {"agg_func", "sum"}, {"metrics", {"REVENUE"}}})}));

  ASSERT_TRUE(report.ok()) << report.to_json().dump(2);
  const StepReport& totals = report.steps[1];
  EXPECT_EQ(totals.status, StepStatus::kRepaired);
  ASSERT_EQ(totals.repairs.size(), 2u);
  EXPECT_EQ(totals.repairs[0].step_id, "totals");  // in the order the tool made them
  EXPECT_EQ(totals.repairs[0].param, "metrics");
  EXPECT_EQ(totals.repairs[0].before, "REVENUE");
  EXPECT_EQ(totals.repairs[0].after, "revenue");
  EXPECT_EQ(totals.repairs[0].kind, "column_casing");
  EXPECT_EQ(totals.repairs[1].param, "group_by");
  EXPECT_EQ(totals.repairs[1].before, "Region");
  EXPECT_EQ(totals.repairs[1].after, "region");
  EXPECT_EQ(totals.params.at("metrics").to_json(), core::Json::array({"revenue"}));  // as the step ran
  EXPECT_TRUE(report.replan.empty());
  EXPECT_EQ(report.repair_count(), 2u);
}

TEST_F(StepExecutorTest, UnknownColumnComesBackForReplanningAndNothingAfterRuns) {
  const ExecutionReport report = run(small_plan(
      {step("totals", "aggregate", {{"group_by", {"region"}}, {"agg_func", "sum"}, {"metrics", {"profit"}}}),
       step("chart", "plot_bar", {{"x", "region"}, {"y", "profit"}}),
       step("table", "save_table", core::Json::object())}));

  EXPECT_EQ(statuses(report), (std::vector<std::string>{"ok", "failed", "skipped", "skipped"}));
  ASSERT_EQ(report.replan.size(), 1u);
  const ReplanRequest& request = report.replan[0];
  EXPECT_EQ(request.step_id, "totals");
  EXPECT_EQ(request.param, "metrics");
  EXPECT_EQ(request.pointer, "/steps/1/params/metrics/0");
  EXPECT_EQ(request.value, "profit");
  EXPECT_EQ(request.change, "metric");
  EXPECT_EQ(request.available, (std::vector<std::string>{"date", "region", "product_category", "revenue"}));
  EXPECT_EQ(report.failed_step()->error->code, core::ErrorCode::kFailedPrecondition);
  EXPECT_EQ(report.replan_payload()["replan"][0]["change"], "metric");
  EXPECT_EQ(ctx_->relation, report.steps[0].output->relation);  // nothing ran after the load
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "out"));
}

TEST_F(StepExecutorTest, ExplicitGrainInTheRequirementsOverridesThePlans) {
  Requirements requirements;
  requirements.time = {"date", "month"};

  const ExecutionReport report =
      run(small_plan({step("bucket", "time_bucket", {{"column", "date"}, {"grain", "day"}}),
                      step("totals", "aggregate",
                           {{"group_by", {"date"}}, {"agg_func", "sum"}, {"metrics", {"revenue"}}})}),
          requirements);

  ASSERT_TRUE(report.ok()) << report.to_json().dump(2);
  const StepReport& bucket = report.steps[1];
  EXPECT_EQ(bucket.params.at("grain").to_json(), "month");
  EXPECT_EQ(bucket.grain, "month");
  ASSERT_EQ(bucket.repairs.size(), 1u);
  EXPECT_EQ(bucket.repairs[0].kind, "explicit_grain");
  EXPECT_EQ(bucket.repairs[0].before, "day");
  EXPECT_EQ(bucket.repairs[0].after, "month");
  EXPECT_EQ(report.steps[2].output->table->row_count(), 3u);  // January, February, March
}

TEST_F(StepExecutorTest, AutoGrainIsResolvedByTheToolAndRecorded) {
  const ExecutionReport report = run(small_plan({step("bucket", "time_bucket", {{"column", "date"}})}));

  ASSERT_TRUE(report.ok()) << report.to_json().dump(2);
  EXPECT_EQ(report.steps[1].status, StepStatus::kOk);
  EXPECT_EQ(report.steps[1].grain, "day");  // a span of 76 days
  ASSERT_EQ(report.steps[1].repairs.size(), 1u);
  EXPECT_EQ(report.steps[1].repairs[0].kind, "auto_grain");
}

TEST_F(StepExecutorTest, ScalarWhereTheSchemaExpectsAListIsWrapped) {
  const ExecutionReport report = run(small_plan(
      {step("totals", "aggregate", {{"group_by", "region"}, {"agg_func", "sum"}, {"metrics", "revenue"}})}));

  ASSERT_TRUE(report.ok()) << report.to_json().dump(2);
  const StepReport& totals = report.steps[1];
  EXPECT_EQ(totals.params.at("group_by").to_json(), core::Json::array({"region"}));
  ASSERT_EQ(totals.repairs.size(), 2u);
  EXPECT_EQ(totals.repairs[0].kind, "scalar_to_list");
  EXPECT_EQ(totals.repairs[0].before, "region");
  EXPECT_EQ(totals.repairs[0].after, "[\"region\"]");
  EXPECT_EQ(totals.output->table->row_count(), 2u);
}

TEST_F(StepExecutorTest, CheckParamsRefusesBeforeAnyDataWhatExecutionWouldAndForgivesItsSafeRepairs) {
  const StepExecutor executor = testing::loaded(StepExecutor::create(registry_, ToolLibrary::builtin()));
  const PlanStep repairable =
      step("totals", "aggregate", {{"df", "load"}, {"group_by", "region"}, {"metrics", "revenue"}});
  const PlanStep wrong = step("totals", "aggregate", {{"agg_func", 3}, {"metrics", {"revenue"}}});

  const std::optional<core::Error> forgiven = executor.check_params(repairable, 1, Requirements{});
  const std::optional<core::Error> refused = executor.check_params(wrong, 2, Requirements{});

  EXPECT_FALSE(forgiven.has_value()) << forgiven->describe();
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->where, "/steps/2/params/agg_func");
  EXPECT_EQ(refused->message,
            run(small_plan({step("parse_date", "parse_datetime", {{"column", "date"}}), wrong}))
                .failed_step()
                ->error->message);
}

TEST_F(StepExecutorTest, DfNamingAnEarlierStepReadsItsOutputAndAnythingElseTheCurrentRelation) {
  const ExecutionReport report = run(small_plan(
      {step("totals", "aggregate", {{"group_by", {"region"}}, {"agg_func", "sum"}, {"metrics", {"revenue"}}}),
       step("raw_table", "save_table", {{"df", "load"}, {"name", "raw"}}),
       step("chart", "plot_bar", {{"df", "df"}, {"x", "region"}, {"y", "revenue"}})}));

  ASSERT_TRUE(report.ok()) << report.to_json().dump(2);
  const std::string loaded = report.steps[0].output->relation;
  EXPECT_EQ(report.steps[2].input, loaded);
  EXPECT_EQ(report.steps[2].repairs[0].kind, "missing_df");
  EXPECT_EQ(report.steps[2].repairs[0].after, loaded);
  EXPECT_FALSE(report.steps[2].params.contains("df"));
  EXPECT_EQ(report.steps[2].output->table->row_count(), 6u);
  EXPECT_EQ(report.steps[3].input, loaded);  // "df" names no step: the current relation
  EXPECT_EQ(report.steps[3].repairs[0].before, "df");
}

TEST_F(StepExecutorTest, FilterMatchingNothingFailsNamingTheFilterStep) {
  const ExecutionReport report = run(
      small_plan({step("only_east", "filter_rows", {{"column", "region"}, {"op", "="}, {"value", "East"}}),
                  step("totals", "aggregate", {{"agg_func", "sum"}, {"metrics", {"revenue"}}})}));

  EXPECT_EQ(statuses(report), (std::vector<std::string>{"ok", "failed", "skipped"}));
  const core::Error& error = *report.steps[1].error;
  EXPECT_NE(error.message.find("step 'only_east' (filter_rows)"), std::string::npos) << error.message;
  EXPECT_NE(error.message.find("empty"), std::string::npos) << error.message;
  EXPECT_EQ(error.where, "/steps/1/params/value");
}

TEST_F(StepExecutorTest, ReportJsonIsByteIdenticalAcrossRuns) {
  Requirements requirements;
  requirements.time = {"date", "month"};
  const Plan plan =
      small_plan({step("bucket", "time_bucket", {{"column", "Date"}}),
                  step("totals", "aggregate", {{"group_by", {"date", "region"}}, {"metrics", "revenue"}}),
                  step("chart", "plot_line", {{"x", "date"}, {"y", "revenue"}, {"color", "region"}}),
                  step("table", "save_table", {{"name", "totals"}})});

  const std::string first = run(plan, requirements).to_json().dump();
  const std::string second = run(plan, requirements).to_json().dump();

  EXPECT_EQ(first, second);
  EXPECT_EQ(core::Json::parse(first)["ok"], true) << first;
}

TEST_F(StepExecutorTest, CountsStepsRepairsAndReplansInTheMetricsRegistry) {
  core::MetricsRegistry metrics;
  run(small_plan({step("totals", "aggregate", {{"agg_func", "sum"}, {"metrics", {"Revenue"}}})}), {}, nullptr,
      &metrics);
  run(small_plan({step("totals", "aggregate", {{"agg_func", "sum"}, {"metrics", {"profit"}}})}), {}, nullptr,
      &metrics);

  EXPECT_EQ(metrics.counter("autoviz_plans_executed_total", {{"outcome", "repaired"}}).value(), 1.0);
  EXPECT_EQ(metrics.counter("autoviz_plans_executed_total", {{"outcome", "replan"}}).value(), 1.0);
  EXPECT_EQ(metrics.counter("autoviz_repairs_total", {{"kind", "column_casing"}}).value(), 1.0);
  EXPECT_EQ(metrics.counter("autoviz_replans_total", {{"change", "metric"}}).value(), 1.0);
  EXPECT_EQ(metrics.counter("autoviz_steps_total", {{"tool", "aggregate"}, {"status", "failed"}}).value(),
            1.0);
  EXPECT_EQ(metrics.counter("autoviz_steps_total", {{"tool", "load_dataset"}, {"status", "ok"}}).value(),
            2.0);
}

}  // namespace
}  // namespace planfirst::autoviz
