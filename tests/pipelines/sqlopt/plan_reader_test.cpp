#include "pipelines/sqlopt/plan_reader.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace planfirst::sqlopt {
namespace {

constexpr const char* kPostgresPlan = R"js([{"Plan": {"Node Type": "Nested Loop", "Join Type": "Inner",
  "Plan Rows": 10, "Actual Rows": 500, "Actual Loops": 1, "Actual Total Time": 40.0,
  "Plans": [
    {"Node Type": "Seq Scan", "Parent Relationship": "Outer", "Relation Name": "customers", "Alias": "c",
     "Plan Rows": 100, "Actual Rows": 50, "Actual Loops": 1, "Actual Total Time": 5.0,
     "Filter": "(region = 'west')", "Rows Removed by Filter": 950, "Shared Hit Blocks": 12, "Shared Read Blocks": 3},
    {"Node Type": "Index Scan", "Parent Relationship": "Inner", "Relation Name": "orders", "Alias": "o",
     "Plan Rows": 2, "Actual Rows": 10, "Actual Loops": 50, "Actual Total Time": 0.5,
     "Index Cond": "(customer_id = c.customer_id)"}]},
  "Planning Time": 0.2, "Execution Time": 41.5}])js";

TEST(PlanReader, MultipliesPostgresPerLoopRowsAndTimesByLoops) {
  const core::Result<PlanTree> plan = read_plan(core::Json::parse(kPostgresPlan));

  ASSERT_TRUE(plan.has_value()) << plan.error().describe();
  ASSERT_EQ(plan->nodes.size(), 3u);
  const PlanNode& inner = plan->nodes[2];
  EXPECT_EQ(inner.op, "Index Scan");
  EXPECT_EQ(*inner.actual_rows, 500);
  EXPECT_EQ(*inner.est_rows, 100);
  EXPECT_EQ(inner.loops, 50);
  EXPECT_DOUBLE_EQ(inner.inclusive_ms, 25.0);
  EXPECT_DOUBLE_EQ(plan->nodes[0].exclusive_ms, 10.0);  // 40 - 5 - 25
  EXPECT_DOUBLE_EQ(plan->total_ms, 41.5);
  EXPECT_EQ(plan->nodes[1].table, "customers c");
  EXPECT_EQ(*plan->nodes[1].rows_removed, 950);
  EXPECT_EQ(*plan->nodes[1].shared_read_blocks, 3);
  EXPECT_EQ(plan->nodes[0].join_type, "Inner");
  EXPECT_EQ(plan->engine, Engine::kPostgres);
}

TEST(PlanReader, ReadsParallelWorkersSortSpillsAndHashBatches) {
  const char* text = R"js([{"Plan": {"Node Type": "Gather", "Workers Planned": 2, "Workers Launched": 2,
    "Plan Rows": 1000, "Actual Rows": 1000, "Actual Loops": 1, "Actual Total Time": 9,
    "Plans": [{"Node Type": "Sort", "Plan Rows": 333, "Actual Rows": 333, "Actual Loops": 3,
      "Actual Total Time": 8, "Sort Method": "external merge", "Sort Space Type": "Disk",
      "Parallel Aware": false, "Plans": [{"Node Type": "Hash Join", "Plan Rows": 333, "Actual Rows": 333,
      "Actual Loops": 3, "Actual Total Time": 6, "Hash Cond": "(a.id = b.id)",
      "Plans": [{"Node Type": "Hash", "Hash Batches": 4, "Plan Rows": 1, "Actual Rows": 1, "Actual Loops": 3,
      "Actual Total Time": 1}]}]}]}}])js";

  const core::Result<PlanTree> plan = read_plan(core::Json::parse(text));

  ASSERT_TRUE(plan.has_value()) << plan.error().describe();
  EXPECT_EQ(*plan->nodes[0].workers, 2);
  EXPECT_TRUE(plan->nodes[1].parallel);
  EXPECT_TRUE(plan->nodes[1].sort_spilled);
  EXPECT_DOUBLE_EQ(plan->nodes[1].inclusive_ms, 8);  // per-process average under a Gather, not x3
  EXPECT_EQ(*plan->nodes[1].actual_rows, 999);
  EXPECT_EQ(plan->nodes[2].join_condition, "(a.id = b.id)");
  EXPECT_EQ(*plan->nodes[3].hash_batches, 4);
}

constexpr const char* kDuckDbProfile = R"({"latency": 0.0, "children": [{"operator_name": "EXPLAIN_ANALYZE",
  "operator_type": "EXPLAIN_ANALYZE", "operator_cardinality": 0, "operator_timing": 0.0, "extra_info": {},
  "children": [{"operator_name": "HASH_JOIN", "operator_type": "HASH_JOIN", "operator_cardinality": 10,
    "operator_timing": 0.002, "extra_info": {"Join Type": "INNER", "Conditions": "i = g",
    "Estimated Cardinality": "18446744073709551615"},
    "children": [
      {"operator_name": "SEQ_SCAN ", "operator_type": "TABLE_SCAN", "operator_cardinality": 90,
       "operator_rows_scanned": 1000, "operator_timing": 0.001,
       "extra_info": {"Table": "u", "Filters": ["i>5", "i<100"], "Estimated Cardinality": "200"}, "children": []},
      {"operator_name": "DELIM_SCAN", "operator_type": "DELIM_SCAN", "operator_cardinality": 0,
       "operator_timing": 0.0, "extra_info": {"Delim Index": "1"}, "children": []}]}]}]})";

TEST(PlanReader, ReadsDuckDbProfilesSkippingTheExplainWrapper) {
  const core::Result<PlanTree> plan = read_plan(core::Json::parse(kDuckDbProfile));

  ASSERT_TRUE(plan.has_value()) << plan.error().describe();
  ASSERT_EQ(plan->nodes.size(), 3u);
  EXPECT_EQ(plan->engine, Engine::kDuckDb);
  EXPECT_EQ(plan->nodes[0].op, "HASH_JOIN");
  EXPECT_TRUE(plan->nodes[0].est_clamped);
  EXPECT_EQ(*plan->nodes[0].est_rows, kMaxEstimate);
  EXPECT_EQ(plan->nodes[1].filter, "i>5 AND i<100");
  EXPECT_EQ(*plan->nodes[1].rows_removed, 910);
  EXPECT_FALSE(plan->nodes[2].est_rows.has_value());
  EXPECT_DOUBLE_EQ(plan->nodes[0].inclusive_ms, 3.0);
  EXPECT_DOUBLE_EQ(plan->total_ms, 3.0);
}

TEST(PlanReader, NamesTheJsonPointerOfAFieldOfTheWrongType) {
  const char* text = R"([{"Plan": {"Node Type": "Limit", "Plan Rows": 1, "Actual Rows": 1, "Actual Loops": 1,
    "Plans": [{"Node Type": "Seq Scan", "Plan Rows": "many"}]}}])";

  const core::Result<PlanTree> plan = read_plan_text(text, "plan.json");

  ASSERT_FALSE(plan.has_value());
  EXPECT_EQ(plan.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(plan.error().where, "plan.json at /0/Plan/Plans/0/Plan Rows");
}

TEST(PlanReader, GivesLineAndColumnOfMalformedJson) {
  const core::Result<PlanTree> plan = read_plan_text("[{\"Plan\":\n  {\"Node Type\": }]", "bad.json");

  ASSERT_FALSE(plan.has_value());
  EXPECT_EQ(plan.error().where, "bad.json:2:17");
}

TEST(PlanReader, RefusesJsonThatIsNoPlan) {
  const core::Result<PlanTree> plan = read_plan_text(R"({"rows": []})", "x.json");

  ASSERT_FALSE(plan.has_value());
  EXPECT_NE(plan.error().message.find("not a plan"), std::string::npos);
}

TEST(PlanReader, RefusesPlansNestedBeyondTheLimit) {
  std::string text = R"({"children": [)";
  for (int i = 0; i < 600; ++i) text += R"({"operator_type": "FILTER", "children": [)";
  for (int i = 0; i < 600; ++i) text += "]}";
  text += "]}";

  const core::Result<PlanTree> plan = read_plan_text(text, "deep.json");

  ASSERT_FALSE(plan.has_value());
  EXPECT_NE(plan.error().message.find("deeper than 500"), std::string::npos);
}

}  // namespace
}  // namespace planfirst::sqlopt
