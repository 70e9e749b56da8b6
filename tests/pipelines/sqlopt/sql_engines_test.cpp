// The analyst against real engines: the retail example in DuckDB and in the throwaway PostgreSQL.
#include <gtest/gtest.h>

#include <functional>
#include <nlohmann/json.hpp>

#include "pipelines/sqlopt/optimizer.hpp"
#include "pipelines/sqlopt/sql_session.hpp"
#include "retail_fixture.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::sqlopt {
namespace {

using testing::read_source;

class SqlEngines : public ::testing::TestWithParam<std::string> {
 protected:
  std::string uri() const {
    return GetParam() == "duckdb" ? testing::retail_duckdb_uri() : testing::retail_postgres_uri();
  }
  SqlSession open(std::chrono::milliseconds timeout = kDefaultStatementTimeout) const {
    core::Result<SqlSession> session = SqlSession::open(uri(), timeout);
    EXPECT_TRUE(session.has_value()) << session.error().describe();
    return std::move(*session);
  }
  SqlKnowledge knowledge() const { return *SqlKnowledge::load(core::AssetStore()); }
  // "slow" or "control", for this engine when the manifest tells the engines apart.
  std::string kind(const core::Json& query) const {
    const core::Json& kind = query["kind"];
    return kind.is_object() ? kind[GetParam()].get<std::string>() : kind.get<std::string>();
  }
  // Optimizes each query of examples/sqlopt/queries.json of kind `wanted` on this engine and hands
  // the manifest entry and the result to `check`.
  void for_each_query(const std::string& wanted,
                      const std::function<void(const core::Json&, const Optimization&)>& check) const {
    SqlSession session = open();
    const core::Json manifest = core::Json::parse(read_source("examples/sqlopt/queries.json"));
    for (const core::Json& query : manifest["queries"]) {
      if (kind(query) != wanted) continue;
      SCOPED_TRACE(query["file"].get<std::string>());
      const core::Result<Optimization> result = optimize_query(
          session, read_source("examples/sqlopt/" + query["file"].get<std::string>()), knowledge());
      ASSERT_TRUE(result.has_value()) << result.error().describe();
      check(query, *result);
    }
  }
};

TEST_P(SqlEngines, ReadsTheActualPlanIntoOneTree) {
  SqlSession session = open();
  const std::string sql = read_source("examples/sqlopt/queries/control_in.sql");

  const core::Result<PlanTree> plan = session.explain_analyze(sql);
  const core::Result<data::QueryResult> rows = session.run(sql);

  ASSERT_TRUE(plan.has_value()) << plan.error().describe();
  EXPECT_EQ(to_string(plan->engine), GetParam());
  bool scans_orders = false;
  for (const PlanNode& node : plan->nodes) scans_orders |= node.table.starts_with("orders");
  EXPECT_TRUE(scans_orders);
  ASSERT_TRUE(rows.has_value());
  EXPECT_EQ(*plan->root().actual_rows, static_cast<double>(rows->row_count()));
}

TEST_P(SqlEngines, RefusesAWriteBeforeRunningIt) {
  SqlSession session = open();

  const core::Result<PlanTree> plan = session.explain_analyze("DELETE FROM orders");
  const core::Result<data::QueryResult> count = session.run("SELECT COUNT(*) FROM orders");

  ASSERT_FALSE(plan.has_value());
  EXPECT_EQ(plan.error().code, core::ErrorCode::kFailedPrecondition);
  ASSERT_TRUE(count.has_value());
  EXPECT_EQ(count->at(0, 0).as_int(), 120000);
}

TEST_P(SqlEngines, StopsAStatementAtTheTimeout) {
  SqlSession session = open(std::chrono::milliseconds(100));

  const core::Result<PlanTree> plan = session.explain_analyze(
      "SELECT COUNT(*) FROM orders a, orders b, orders c WHERE a.amount + b.amount > c.amount");

  ASSERT_FALSE(plan.has_value());
  EXPECT_EQ(plan.error().code, core::ErrorCode::kUnavailable);
  EXPECT_NE(plan.error().message.find("timeout"), std::string::npos) << plan.error().message;
}

TEST_P(SqlEngines, FindsEachPlantedProblemAndProvesEveryRewriteEquivalent) {
  for_each_query("slow", [](const core::Json& query, const Optimization& result) {
    bool found = false;
    for (const Finding& f : result.analysis.findings) found |= f.transform == query["transform"];
    EXPECT_TRUE(found) << result.to_json()["findings"].dump();
    bool proposed = false;
    for (const Candidate& c : result.candidates) {
      proposed |= c.rewrite.transform == query["transform"];
      EXPECT_TRUE(c.validation.equivalence.equal) << c.rewrite.sql << "\n"
                                                  << c.validation.equivalence.difference;
      // The query itself is timed once, for every rewrite.
      EXPECT_EQ(c.validation.runs_a_ms, result.candidates.front().validation.runs_a_ms);
    }
    EXPECT_TRUE(proposed);
    if (result.best) {
      EXPECT_EQ(to_string(result.candidates[*result.best].validation.verdict), "WIN");
    }
  });
}

TEST_P(SqlEngines, NeverRecommendsARewriteOfAControl) {
  for_each_query("control", [](const core::Json&, const Optimization& result) {
    EXPECT_FALSE(result.best.has_value()) << result.to_text();
  });
}

INSTANTIATE_TEST_SUITE_P(BothEngines, SqlEngines, ::testing::Values("duckdb", "postgresql"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// DuckDB 1.4 reports a scan's operator_rows_scanned as the table's rows times the threads that
// scanned it (duckdb/duckdb#20161): with 400,000 rows (four row groups) and two or more threads the
// profile says 800,000 or more. The rows a filtered scan read and removed are the table's rows.
TEST(SqlSession, CountsTheRowsAFilteredDuckDbScanRemovedOnTheTable) {
  test_support::TempDir dir;
  const std::string file = (dir.path() / "scan.duckdb").string();
  {
    auto db = data::DuckDbDatabase::open(file);
    ASSERT_TRUE(db.has_value());
    ASSERT_TRUE(
        (*db)->exec("CREATE TABLE readings AS SELECT i AS id, i % 7 AS kind "
                    "FROM range(400000) t(i)"));
  }
  core::Result<SqlSession> session = SqlSession::open("duckdb:" + file);
  ASSERT_TRUE(session.has_value()) << session.error().describe();

  const core::Result<PlanTree> plan = session->explain_analyze("SELECT id FROM readings WHERE kind = 3");
  const core::Result<data::QueryResult> direct = session->run(
      "SELECT COUNT(*) FILTER (WHERE kind = 3), COUNT(*) FILTER (WHERE kind <> 3) FROM readings");

  ASSERT_TRUE(plan.has_value()) << plan.error().describe();
  ASSERT_TRUE(direct.has_value()) << direct.error().describe();
  const PlanNode* scan = nullptr;
  for (const PlanNode& node : plan->nodes)
    if (node.table == "readings") scan = &node;
  ASSERT_NE(scan, nullptr);
  EXPECT_EQ(*scan->actual_rows, static_cast<double>(direct->at(0, 0).as_int()));
  ASSERT_TRUE(scan->rows_removed.has_value());
  EXPECT_EQ(*scan->rows_removed, static_cast<double>(direct->at(0, 1).as_int()));  // 342,857
}

TEST(SqlSession, ReportsAnUnreachableServerAsUnavailable) {
  const core::Result<SqlSession> session =
      SqlSession::open("postgresql://postgres@127.0.0.1:1/postgres?connect_timeout=2");

  ASSERT_FALSE(session.has_value());
  EXPECT_EQ(session.error().code, core::ErrorCode::kUnavailable);
}

TEST(SqlSession, RefusesAnEngineWithoutExplainAnalyze) {
  const core::Result<SqlSession> session = SqlSession::open("sqlite:some.sqlite");

  ASSERT_FALSE(session.has_value());
  EXPECT_EQ(session.error().code, core::ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace planfirst::sqlopt
