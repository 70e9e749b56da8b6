#include "pipelines/autoviz/tools/tool_sql.hpp"

#include <gtest/gtest.h>

#include "data/duckdb_database.hpp"
#include "pipelines/autoviz/tool_fixture.hpp"
#include "pipelines/autoviz/tools/tool_relation.hpp"

namespace planfirst::autoviz {
namespace {

// A table of several row groups (DuckDB groups 122,880 rows), stored out of key order.
void make_long_table(data::Database& db) {
  ASSERT_TRUE(db.exec(
      "CREATE TABLE events AS SELECT (i * 7919) % 400000 AS id, i % 13 AS kind FROM range(400000) t(i)"));
}

TEST_F(ToolTest, PreparedPreviewsArePlainLimitsOverTheFirstRowsInInsertionOrder) {
  make_long_table(*db_);
  ctx_->relation = "events";
  core::Result<data::QueryResult> expected =
      db_->query("SELECT id, kind * 2 AS kind FROM events ORDER BY rowid LIMIT 100");
  ASSERT_TRUE(expected) << expected.error().describe();

  prepare_previews(*ctx_);
  core::Result<data::QueryResult> setting =
      db_->query("SELECT current_setting('late_materialization_max_rows')");
  const core::Json no_params = core::Json::object();
  const ToolParams params("time_bucket", no_params);
  core::Result<ToolOutput> view = derive(*ctx_, params, "SELECT id, kind * 2 AS kind FROM events");

  core::Result<data::QueryResult> plan = db_->query("EXPLAIN SELECT * FROM events LIMIT 101");

  ASSERT_TRUE(setting) << setting.error().describe();
  EXPECT_EQ(setting->at(0, 0).to_string(), "101");
  ASSERT_TRUE(plan) << plan.error().describe();
  EXPECT_EQ(plan->to_json().dump().find("HASH_JOIN"), std::string::npos);  // no semi-join on row ids
  ASSERT_TRUE(view) << view.error().describe();
  ASSERT_TRUE(view->table);
  EXPECT_TRUE(view->truncated);
  EXPECT_EQ(view->table->to_json(), expected->to_json());
}

TEST_F(ToolTest, ADescriptionLastsUntilAToolCreatesARelation) {
  load(kSalesCsv);
  core::Result<std::vector<data::Column>> sales = relation_columns(*ctx_, "sales");
  ASSERT_TRUE(sales) << sales.error().describe();
  EXPECT_TRUE(ctx_->described.contains("sales"));

  core::Result<ToolOutput> totals = run("aggregate", {{"metrics", {"revenue"}}, {"group_by", {"region"}}});
  ASSERT_TRUE(totals.has_value()) << totals.error().describe();
  EXPECT_TRUE(ctx_->described.empty());
  core::Result<std::vector<data::Column>> columns = relation_columns(*ctx_, ctx_->relation);

  ASSERT_TRUE(columns) << columns.error().describe();
  ASSERT_EQ(columns->size(), 2u);
  EXPECT_EQ((*columns)[0].name, "region");
  EXPECT_EQ((*columns)[1].name, "revenue");
  EXPECT_EQ(ctx_->described.size(), 1u);
  load("day,n\n2024-01-01,1\n", "more");
  EXPECT_TRUE(ctx_->described.empty());
}

}  // namespace
}  // namespace planfirst::autoviz
