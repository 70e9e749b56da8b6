#include "pipelines/autoviz/planning/rule_plan_adapter.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "pipelines/autoviz/planning/capability_map.hpp"
#include "pipelines/autoviz/planning/coverage_checker.hpp"
#include "pipelines/autoviz/planning/tool_registry.hpp"
#include "pipelines/autoviz/tools/tool_library.hpp"

namespace planfirst::autoviz {
namespace {

using core::Json;

data::SchemaProfile sales_profile() {
  data::SchemaProfile profile;
  profile.table = "sales";
  auto column = [](std::string name, data::ColumnRole role) {
    data::ColumnProfile c;
    c.name = std::move(name);
    c.role = role;
    return c;
  };
  profile.columns = {column("date", data::ColumnRole::kTemporal),
                     column("region", data::ColumnRole::kCategorical),
                     column("product_category", data::ColumnRole::kCategorical),
                     column("revenue", data::ColumnRole::kMeasure)};
  profile.columns.back().type = data::ColumnType::kDouble;
  return profile;
}

Requirements requirements(const char* json) {
  auto parsed = Requirements::from_json(Json::parse(json));
  EXPECT_TRUE(parsed) << parsed.error().describe();
  return parsed ? *parsed : Requirements{};
}

std::vector<std::string> tools_of(const Plan& plan) {
  std::vector<std::string> tools;
  for (const PlanStep& step : plan.steps) tools.push_back(step.tool);
  return tools;
}

// The coverage check of `plan` against `r`, with the shipped tool registry and capability map.
CoverageReport coverage_of(const Requirements& r, const Plan& plan) {
  auto tools = ToolRegistry::load(core::AssetStore());
  auto map = CapabilityMap::load(core::AssetStore());
  EXPECT_TRUE(tools && map);
  return tools && map ? CoverageChecker(*map, *tools).check(r, plan) : CoverageReport{};
}

// The sales profile with one more measure column, `name`, of doubles.
data::SchemaProfile sales_profile_with_measure(const std::string& name) {
  data::SchemaProfile profile = sales_profile();
  data::ColumnProfile column;
  column.name = name;
  column.role = data::ColumnRole::kMeasure;
  column.type = data::ColumnType::kDouble;
  profile.columns.push_back(column);
  return profile;
}

// The rule plan for `question` over `profile`, every tool allowed.
core::Result<Plan> plan_over(std::string_view question, const Requirements& r,
                             const data::SchemaProfile& profile) {
  auto adapter = RulePlanAdapter::load(core::AssetStore());
  if (!adapter) return adapter.error();
  return adapter->plan(question, r, profile, {});
}

Plan plan_for(std::string_view question, const Requirements& r,
              const std::vector<std::string>& allowed = {}) {
  auto adapter = RulePlanAdapter::load(core::AssetStore());
  EXPECT_TRUE(adapter) << adapter.error().describe();
  auto plan = adapter->plan(question, r, sales_profile(), allowed);
  EXPECT_TRUE(plan) << plan.error().describe();
  return plan ? *plan : Plan{};
}

const char* kWalkthrough = R"({"metrics": ["revenue"], "group_by": ["region", "product_category"],
    "time": {"column": "date", "grain": "unknown"}, "analysis": ["total", "compare", "trend"],
    "outputs": ["chart", "table"], "constraints": []})";

TEST(RulePlanAdapter, TheSeedWalkthroughPlanIsCoveredStepByStep) {
  const Requirements r = requirements(kWalkthrough);

  const Plan plan = plan_for("get revenue totals by region and product type over time", r);

  EXPECT_EQ(tools_of(plan), (std::vector<std::string>{"parse_datetime", "time_bucket", "aggregate",
                                                      "plot_line", "save_table"}));
  const PlanStep* aggregate = plan.find("aggregate");
  ASSERT_NE(aggregate, nullptr);
  EXPECT_EQ(
      params_to_json(aggregate->params),
      Json::parse(
          R"({"agg_func": "sum", "group_by": ["date", "region", "product_category"], "metrics": ["revenue"]})"));
  const CoverageReport report = coverage_of(r, plan);
  EXPECT_TRUE(report.complete()) << report.describe();
}

// "month over month" was planned as monthly totals alone; the change from each month to the one
// before is what the question asks, and the chart draws it.
TEST(RulePlanAdapter, AChangePeriodOverPeriodComparesEachPeriodWithTheOneBefore) {
  const Requirements r = requirements(R"({"metrics": ["revenue"], "group_by": ["region"],
      "time": {"column": "date", "grain": "month"}, "analysis": ["compare"], "outputs": ["chart", "table"],
      "constraints": []})");

  const Plan plan = plan_for("how did revenue by region change month over month", r);

  EXPECT_EQ(tools_of(plan), (std::vector<std::string>{"parse_datetime", "time_bucket", "aggregate",
                                                      "compare_periods", "plot_line", "save_table"}));
  const PlanStep* compare = plan.find("compare_periods");
  ASSERT_NE(compare, nullptr);
  EXPECT_EQ(params_to_json(compare->params),
            Json::parse(
                R"({"date_column": "date", "metric": "revenue", "grain": "month", "group_by": ["region"]})"));
  EXPECT_EQ(params_to_json(plan.find("plot_line")->params),
            Json::parse(R"({"x": "date", "y": "change_pct", "color": "region"})"));
  const CoverageReport report = coverage_of(r, plan);
  EXPECT_TRUE(report.complete()) << report.describe();
  EXPECT_EQ(
      tools_of(plan_for("monthly revenue by region", r)),
      (std::vector<std::string>{"parse_datetime", "time_bucket", "aggregate", "plot_line", "save_table"}))
      << "no change asked";
}

TEST(RulePlanAdapter, AnAnomalyQuestionFlagsTheMetricAlongTimeAndIsCovered) {
  const Requirements r = requirements(R"({"metrics": ["revenue"], "group_by": [],
      "time": {"column": "date", "grain": "day"}, "analysis": ["anomaly"], "outputs": ["chart", "table"],
      "constraints": []})");

  const Plan plan = plan_for("are there any unusual spikes in daily revenue?", r);

  const PlanStep* anomalies = plan.find("detect_anomalies");
  ASSERT_NE(anomalies, nullptr) << plan.to_json();
  EXPECT_EQ(params_to_json(anomalies->params),
            Json::parse(R"({"column": "revenue", "date_column": "date"})"));
  EXPECT_EQ(anomalies->satisfies, std::vector<std::string>{"analysis:anomaly"});
  const CoverageReport report = coverage_of(r, plan);
  EXPECT_TRUE(report.complete()) << report.describe();
}

TEST(RulePlanAdapter, APieQuestionGetsAPieOfTheGroup) {
  const Requirements r = requirements(R"({"metrics": ["revenue"], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["share"], "outputs": ["chart"], "constraints": []})");

  const Plan plan = plan_for("share of revenue by region as a pie", r);

  EXPECT_EQ(tools_of(plan), (std::vector<std::string>{"aggregate", "plot_pie"}));
  EXPECT_EQ(params_to_json(plan.steps.back().params),
            Json::parse(R"({"category": "region", "value": "revenue"})"));
}

TEST(RulePlanAdapter, TopKSortsAndLimitsAfterAggregating) {
  const Requirements r = requirements(R"({"metrics": ["revenue"], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["ranking"], "outputs": ["table"],
      "constraints": [{"type": "sort", "column": "revenue", "direction": "desc"}, {"type": "limit", "n": 2}]})");

  const Plan plan = plan_for("top 2 regions by average revenue", r);

  EXPECT_EQ(tools_of(plan), (std::vector<std::string>{"aggregate", "sort_limit", "save_table"}));
  EXPECT_EQ(params_to_json(plan.steps[0].params)["agg_func"], "avg");
  EXPECT_EQ(params_to_json(plan.steps[1].params),
            Json::parse(R"({"by": "revenue", "direction": "desc", "limit": 2})"));
}

TEST(RulePlanAdapter, AFilterOnEachGroupsAggregateKeepsGroupsAfterTheAggregation) {
  const Requirements counted = requirements(R"j({"metrics": [], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": ["table"],
      "constraints": [{"type": "filter", "column": "count(*)", "op": ">", "value": 2}]})j");
  const Requirements averaged = requirements(R"j({"metrics": ["revenue"], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": ["table"],
      "constraints": [{"type": "filter", "column": "avg(revenue)", "op": ">=", "value": 100}]})j");

  const Plan count = plan_for("regions with more than 2 sales", counted);
  const Plan average = plan_for("regions with an average revenue of at least 100", averaged);

  EXPECT_EQ(tools_of(count), (std::vector<std::string>{"aggregate", "filter_rows", "save_table"}));
  EXPECT_EQ(params_to_json(count.steps[1].params),
            Json::parse(R"({"column": "count", "op": ">", "value": 2})"));
  EXPECT_EQ(tools_of(average), (std::vector<std::string>{"aggregate", "filter_rows", "save_table"}));
  EXPECT_EQ(params_to_json(average.steps[0].params)["agg_func"], "avg");
  EXPECT_EQ(params_to_json(average.steps[1].params),
            Json::parse(R"({"column": "revenue", "op": ">=", "value": 100})"));
  for (const auto& [r, plan] : {std::pair{counted, count}, std::pair{averaged, average}}) {
    const CoverageReport report = coverage_of(r, plan);
    EXPECT_TRUE(report.complete()) << report.describe();
  }
}

TEST(RulePlanAdapter, AFilterOnAnotherAggregateThanThePlansIsRefusedByName) {
  const Requirements r = requirements(R"j({"metrics": ["revenue"], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["total"], "outputs": ["table"],
      "constraints": [{"type": "filter", "column": "count(*)", "op": ">", "value": 2}]})j");

  const core::Result<Plan> plan =
      plan_over("total revenue per region for regions with more than 2 sales", r, sales_profile());

  ASSERT_FALSE(plan.has_value()) << "the count threshold is not dropped";
  EXPECT_EQ(plan.error().where, "constraints");
  EXPECT_NE(plan.error().message.find("count(*)"), std::string::npos) << plan.error().message;
  EXPECT_NE(plan.error().message.find("the sum of revenue"), std::string::npos) << plan.error().message;
}

TEST(RulePlanAdapter, ASuperlativeThatRanksKeysOrRowsTakesNoMaximum) {
  const Requirements keys = requirements(R"({"metrics": ["region", "revenue"], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["ranking"], "outputs": ["table"],
      "constraints": [{"type": "sort", "column": "revenue", "direction": "desc"}]})");
  data::SchemaProfile profile = sales_profile();
  profile.row_count = 100;
  profile.columns[1].distinct_count = 4;  // region repeats
  auto ranked = plan_over("which region has the highest revenue", keys, profile);
  ASSERT_TRUE(ranked) << ranked.error().describe();
  ASSERT_EQ(tools_of(*ranked), (std::vector<std::string>{"aggregate", "sort_limit", "save_table"}));
  EXPECT_EQ(params_to_json(ranked->steps[0].params),
            Json::parse(R"({"agg_func": "sum", "group_by": ["region"], "metrics": ["revenue"]})"))
      << "each region's total ranks it, not its largest row";

  const Requirements rows = requirements(R"({"metrics": ["revenue"], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["ranking"], "outputs": ["table"],
      "constraints": [{"type": "sort", "column": "revenue", "direction": "desc"}, {"type": "limit", "n": 10}]})");
  const Plan top = plan_for("the 10 largest rows by revenue", rows);
  ASSERT_EQ(tools_of(top), (std::vector<std::string>{"sort_limit", "save_table"})) << "the rows themselves";
  EXPECT_EQ(params_to_json(top.steps[0].params),
            Json::parse(R"({"by": "revenue", "direction": "desc", "limit": 10})"));

  const Requirements one = requirements(R"({"metrics": ["revenue"], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["ranking"], "outputs": ["table"], "constraints": []})");
  EXPECT_EQ(params_to_json(plan_for("the largest revenue", one).steps[0].params)["agg_func"], "max")
      << "nothing sorted: one maximum";

  const Requirements each = requirements(R"({"metrics": ["revenue"], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": ["table"], "constraints": []})");
  EXPECT_EQ(params_to_json(plan_for("the highest revenue for each region", each).steps[0].params)["agg_func"],
            "max");
}

TEST(RulePlanAdapter, HowManyDifferentValuesCountsEachOnce) {
  const Requirements r = requirements(R"({"metrics": ["product_category"], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["total"], "outputs": ["table"], "constraints": []})");
  for (const char* question : {"how many different product categories in each region",
                               "the number of unique product categories in each region"}) {
    const Plan plan = plan_for(question, r);
    ASSERT_FALSE(plan.steps.empty()) << question;
    EXPECT_EQ(
        params_to_json(plan.steps[0].params),
        Json::parse(
            R"({"agg_func": "count_distinct", "group_by": ["region"], "metrics": ["product_category"]})"))
        << question;
  }
}

TEST(RulePlanAdapter, AStandardDeviationIsTheStddevAggregation) {
  const Requirements r = requirements(R"({"metrics": ["revenue"], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": ["table"], "constraints": []})");

  EXPECT_EQ(
      params_to_json(plan_for("the standard deviation of revenue per region", r).steps[0].params)["agg_func"],
      "stddev");
}

TEST(RulePlanAdapter, AShareAskedForATableComputesEachPartsPercent) {
  const Requirements keyed = requirements(R"({"metrics": ["revenue"], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["share"], "outputs": ["chart", "table"], "constraints": []})");
  const Plan each = plan_for("what share of revenue does each region account for", keyed);
  EXPECT_EQ(tools_of(each),
            (std::vector<std::string>{"aggregate", "compute_share", "plot_pie", "save_table"}));
  EXPECT_EQ(params_to_json(each.steps[1].params),
            Json::parse(R"({"metric": "revenue", "group_by": ["region"]})"));
  EXPECT_TRUE(coverage_of(keyed, each).complete());

  const Requirements part = requirements(R"({"metrics": ["revenue"], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["share"], "outputs": ["table"],
      "constraints": [{"type": "filter", "column": "region", "op": "=", "value": "West"}]})");
  const Plan west = plan_for("what percentage of revenue comes from the West region", part);
  ASSERT_EQ(tools_of(west),
            (std::vector<std::string>{"aggregate", "compute_share", "filter_rows", "save_table"}))
      << "the share of every region, then the West's";
  EXPECT_EQ(params_to_json(west.steps[0].params),
            Json::parse(R"({"agg_func": "sum", "group_by": ["region"], "metrics": ["revenue"]})"));
  EXPECT_EQ(params_to_json(west.steps[2].params),
            Json::parse(R"({"column": "region", "op": "=", "value": "West"})"));
  EXPECT_TRUE(coverage_of(part, west).complete()) << coverage_of(part, west).retry_payload();

  const Requirements rows = requirements(R"({"metrics": [], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["share"], "outputs": ["table"],
      "constraints": [{"type": "filter", "column": "region", "op": "=", "value": "West"}]})");
  const Plan counted = plan_for("what percentage of sales are in the West", rows);
  ASSERT_FALSE(counted.steps.empty());
  EXPECT_EQ(params_to_json(counted.steps[1].params),
            Json::parse(R"({"metric": "count", "group_by": ["region"]})"));
  EXPECT_TRUE(coverage_of(rows, counted).complete()) << coverage_of(rows, counted).retry_payload();
}

TEST(RulePlanAdapter, ATableOfListedColumnsSavesThemAndCoversThem) {
  const Requirements r = requirements(R"({"metrics": ["revenue", "date"], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": ["table"],
      "constraints": [{"type": "sort", "column": "revenue", "direction": "desc"}]})");

  const Plan plan = plan_for("list the revenue and date of each sale in descending order of revenue", r);

  EXPECT_EQ(tools_of(plan), (std::vector<std::string>{"sort_limit", "save_table"}));
  EXPECT_EQ(params_to_json(plan.steps.back().params),
            Json::parse(R"({"name": "result", "columns": ["revenue", "date"]})"));
  const CoverageReport report = coverage_of(r, plan);
  EXPECT_TRUE(report.complete()) << report.describe();
}

TEST(RulePlanAdapter, HowManyBeforeAUnitSumsTheMeasure) {
  const Requirements r = requirements(R"({"metrics": ["revenue"], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": ["chart"], "constraints": []})");
  const Requirements rows = requirements(R"({"metrics": [], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": ["chart"], "constraints": []})");

  const Plan amount = plan_for("how many dollars of revenue did each region make", r);
  const Plan average = plan_for("on average, how many dollars of revenue did each region make", r);
  const Plan count = plan_for("how many sales did each region make", rows);

  EXPECT_EQ(params_to_json(amount.steps.front().params)["agg_func"], "sum") << amount.to_json();
  EXPECT_EQ(params_to_json(average.steps.front().params)["agg_func"], "avg") << "an average asked for wins";
  EXPECT_EQ(
      params_to_json(
          plan_for("how many units of revenue did each region make", r).steps.front().params)["agg_func"],
      "sum");
  EXPECT_EQ(params_to_json(count.steps.front().params)["agg_func"], "count") << count.to_json();
}

TEST(RulePlanAdapter, OneMeasureAgainstAnotherWithoutAChartTypeIsAScatter) {
  const data::SchemaProfile profile = sales_profile_with_measure("units");
  const Requirements r = requirements(R"({"metrics": ["revenue", "units"], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": ["chart"], "constraints": []})");

  auto unnamed = plan_over("what are the revenue and units of the orders?", r, profile);
  auto named = plan_over("show the revenue and units of the orders in a bar chart", r, profile);

  ASSERT_TRUE(unnamed && named);
  EXPECT_EQ(tools_of(*unnamed), std::vector<std::string>{"plot_scatter"});
  EXPECT_EQ(params_to_json(unnamed->steps.front().params), Json::parse(R"({"x": "revenue", "y": "units"})"));
  EXPECT_EQ(tools_of(*named), std::vector<std::string>{"plot_bar"}) << "a chart type asked for wins";
}

TEST(RulePlanAdapter, AnAverageOfNoColumnIsRefusedNamingTheMeasures) {
  const Requirements r = requirements(R"({"metrics": [], "group_by": [],
      "time": {"column": "date", "grain": "month"}, "analysis": [], "outputs": ["chart"], "constraints": []})");
  auto adapter = RulePlanAdapter::load(core::AssetStore());
  ASSERT_TRUE(adapter) << adapter.error().describe();

  auto average = adapter->plan("average order value per month", r, sales_profile(), {});
  auto count = adapter->plan("number of orders per month", r, sales_profile(), {});

  ASSERT_FALSE(average) << average->to_json();
  EXPECT_EQ(average.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(average.error().where, "metrics");
  EXPECT_NE(average.error().message.find("the average but names no column"), std::string::npos)
      << average.error().message;
  EXPECT_NE(average.error().message.find("measures: revenue"), std::string::npos) << average.error().message;
  auto counted =
      adapter->plan("the days with an average order value over 30, count them", r, sales_profile(), {});
  ASSERT_TRUE(counted) << "a count asked for is no average of nothing: " << counted.error().describe();
  EXPECT_EQ(params_to_json(counted->find("aggregate")->params)["agg_func"], "count");
  ASSERT_TRUE(count) << count.error().describe();
  const PlanStep* aggregate = count->find("aggregate");
  ASSERT_NE(aggregate, nullptr) << count->to_json();
  EXPECT_EQ(params_to_json(aggregate->params)["agg_func"], "count");
}

TEST(RulePlanAdapter, RowsCountedWithNoKeyAreAggregatedIntoOneCount) {
  const Requirements r = requirements(R"({"metrics": [], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["total"], "outputs": ["table"],
      "constraints": [{"type": "filter", "column": "region", "op": "=", "value": "West"}]})");

  const Plan plan = plan_for("how many orders were placed in the West region?", r);

  EXPECT_EQ(tools_of(plan), (std::vector<std::string>{"filter_rows", "aggregate", "save_table"}));
  EXPECT_EQ(params_to_json(plan.steps[1].params),
            Json::parse(R"({"agg_func": "count", "group_by": [], "metrics": ["*"]})"));
}

TEST(RulePlanAdapter, AColumnNamedForAnAggregationIsAggregatedSoPerGroup) {
  const data::SchemaProfile profile = sales_profile_with_measure("max_price");
  const Requirements r = requirements(R"({"metrics": ["max_price"], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": ["chart"], "constraints": []})");

  auto named = plan_over("the max price by region", r, profile);
  auto asked = plan_over("the average max price by region", r, profile);

  ASSERT_TRUE(named && asked);
  EXPECT_EQ(params_to_json(named->steps.front().params)["agg_func"], "max");
  EXPECT_EQ(params_to_json(asked->steps.front().params)["agg_func"], "avg")
      << "an aggregation asked for wins";
}

TEST(RulePlanAdapter, AListedCategoryThatRepeatsIsGroupedAndItsMeasureTotalled) {
  data::SchemaProfile profile = sales_profile();
  profile.row_count = 100;
  profile.columns[1].distinct_count = 4;  // region
  const Requirements r = requirements(R"({"metrics": ["region", "revenue"], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": ["table"],
      "constraints": [{"type": "sort", "column": "revenue", "direction": "asc"}]})");

  auto repeated = plan_over("list the regions sorted by revenue", r, profile);
  profile.columns[1].distinct_count = 100;  // one row each: a row label
  auto labels = plan_over("list the regions sorted by revenue", r, profile);

  ASSERT_TRUE(repeated && labels);
  EXPECT_EQ(tools_of(*repeated), (std::vector<std::string>{"aggregate", "sort_limit", "save_table"}));
  EXPECT_EQ(params_to_json(repeated->steps.front().params),
            Json::parse(R"({"agg_func": "sum", "group_by": ["region"], "metrics": ["revenue"]})"));
  EXPECT_EQ(tools_of(*labels), (std::vector<std::string>{"sort_limit", "save_table"}));
}

TEST(RulePlanAdapter, EveryStepUsesOnlyParamsItsToolTakes) {
  for (const char* question :
       {"get revenue totals by region and product type over time", "revenue by region as a pie"}) {
    const Plan plan = plan_for(question, requirements(kWalkthrough));
    for (const PlanStep& step : plan.steps) {
      const auto* taken = ToolLibrary::builtin().params(step.tool);
      ASSERT_NE(taken, nullptr) << step.tool;
      for (const auto& [name, value] : step.params) {
        EXPECT_NE(std::find(taken->begin(), taken->end(), name), taken->end()) << step.tool << "." << name;
      }
    }
  }
}

TEST(RulePlanAdapter, AScatterOfTwoMeasuresSplitsItsPointsByTheGroup) {
  const Requirements r = requirements(R"({"metrics": ["revenue", "units"], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["correlation"], "outputs": ["chart"], "constraints": []})");

  const Plan plan = plan_for("correlation between revenue and units, and group by attribute region", r);

  EXPECT_EQ(tools_of(plan), (std::vector<std::string>{"plot_scatter", "compute_correlations"}));
  EXPECT_EQ(params_to_json(plan.steps[0].params),
            Json::parse(R"({"x": "revenue", "y": "units", "color": "region"})"));
  EXPECT_EQ(params_to_json(plan.steps[1].params),
            Json::parse(R"({"columns": ["revenue", "units"], "method": "both"})"))
      << "the coefficients with their n, beside the scatter";
  const CoverageReport report = coverage_of(r, plan);
  EXPECT_TRUE(report.complete()) << report.describe();
}

TEST(RulePlanAdapter, AScatterOfALabelAndTwoNumbersColorsByTheLabel) {
  data::SchemaProfile profile = sales_profile();
  profile.columns.push_back(profile.columns.back());
  profile.columns.back().name = "units";
  const Requirements r = requirements(R"({"metrics": ["region", "revenue", "units"], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["correlation"], "outputs": ["chart"], "constraints": []})");
  auto adapter = RulePlanAdapter::load(core::AssetStore());
  ASSERT_TRUE(adapter) << adapter.error().describe();

  auto plan = adapter->plan("show the region, revenue and units in a scatter plot", r, profile, {});

  ASSERT_TRUE(plan) << plan.error().describe();
  EXPECT_EQ(tools_of(*plan), (std::vector<std::string>{"plot_scatter", "compute_correlations"}));
  EXPECT_EQ(params_to_json(plan->steps[1].params),
            Json::parse(R"({"columns": ["revenue", "units"], "method": "both"})"))
      << "no correlations of the label";
  EXPECT_EQ(params_to_json(plan->steps[0].params),
            Json::parse(R"({"x": "revenue", "y": "units", "color": "region"})"));
  EXPECT_TRUE(coverage_of(r, *plan).complete()) << coverage_of(r, *plan).describe();

  const Requirements filtered = requirements(R"({"metrics": ["revenue", "units", "region"], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["correlation"], "outputs": ["chart"],
      "constraints": [{"type": "filter", "column": "region", "op": "!=", "value": "West"}]})");
  auto kept = adapter->plan("revenue and units of the region not in the region West, as a scatter", filtered,
                            profile, {});
  ASSERT_TRUE(kept) << kept.error().describe();
  EXPECT_EQ(tools_of(*kept),
            (std::vector<std::string>{"filter_rows", "plot_scatter", "compute_correlations"}));
  EXPECT_EQ(params_to_json(kept->steps[1].params), Json::parse(R"({"x": "revenue", "y": "units"})"))
      << "a label that filters rows splits no series";
}

TEST(RulePlanAdapter, AListedPairIsDrawnAsItIsOrPerItsAxisWhenAggregated) {
  const Requirements r = requirements(R"({"metrics": ["region", "revenue"], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": ["chart"], "constraints": []})");

  const Plan raw = plan_for("region and revenue of the orders", r);
  const Plan averaged = plan_for("region and average revenue of the orders", r);

  EXPECT_EQ(tools_of(raw), (std::vector<std::string>{"plot_bar"}));
  EXPECT_EQ(params_to_json(raw.steps[0].params), Json::parse(R"({"x": "region", "y": "revenue"})"));
  EXPECT_TRUE(coverage_of(r, raw).complete()) << coverage_of(r, raw).describe();
  EXPECT_EQ(tools_of(averaged), (std::vector<std::string>{"aggregate", "plot_bar"}));
  EXPECT_EQ(params_to_json(averaged.steps[0].params),
            Json::parse(R"({"agg_func": "avg", "group_by": ["region"], "metrics": ["revenue"]})"));
}

TEST(RulePlanAdapter, AnAggregatedPairIsPerItsLabelWhicheverComesFirst) {
  const Requirements number_first = requirements(R"({"metrics": ["revenue", "region"], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": ["chart"], "constraints": []})");
  const Requirements labels = requirements(R"({"metrics": ["region", "product_category"], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": ["chart"], "constraints": []})");

  const Plan averaged = plan_for("the average of revenue from different region", number_first);
  const Plan summed = plan_for("the total of region and product category", labels);

  EXPECT_EQ(params_to_json(averaged.steps[0].params),
            Json::parse(R"({"agg_func": "avg", "group_by": ["region"], "metrics": ["revenue"]})"));
  EXPECT_EQ(params_to_json(summed.steps[0].params),
            Json::parse(R"({"agg_func": "count", "group_by": ["region"], "metrics": ["product_category"]})"))
      << "labels cannot be summed: they are counted";
}

TEST(RulePlanAdapter, WithoutAChartTypeANumberKeyIsAScatterAndAYearKeyALine) {
  data::SchemaProfile profile = sales_profile();
  data::ColumnProfile units = profile.columns.back();
  units.name = "units";
  units.type = data::ColumnType::kInteger;
  data::ColumnProfile year = units;
  year.name = "year";
  year.role = data::ColumnRole::kTemporal;
  profile.columns.push_back(units);
  profile.columns.push_back(year);
  auto adapter = RulePlanAdapter::load(core::AssetStore());
  ASSERT_TRUE(adapter) << adapter.error().describe();
  const auto chart_of = [&](const char* question, const char* json) {
    auto plan = adapter->plan(question, requirements(json), profile, {});
    EXPECT_TRUE(plan) << plan.error().describe();
    return plan && !plan->steps.empty() ? plan->steps.back().tool : std::string();
  };

  EXPECT_EQ(chart_of("how many orders for each units", R"({"metrics": [], "group_by": ["units"],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["total"], "outputs": ["chart"], "constraints": []})"),
            "plot_scatter");
  EXPECT_EQ(chart_of("the maximum revenue in each year", R"({"metrics": ["revenue"], "group_by": ["year"],
      "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": ["chart"], "constraints": []})"),
            "plot_line");
  EXPECT_EQ(chart_of("the maximum revenue in each year, highest first",
                     R"({"metrics": ["revenue"], "group_by": ["year"],
      "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": ["chart"],
      "constraints": [{"type": "sort", "column": "revenue", "direction": "desc"}]})"),
            "plot_bar")
      << "a line ordered by its values zigzags";
  EXPECT_EQ(chart_of("the maximum revenue per region", R"({"metrics": ["revenue"], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": ["chart"], "constraints": []})"),
            "plot_bar");
}

TEST(RulePlanAdapter, ATrendWithoutATimeColumnIsALine) {
  const Requirements r = requirements(R"({"metrics": ["revenue"], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["trend"], "outputs": ["chart"], "constraints": []})");

  EXPECT_EQ(tools_of(plan_for("the trend of revenue per region", r)),
            (std::vector<std::string>{"aggregate", "plot_line"}));
}

TEST(RulePlanAdapter, AShareWithoutAChartIsAPieAndAHistogramOfGroupsIsABar) {
  const Requirements share = requirements(R"({"metrics": ["revenue"], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["share"], "outputs": ["chart"], "constraints": []})");
  const Requirements grouped = requirements(R"({"metrics": ["revenue"], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": ["chart"], "constraints": []})");

  EXPECT_EQ(tools_of(plan_for("the proportion of revenue for each region", share)),
            (std::vector<std::string>{"aggregate", "plot_pie"}));
  EXPECT_EQ(tools_of(plan_for("maximal revenue by region in a histogram", grouped)),
            (std::vector<std::string>{"aggregate", "plot_bar"}));
  EXPECT_EQ(params_to_json(
                plan_for("maximal revenue by region in a histogram", grouped).steps[0].params)["agg_func"],
            "max");
}

TEST(RulePlanAdapter, TheTotalNumberOfAMetricSumsIt) {
  const Requirements r = requirements(R"({"metrics": ["revenue"], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["total"], "outputs": ["chart"], "constraints": []})");

  EXPECT_EQ(params_to_json(plan_for("the total number of revenue per region", r).steps[0].params)["agg_func"],
            "sum");
  EXPECT_EQ(params_to_json(plan_for("the number of orders per region", r).steps[0].params)["agg_func"],
            "count");
  EXPECT_EQ(
      params_to_json(
          plan_for("revenue per region for regions with at least 2 orders", r).steps[0].params)["agg_func"],
      "sum")
      << "\"at least\" compares; it asks for no minimum";
}

TEST(RulePlanAdapter, TheNumberOfACountingMeasureSumsIt) {
  const data::SchemaProfile profile = sales_profile_with_measure("number_deaths");
  const Requirements r = requirements(R"({"metrics": ["number_deaths"], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["total"], "outputs": ["table"], "constraints": []})");
  for (const char* question : {"how many deaths in each region", "the number of deaths per region"}) {
    auto plan = plan_over(question, r, profile);
    ASSERT_TRUE(plan) << plan.error().describe();
    EXPECT_EQ(params_to_json(plan->steps[0].params)["agg_func"], "sum") << question;
  }
  const data::SchemaProfile sections = sales_profile_with_measure("class_section");
  const Requirements per_course = requirements(R"({"metrics": ["class_section"], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["total"], "outputs": ["table"], "constraints": []})");
  auto counted = plan_over("how many sections does each region have", per_course, sections);
  ASSERT_TRUE(counted) << counted.error().describe();
  EXPECT_EQ(params_to_json(counted->steps[0].params)["agg_func"], "count") << "a column that holds no counts";
}

TEST(RulePlanAdapter, OldestAndYoungestAreTheLargestAndSmallestAge) {
  const Requirements r = requirements(R"({"metrics": ["revenue"], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": ["chart"], "constraints": []})");

  EXPECT_EQ(params_to_json(plan_for("the oldest revenue for each region", r).steps[0].params)["agg_func"],
            "max");
  EXPECT_EQ(params_to_json(plan_for("the youngest revenue for each region", r).steps[0].params)["agg_func"],
            "min");
}

TEST(RulePlanAdapter, CountingTheKeyItselfCountsRowsPerKey) {
  const Requirements r = requirements(R"({"metrics": ["region"], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["total"], "outputs": ["chart"], "constraints": []})");

  const Json aggregate = params_to_json(plan_for("the number of regions by region", r).steps[0].params);

  EXPECT_EQ(aggregate["agg_func"], "count");
  EXPECT_EQ(aggregate["metrics"], Json::parse(R"(["*"])"));
  EXPECT_EQ(aggregate["group_by"], Json::parse(R"(["region"])"));
}

TEST(RulePlanAdapter, ACorrelationOfANumericKeyAndItsCountIsAScatter) {
  const Requirements r = requirements(R"({"metrics": [], "group_by": ["revenue"],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["total", "correlation"], "outputs": ["chart"], "constraints": []})");

  const Plan plan =
      plan_for("show the revenue and the number of orders for each revenue. show the correlation", r);

  EXPECT_EQ(tools_of(plan), (std::vector<std::string>{"aggregate", "plot_scatter"}));
  EXPECT_EQ(params_to_json(plan.steps[1].params), Json::parse(R"({"x": "revenue", "y": "count"})"));
}

TEST(RulePlanAdapter, WeekdaysWithoutAChartTypeAreBarsAndMonthsALine) {
  const Requirements r = requirements(R"({"metrics": [], "group_by": [],
      "time": {"column": "date", "grain": "unknown"}, "analysis": ["total"], "outputs": ["chart"], "constraints": []})");

  EXPECT_EQ(tools_of(plan_for("how many orders by date, binned into weekday interval", r)).back(),
            "plot_bar");
  EXPECT_EQ(tools_of(plan_for("how many orders by date, binned by month of year", r)).back(), "plot_bar");
  EXPECT_EQ(tools_of(plan_for("how many orders per month", r)).back(), "plot_line");
}

TEST(RulePlanAdapter, TheDistributionOfANumberIsAHistogram) {
  const Requirements r = requirements(R"({"metrics": ["revenue"], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["distribution"], "outputs": ["chart"], "constraints": []})");

  const Plan plan = plan_for("show the distribution of revenue", r);

  EXPECT_EQ(tools_of(plan), (std::vector<std::string>{"plot_histogram"}));
  EXPECT_EQ(params_to_json(plan.steps[0].params), Json::parse(R"({"column": "revenue"})"));
}

TEST(RulePlanAdapter, AHistogramOfALabelAndANumberIsABarOfTheNumberAndItsSpread) {
  const Requirements r = requirements(R"({"metrics": ["region", "revenue"], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["distribution"], "outputs": ["chart"], "constraints": []})");

  const Plan plan = plan_for("a histogram of the region and revenue of the orders", r);

  EXPECT_EQ(tools_of(plan), (std::vector<std::string>{"plot_bar", "compute_distributions"}));
  EXPECT_EQ(params_to_json(plan.steps[0].params), Json::parse(R"({"x": "region", "y": "revenue"})"));
  EXPECT_EQ(params_to_json(plan.steps[1].params), Json::parse(R"({"columns": ["revenue"]})"))
      << "bins are of the number, not of the labels";
  EXPECT_TRUE(coverage_of(r, plan).complete()) << coverage_of(r, plan).describe();
}

TEST(RulePlanAdapter, TheSpreadOfLabelsAloneIsHowOftenEachOccurs) {
  const Requirements r = requirements(R"({"metrics": ["region"], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["distribution"], "outputs": ["table"], "constraints": []})");

  const Plan plan = plan_for("a table of the distribution of the regions", r);

  EXPECT_EQ(tools_of(plan), (std::vector<std::string>{"save_table", "compute_value_counts"}));
  EXPECT_EQ(params_to_json(plan.steps[1].params), Json::parse(R"({"column": "region"})"));
  EXPECT_TRUE(coverage_of(r, plan).complete()) << coverage_of(r, plan).describe();
}

TEST(RulePlanAdapter, AComparisonOfAListedPairAggregatesPerItsAxis) {
  const Requirements r = requirements(R"({"metrics": ["region", "revenue"], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["compare"], "outputs": ["chart"], "constraints": []})");

  const Plan plan = plan_for("compare the revenue of each region", r);

  EXPECT_EQ(tools_of(plan), (std::vector<std::string>{"aggregate", "plot_bar"}));
  EXPECT_EQ(params_to_json(plan.steps[0].params),
            Json::parse(R"({"agg_func": "sum", "group_by": ["region"], "metrics": ["revenue"]})"));
  EXPECT_TRUE(coverage_of(r, plan).complete()) << "seed §6: a comparison is covered by an aggregate";
}

TEST(RulePlanAdapter, TwoMetricsPerKeyAreBarsSideBySide) {
  const Requirements r = requirements(R"({"metrics": ["revenue", "units"], "group_by": ["region"],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["compare"], "outputs": ["chart"], "constraints": []})");

  const Plan plan = plan_for("compare revenue and units by region", r);

  EXPECT_EQ(tools_of(plan), (std::vector<std::string>{"aggregate", "plot_bar"}));
  EXPECT_EQ(params_to_json(plan.steps[1].params),
            Json::parse(R"({"x": "region", "y": "revenue", "also": ["units"]})"));
}

TEST(RulePlanAdapter, AToolTheNarrowingLeftOutIsNamed) {
  auto adapter = RulePlanAdapter::load(core::AssetStore());
  ASSERT_TRUE(adapter);

  auto plan =
      adapter->plan("get revenue totals by region and product type over time", requirements(kWalkthrough),
                    sales_profile(), {"parse_datetime", "aggregate", "plot_line", "save_table"});

  ASSERT_FALSE(plan);
  EXPECT_EQ(plan.error().code, core::ErrorCode::kFailedPrecondition);
  EXPECT_EQ(plan.error().where, "time_bucket");
}

// Products whose names repeat ("red jeans" twice), with a price each.
data::SchemaProfile products_profile() {
  data::SchemaProfile profile;
  profile.table = "products";
  profile.row_count = 16;
  data::ColumnProfile name;
  name.name = "product_name";
  name.role = data::ColumnRole::kCategorical;
  name.type = data::ColumnType::kText;
  name.distinct_count = 15;
  data::ColumnProfile price;
  price.name = "product_price";
  price.role = data::ColumnRole::kMeasure;
  price.type = data::ColumnType::kDouble;
  price.distinct_count = 16;
  profile.columns = {name, price};
  return profile;
}

TEST(RulePlanAdapter, TheMostExpensiveRowIsRankedAsItIsWhileAListSortedByAnAmountTotalsEachName) {
  const Requirements ranked = requirements(R"({"metrics": ["product_name", "product_price"], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["ranking"], "outputs": ["table"],
      "constraints": [{"type": "sort", "column": "product_price", "direction": "desc"}, {"type": "limit", "n": 1}]})");
  auto expensive = plan_over("What is the most expensive product?", ranked, products_profile());
  ASSERT_TRUE(expensive) << expensive.error().describe();
  EXPECT_EQ(tools_of(*expensive), (std::vector<std::string>{"sort_limit", "save_table"}))
      << "one row, its own price";

  auto listed = plan_over("list the products sorted by price", ranked, products_profile());
  ASSERT_TRUE(listed) << listed.error().describe();
  ASSERT_EQ(tools_of(*listed).front(), "aggregate") << "each name's total";
  EXPECT_EQ(params_to_json(listed->steps[0].params)["group_by"], Json::array({"product_name"}));
}

TEST(RulePlanAdapter, ADirectionFromHighestToLowestTakesNoMaximum) {
  const Requirements sorted = requirements(R"({"metrics": ["revenue"], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": ["table"],
      "constraints": [{"type": "sort", "column": "revenue", "direction": "desc"}]})");
  const Plan plan = plan_for("list the rows sorted by revenue from highest to lowest", sorted);
  EXPECT_EQ(tools_of(plan), (std::vector<std::string>{"sort_limit", "save_table"}));
  EXPECT_EQ(
      params_to_json(plan_for("the lowest revenue", requirements(R"({"metrics": ["revenue"], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": ["table"], "constraints": []})"))
                         .steps[0]
                         .params)["agg_func"],
      "min");
}

}  // namespace
}  // namespace planfirst::autoviz
