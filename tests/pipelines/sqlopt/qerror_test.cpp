#include "pipelines/sqlopt/qerror.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "pipelines/sqlopt/plan_reader.hpp"

namespace planfirst::sqlopt {
namespace {

struct Knowledge {
  OperatorCatalog catalog = *OperatorCatalog::load(core::AssetStore());
  QErrorRouting routing = *QErrorRouting::load(core::AssetStore());
};

TEST(QError, FollowsTheSeedRules) {
  EXPECT_EQ(qerror_of(0, 0).q, 1);
  EXPECT_EQ(qerror_of(0, 0).direction, "ACCURATE");
  EXPECT_EQ(qerror_of(0, 40).q, 40);
  EXPECT_EQ(qerror_of(0, 40).direction, "ZERO");
  EXPECT_EQ(qerror_of(25, 0).q, 25);
  EXPECT_EQ(qerror_of(25, 0).direction, "OVER");
  EXPECT_EQ(qerror_of(10, 1000).q, 100);
  EXPECT_EQ(qerror_of(10, 1000).direction, "UNDER");
  EXPECT_EQ(qerror_of(1000, 10).direction, "OVER");
  EXPECT_EQ(qerror_of(100, 149).direction, "ACCURATE");
  EXPECT_EQ(qerror_of(100, 150).direction, "UNDER");
}

TEST(QError, GivesNoSignalForDelimScansSentinelsAndMissingEstimates) {
  const Knowledge k;
  const PlanTree plan = *read_plan(core::Json::parse(R"({"children": [{"operator_type": "HASH_JOIN",
    "operator_cardinality": 10, "extra_info": {"Estimated Cardinality": "18446744073709551615"}, "children": [
      {"operator_type": "DELIM_SCAN", "operator_cardinality": 0, "extra_info": {"Estimated Cardinality": "11"}},
      {"operator_type": "TABLE_SCAN", "operator_cardinality": 5000, "extra_info": {"Table": "t"}}]}]})"));

  const QErrorReport report = analyze_qerror(plan, k.catalog, k.routing);

  ASSERT_EQ(report.operators.size(), 3u);
  EXPECT_EQ(report.operators[0].no_signal, "sentinel estimate");
  EXPECT_EQ(report.operators[1].no_signal, "reports no actual rows by design");
  EXPECT_EQ(report.operators[2].no_signal, "no estimate");
  EXPECT_FALSE(report.worst.has_value());
  EXPECT_EQ(report.flags, std::vector<std::string>{"DELIM_SCAN"});
}

TEST(QError, RoutesTheWorstMisestimateByDirectionAndLocus) {
  const Knowledge k;
  const PlanTree plan = *read_plan(core::Json::parse(R"([{"Plan": {"Node Type": "Hash Join",
    "Plan Rows": 10, "Actual Rows": 5000, "Actual Loops": 1, "Plans": [
    {"Node Type": "Seq Scan", "Relation Name": "orders", "Plan Rows": 1000, "Actual Rows": 900, "Actual Loops": 1},
    {"Node Type": "Seq Scan", "Relation Name": "orders", "Plan Rows": 0, "Actual Rows": 7, "Actual Loops": 1}]}}])"));

  const QErrorReport report = analyze_qerror(plan, k.catalog, k.routing);

  ASSERT_TRUE(report.worst.has_value());
  EXPECT_EQ(*report.worst, 0);
  EXPECT_EQ(report.operators[0].direction, "UNDER");
  EXPECT_EQ(report.operators[0].locus, "JOIN");
  ASSERT_FALSE(report.routes.empty());
  EXPECT_EQ(report.routes[0].direction, "UNDER");
  EXPECT_EQ(report.routes[0].locus, "JOIN");
  EXPECT_EQ(report.routes[0].operator_id, 0);
  ASSERT_EQ(report.routes.size(), 2u);  // then ZERO at SCAN, from the second scan
  EXPECT_EQ(report.routes[1].direction, "ZERO");
  EXPECT_EQ(report.routes[1].operator_id, 2);
  EXPECT_EQ(report.flags, (std::vector<std::string>{"EST_ZERO", "REPEATED_TABLE_SCAN"}));
}

TEST(QError, FlagsRepeatedScansFromTheCatalogsCount) {
  const Knowledge k;
  const core::Result<OperatorCatalog> three = OperatorCatalog::from_json(core::Json::parse(
      R"({"duckdb": {"loci": {}}, "postgresql": {"loci": {"Seq Scan": "SCAN"}, "repeated_scan_min": 3}})"));
  ASSERT_TRUE(three.has_value()) << three.error().describe();
  const PlanTree plan = *read_plan(core::Json::parse(R"([{"Plan": {"Node Type": "Seq Scan",
    "Relation Name": "orders", "Plan Rows": 1, "Actual Rows": 1, "Plans": [{"Node Type": "Seq Scan",
    "Relation Name": "orders", "Alias": "r", "Plan Rows": 1, "Actual Rows": 1}]}}])"));

  EXPECT_EQ(analyze_qerror(plan, k.catalog, k.routing).flags,
            std::vector<std::string>{"REPEATED_TABLE_SCAN"});
  EXPECT_TRUE(analyze_qerror(plan, *three, k.routing).flags.empty());
  EXPECT_FALSE(OperatorCatalog::from_json(
                   core::Json::parse(
                       R"({"duckdb": {"loci": {}, "repeated_scan_min": "two"}, "postgresql": {"loci": {}}})"))
                   .has_value());
}

TEST(QError, ReportsAnUnknownOperatorByName) {
  const Knowledge k;
  const PlanTree plan = *read_plan(core::Json::parse(R"([{"Plan": {"Node Type": "Quantum Scan",
    "Plan Rows": 10, "Actual Rows": 10, "Actual Loops": 1}}])"));

  const QErrorReport report = analyze_qerror(plan, k.catalog, k.routing);

  EXPECT_EQ(report.unknown_operators, std::vector<std::string>{"Quantum Scan"});
  EXPECT_EQ(report.operators[0].locus, "UNKNOWN");
}

TEST(QError, FlagsManyLoopsUnderANestedLoopAndCorrelatedSubplans) {
  const Knowledge k;
  const PlanTree plan = *read_plan(core::Json::parse(R"([{"Plan": {"Node Type": "Nested Loop",
    "Plan Rows": 10, "Actual Rows": 10, "Actual Loops": 1, "Plans": [
    {"Node Type": "Seq Scan", "Relation Name": "a", "Plan Rows": 5000, "Actual Rows": 5000, "Actual Loops": 1},
    {"Node Type": "Index Scan", "Relation Name": "b", "Plan Rows": 1, "Actual Rows": 0, "Actual Loops": 5000},
    {"Node Type": "Aggregate", "Parent Relationship": "SubPlan", "Subplan Name": "SubPlan 1",
     "Plan Rows": 1, "Actual Rows": 1, "Actual Loops": 5000}]}}])"));

  const QErrorReport report = analyze_qerror(plan, k.catalog, k.routing);

  EXPECT_EQ(report.flags, (std::vector<std::string>{"CORRELATED_SUBPLAN", "NESTED_LOOP_MANY_LOOPS"}));
}

TEST(QError, EveryOperatorOfTheCatalogHasALocusAndTheReportIsStable) {
  const Knowledge k;
  for (const char* op : {"TABLE_SCAN", "HASH_JOIN", "HASH_GROUP_BY", "CTE_SCAN", "LEFT_DELIM_JOIN", "TOP_N"})
    EXPECT_TRUE(k.catalog.locus(Engine::kDuckDb, op).has_value()) << op;
  for (const char* op :
       {"Seq Scan", "Hash Join", "Aggregate", "CTE Scan", "Subquery Scan", "Memoize", "Gather"})
    EXPECT_TRUE(k.catalog.locus(Engine::kPostgres, op).has_value()) << op;
  const PlanTree plan = *read_plan(core::Json::parse(R"([{"Plan": {"Node Type": "Hash Join",
    "Plan Rows": 10, "Actual Rows": 5000, "Actual Loops": 1}}])"));

  EXPECT_EQ(analyze_qerror(plan, k.catalog, k.routing).to_json().dump(),
            analyze_qerror(plan, k.catalog, k.routing).to_json().dump());
}

}  // namespace
}  // namespace planfirst::sqlopt
