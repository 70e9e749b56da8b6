#include "pipelines/autoviz/tool_sql.hpp"

#include <gtest/gtest.h>

#include "data/duckdb_database.hpp"
#include "pipelines/autoviz/tool_fixture.hpp"

namespace planfirst::autoviz {
namespace {

// A table of several row groups (DuckDB groups 122,880 rows), stored out of key order.
void make_long_table(data::Database& db) {
  ASSERT_TRUE(db.exec("CREATE TABLE events AS SELECT (i * 7919) % 400000 AS id, i % 13 AS kind FROM range(400000) t(i)"));
}

TEST_F(ToolTest, PreparedPreviewsReadTheFirstRowsInInsertionOrder) {
  make_long_table(*db_);
  ctx_->relation = "events";
  core::Result<data::QueryResult> expected = db_->query("SELECT id, kind * 2 AS kind FROM events ORDER BY rowid LIMIT 100");
  ASSERT_TRUE(expected) << expected.error().describe();

  prepare_previews(*ctx_);
  core::Result<data::QueryResult> setting = db_->query("SELECT current_setting('late_materialization_max_rows')");
  const core::Json no_params = core::Json::object();
  const ToolParams params("time_bucket", no_params);
  core::Result<ToolOutput> view = derive(*ctx_, params, "SELECT id, kind * 2 AS kind FROM events");

  ASSERT_TRUE(setting) << setting.error().describe();
  EXPECT_EQ(setting->at(0, 0).to_string(), "101");
  ASSERT_TRUE(view) << view.error().describe();
  ASSERT_TRUE(view->table);
  EXPECT_TRUE(view->truncated);
  EXPECT_EQ(view->table->to_json(), expected->to_json());
}

}  // namespace
}  // namespace planfirst::autoviz
