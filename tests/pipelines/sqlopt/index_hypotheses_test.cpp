// Index hypotheses with HypoPG on the throwaway PostgreSQL: candidates read off
// plans, the estimated costs checked against the planner directly, nothing left
// behind, and the plain message when the extension is absent.
#include "pipelines/sqlopt/index_hypotheses.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "data/postgres_database.hpp"
#include "e2e/command_runner.hpp"
#include "pipelines/sqlopt/plan_reader.hpp"
#include "retail_fixture.hpp"
#include "support/postgres_server.hpp"

namespace planfirst::sqlopt {
namespace {

using testing::read_source;

PlanTree plan_of(const std::string &json) {
  core::Result<PlanTree> plan = read_plan(core::Json::parse(json));
  EXPECT_TRUE(plan.has_value()) << plan.error().describe();
  return plan ? std::move(*plan) : PlanTree{};
}

std::vector<std::string> statements(const std::vector<IndexCandidate> &candidates) {
  std::vector<std::string> out;
  for (const IndexCandidate &c : candidates) out.push_back(c.statement());
  return out;
}

TEST(IndexCandidates, ComeFromAScanWhoseFilterRemovesMostRows) {
  const PlanTree plan = plan_of(R"json([{"Plan": {"Node Type": "Seq Scan", "Relation Name": "customers",
    "Alias": "c", "Plan Rows": 20, "Actual Rows": 20, "Filter": "(c.credit_limit < (SubPlan 1))",
    "Rows Removed by Filter": 380, "Plans": [{"Node Type": "Aggregate", "Parent Relationship": "SubPlan",
    "Plan Rows": 1, "Actual Rows": 1, "Actual Loops": 20, "Plans": [{"Node Type": "Seq Scan",
    "Relation Name": "orders", "Alias": "o", "Plan Rows": 30, "Actual Rows": 30, "Actual Loops": 20,
    "Filter": "((o.customer_id = c.customer_id) AND ((o.status)::text = 'returned'::text) AND (o.amount >= 5))",
    "Rows Removed by Filter": 119970}]}]
}}])json");

  const std::vector<IndexCandidate> candidates = index_candidates(plan);

  // customers keeps 20 of 400 rows but reads fewer than 1,000: no candidate.
  EXPECT_EQ(statements(candidates),
            std::vector<std::string>{R"(CREATE INDEX ON "orders" ("customer_id", "status", "amount"))"});
  EXPECT_EQ(candidates[0].reason,
            "Seq Scan on orders o keeps 600 of the 2400000 "
            "rows it reads over 20 loop(s)");
}

TEST(IndexCandidates, ComeFromANestedLoopProbingAScanAndASortFeedingAMergeJoin) {
  const PlanTree plan = plan_of(R"json([{"Plan": {"Node Type": "Merge Join", "Plan Rows": 1, "Actual Rows": 1,
    "Merge Cond": "(p.product_id = o.product_id)", "Plans": [
    {"Node Type": "Sort", "Plan Rows": 1, "Actual Rows": 1, "Plans": [{"Node Type": "Seq Scan",
      "Relation Name": "products", "Alias": "p", "Plan Rows": 500, "Actual Rows": 500}]},
    {"Node Type": "Nested Loop", "Plan Rows": 1, "Actual Rows": 1, "Join Filter": "(c.customer_id = o.customer_id)",
      "Plans": [{"Node Type": "Seq Scan", "Relation Name": "orders", "Alias": "o", "Plan Rows": 9, "Actual Rows": 9},
      {"Node Type": "Seq Scan", "Relation Name": "customers", "Alias": "c", "Plan Rows": 4000,
       "Actual Rows": 4000, "Actual Loops": 9}]}]
}}])json");

  EXPECT_EQ(statements(index_candidates(plan)),
            (std::vector<std::string>{R"(CREATE INDEX ON "products" ("product_id"))",
                                      R"(CREATE INDEX ON "customers" ("customer_id"))"}));
}

TEST(IndexCandidates, QuoteEveryNameSoAKeywordTableNameStaysAnIdentifier) {
  const PlanTree plan = plan_of(R"json([{"Plan": {"Node Type": "Seq Scan", "Relation Name": "order",
    "Alias": "o", "Plan Rows": 10, "Actual Rows": 10, "Actual Loops": 1,
    "Filter": "(o.customer_id = 7)", "Rows Removed by Filter": 99990}}])json");

  EXPECT_EQ(statements(index_candidates(plan)),
            std::vector<std::string>{R"(CREATE INDEX ON "order" ("customer_id"))"});
}

// A connection to the throwaway server's database `name` as the superuser.
std::unique_ptr<data::PostgresDatabase> superuser(const std::string &name = "postgres") {
  std::string failure;
  test_support::PostgresServer *server = test_support::PostgresServer::shared(&failure);
  EXPECT_NE(server, nullptr) << failure;
  if (server == nullptr) return nullptr;
  auto db = data::PostgresDatabase::connect(
      fmt::format("postgresql://postgres@127.0.0.1:{}/{}", server->port(), name));
  EXPECT_TRUE(db.has_value()) << db.error().describe();
  return db ? std::move(*db) : nullptr;
}

double planner_cost(data::PostgresDatabase &db, const std::string &sql) {
  auto rows = db.query("EXPLAIN (FORMAT JSON) " + sql);
  EXPECT_TRUE(rows.has_value());
  return core::Json::parse(rows->at(0, 0).to_string())[0]["Plan"]["Total Cost"].get<double>();
}

long long count(data::PostgresDatabase &db, const std::string &sql) {
  auto rows = db.query(sql);
  EXPECT_TRUE(rows.has_value()) << rows.error().describe();
  return rows ? rows->at(0, 0).as_int() : -1;
}

// The user's tables, indexes and rows in one line, to compare before and after a run.
std::string user_state(data::PostgresDatabase &db) {
  auto rows = db.query(
      "SELECT (SELECT string_agg(tablename || ':' || indexdef, '; ' ORDER BY indexdef) FROM pg_indexes "
      "WHERE schemaname = 'public') || ' | ' || (SELECT string_agg(tablename, ',' ORDER BY tablename) "
      "FROM pg_tables WHERE schemaname = 'public') || ' | ' || (SELECT count(*) || ':' || sum(amount) "
      "FROM orders) || ' | ' || (SELECT count(*) || ':' || sum(credit_limit) FROM customers)");
  EXPECT_TRUE(rows.has_value()) << rows.error().describe();
  return rows ? rows->at(0, 0).to_string() : "unreadable";
}

TEST(IndexHypotheses, SaysSoWhenHypoPgIsNotInstalled) {
  auto admin = superuser();
  ASSERT_NE(admin, nullptr);
  ASSERT_TRUE(admin->exec("DROP DATABASE IF EXISTS without_hypopg").has_value());
  ASSERT_TRUE(admin->exec("CREATE DATABASE without_hypopg").has_value());
  std::string failure;
  core::Result<SqlSession> session =
      SqlSession::open(fmt::format("postgresql://postgres@127.0.0.1:{}/without_hypopg",
                                   test_support::PostgresServer::shared(&failure)->port()));
  ASSERT_TRUE(session.has_value()) << session.error().describe();
  const std::string sql = "SELECT g FROM generate_series(1, 5000) AS g WHERE g % 1000 = 0";
  const core::Result<PlanTree> plan = session->explain_analyze(sql);
  ASSERT_TRUE(plan.has_value());

  const core::Result<IndexHypotheses> result = hypothesize_indexes(*session, sql, *plan);

  ASSERT_TRUE(result.has_value()) << result.error().describe();
  EXPECT_FALSE(result->available);
  EXPECT_TRUE(result->indexes.empty());
  EXPECT_EQ(result->note, "HypoPG is not installed in this database; no index hypotheses");
  EXPECT_NE(result->to_text().find("HypoPG is not installed in this database; no index hypotheses"),
            std::string::npos);
}

TEST(IndexHypotheses, OptimizeReportsThePlannersEstimatesAndLeavesNothingBehind) {
  const std::string uri = testing::retail_postgres_uri();
  auto admin = superuser();
  ASSERT_NE(admin, nullptr);
  ASSERT_TRUE(admin->exec("CREATE EXTENSION IF NOT EXISTS hypopg").has_value());
  const std::string state_before = user_state(*admin);
  const std::string file = e2e::source("examples/sqlopt/queries/decorrelation_scalar.sql");

  const e2e::CommandOutcome json = e2e::run_command(
      "(" + e2e::planfirst("sql optimize --db '" + uri + "' " + file + " --json") + " 2>/dev/null)");
  const e2e::CommandOutcome text =
      e2e::run_command("(" + e2e::planfirst("sql optimize --db '" + uri + "' " + file) + " 2>/dev/null)");

  ASSERT_EQ(json.exit_code, 0) << json.output;
  const core::Json doc = core::Json::parse(json.output);
  const core::Json &hypotheses = doc["index_hypotheses"];
  EXPECT_EQ(hypotheses["available"], true);
  ASSERT_EQ(hypotheses["indexes"].size(), 1u) << hypotheses.dump();
  const core::Json &index = hypotheses["indexes"][0];
  EXPECT_EQ(index["statement"], R"(CREATE INDEX ON "orders" ("customer_id"))");
  EXPECT_EQ(index["estimated"], true);
  EXPECT_EQ(index["planner_uses_it"], true);
  // The planner's own figures, asked directly in a session of the test's.
  const std::string sql = read_source("examples/sqlopt/queries/decorrelation_scalar.sql");
  const double before = planner_cost(*admin, sql);
  ASSERT_TRUE(
      admin->query("SELECT * FROM hypopg_create_index('CREATE INDEX ON "
                   "orders (customer_id)')"));
  const double after = planner_cost(*admin, sql);
  ASSERT_TRUE(admin->query("SELECT hypopg_reset()"));
  EXPECT_DOUBLE_EQ(index["estimated_cost_before"].get<double>(), before);
  EXPECT_DOUBLE_EQ(index["estimated_cost_after"].get<double>(), after);
  EXPECT_LT(after, before);
  EXPECT_NE(text.output.find(fmt::format(R"(- CREATE INDEX ON "orders" ("customer_id"): )"
                                         "estimated cost {:.2f} -> {:.2f}; "
                                         "the planner would use it",
                                         before, after)),
            std::string::npos)
      << text.output;
  EXPECT_NE(text.output.find("Index hypotheses (HypoPG; planner estimates, not measured)"),
            std::string::npos);
  // Nothing persists: no real index, table or row changed.
  auto fresh = superuser();
  ASSERT_NE(fresh, nullptr);
  EXPECT_EQ(user_state(*fresh), state_before);
  EXPECT_EQ(count(*fresh, "SELECT count(*) FROM orders"), 120000);
}

// Hypothetical indexes belong to the connection and outlive a rollback: the analyst's own
// connection must have none left once the hypotheses are estimated.
TEST(IndexHypotheses, LeaveNoHypotheticalIndexInTheAnalystsConnection) {
  const std::string uri = testing::retail_postgres_uri();
  auto admin = superuser();
  ASSERT_NE(admin, nullptr);
  ASSERT_TRUE(admin->exec("CREATE EXTENSION IF NOT EXISTS hypopg").has_value());
  core::Result<SqlSession> session = SqlSession::open(uri);
  ASSERT_TRUE(session.has_value()) << session.error().describe();
  const std::string sql = read_source("examples/sqlopt/queries/decorrelation_scalar.sql");
  const core::Result<PlanTree> plan = session->explain_analyze(sql);
  ASSERT_TRUE(plan.has_value()) << plan.error().describe();

  const core::Result<IndexHypotheses> result = hypothesize_indexes(*session, sql, *plan);

  ASSERT_TRUE(result.has_value()) << result.error().describe();
  ASSERT_EQ(result->indexes.size(), 1u);
  long long left = -1;
  const core::Result<void> listed = session->read_only([&](data::Database &db) -> core::Result<void> {
    core::Result<data::QueryResult> rows = db.query("SELECT count(*) FROM hypopg_list_indexes");
    if (!rows) return rows.error();
    left = rows->at(0, 0).as_int();
    return core::ok();
  });
  ASSERT_TRUE(listed.has_value()) << listed.error().describe();
  EXPECT_EQ(left, 0);
}

}  // namespace
}  // namespace planfirst::sqlopt
