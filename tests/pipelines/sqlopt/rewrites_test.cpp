#include "pipelines/sqlopt/rewrites.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace planfirst::sqlopt {
namespace {

std::vector<Rewrite> rewrite(const std::string& sql, const std::string& transform,
                             const SchemaFacts& facts = {}) {
  const core::Result<LogicTree> logic = build_logic_tree(sql);
  EXPECT_TRUE(logic.has_value()) << logic.error().describe();
  if (!logic) return {};
  return propose_rewrites(*logic, {Finding{transform, {}, "", ""}}, facts);
}

TEST(Rewrites, DecorrelatesACorrelatedScalarSum) {
  const std::vector<Rewrite> out = rewrite(
      "SELECT c.id FROM customers c WHERE c.region = 'west' AND c.credit < "
      "(SELECT SUM(o.amount) FROM orders o WHERE o.customer_id = c.id AND o.status = 'ok') ORDER BY c.id",
      "decorrelation");

  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].rule, "scalar_aggregate_to_join");
  EXPECT_EQ(
      out[0].sql,
      "SELECT c.id FROM customers c, (SELECT o.customer_id AS pf_k1, SUM(o.amount) AS pf_v FROM orders o "
      "WHERE (o.status = 'ok') GROUP BY o.customer_id) pf_d1 WHERE pf_d1.pf_k1 = c.id AND c.region = 'west' "
      "AND c.credit < pf_d1.pf_v ORDER BY c.id");
}

TEST(Rewrites, LeavesCountAndSubqueriesUnderOrAlone) {
  EXPECT_TRUE(rewrite("SELECT c.id FROM customers c WHERE c.credit < "
                      "(SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.id)",
                      "decorrelation")
                  .empty());
  EXPECT_TRUE(rewrite("SELECT c.id FROM customers c WHERE c.vip OR c.credit < "
                      "(SELECT SUM(o.amount) FROM orders o WHERE o.customer_id = c.id)",
                      "decorrelation")
                  .empty());
  EXPECT_TRUE(rewrite("SELECT * FROM customers c WHERE c.credit < "
                      "(SELECT SUM(o.amount) FROM orders o WHERE o.customer_id = c.id)",
                      "decorrelation")
                  .empty());
}

TEST(Rewrites, TurnsACorrelatedExistsUnderOrIntoIn) {
  const std::vector<Rewrite> out = rewrite(
      "SELECT o.id FROM orders o WHERE o.amount > 10 OR EXISTS (SELECT 1 FROM orders r WHERE r.customer_id = "
      "o.customer_id AND r.status = 'returned')",
      "exists_restructuring");

  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(
      out[0].sql,
      "SELECT o.id FROM orders o WHERE o.amount > 10 OR o.customer_id IN (SELECT r.customer_id FROM orders r "
      "WHERE (r.status = 'returned'))");
  EXPECT_TRUE(
      rewrite("SELECT o.id FROM orders o WHERE o.amount > 10 OR NOT EXISTS (SELECT 1 FROM orders r WHERE "
              "r.customer_id = o.customer_id)",
              "exists_restructuring")
          .empty());
}

TEST(Rewrites, LeavesAnExistsOverAnUngroupedAggregateAlone) {
  // EXISTS (SELECT MAX(...) ...) is true even for a customer without orders; IN would drop that row.
  EXPECT_TRUE(rewrite("SELECT c.id FROM customers c WHERE EXISTS (SELECT MAX(o.amount) FROM orders o WHERE "
                      "o.customer_id = c.id)",
                      "decorrelation")
                  .empty());
}

TEST(Rewrites, AggregatesInOnePassWithFilter) {
  const std::vector<Rewrite> out = rewrite(
      "SELECT (SELECT SUM(amount) FROM orders WHERE channel = 'web') AS web, "
      "(SELECT COUNT(*) FROM orders) AS n",
      "single_pass_aggregation");

  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].sql,
            "SELECT SUM(amount) FILTER (WHERE channel = 'web') AS web, COUNT(*) AS n FROM orders");
}

TEST(Rewrites, PushesACommonFilterIntoACteNamedTwice) {
  const std::vector<Rewrite> out = rewrite(
      "WITH t AS (SELECT o.customer_id, c.region, SUM(o.amount) AS total FROM orders o JOIN customers c ON "
      "c.id = o.customer_id GROUP BY o.customer_id, c.region) SELECT t.customer_id FROM t WHERE t.region = "
      "'west' "
      "AND t.total > (SELECT AVG(a.total) FROM t a WHERE a.region = 'west')",
      "global_predicate_pushdown");

  ASSERT_EQ(out.size(), 1u);
  EXPECT_NE(out[0].sql.find("ON c.id = o.customer_id WHERE c.region = 'west' GROUP BY"), std::string::npos)
      << out[0].sql;
  EXPECT_TRUE(
      rewrite("WITH t AS (SELECT region, SUM(amount) AS total FROM orders GROUP BY region) SELECT * FROM t "
              "a JOIN t b ON a.region = b.region WHERE a.region = 'west'",
              "global_predicate_pushdown")
          .empty());  // only one of the two references keeps 'west'
}

TEST(Rewrites, MakesAUnionOfDisjointDuplicateFreeBranchesUnionAll) {
  const std::string sql =
      "SELECT o.id, 'large' FROM orders o WHERE o.amount >= 200 UNION "
      "SELECT o.id, 'small' FROM orders o WHERE o.amount < 200";
  SchemaFacts facts;
  facts.unique_columns["orders"] = {"id"};

  const std::vector<Rewrite> out = rewrite(sql, "union_consolidation", facts);

  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].sql,
            "SELECT o.id, 'large' FROM orders o WHERE o.amount >= 200 UNION ALL "
            "SELECT o.id, 'small' FROM orders o WHERE o.amount < 200");
  EXPECT_TRUE(rewrite(sql, "union_consolidation").empty());  // without the key, a branch may repeat a row
  EXPECT_TRUE(rewrite("SELECT o.id, 'a' FROM orders o UNION SELECT o.id, 'a' FROM orders o",
                      "union_consolidation", facts)
                  .empty());
}

TEST(Rewrites, ProposesNothingWithoutAFinding) {
  const core::Result<LogicTree> logic =
      build_logic_tree("SELECT (SELECT SUM(a) FROM t) AS x, (SELECT SUM(b) FROM t) AS y");

  ASSERT_TRUE(logic.has_value());
  EXPECT_TRUE(propose_rewrites(*logic, {}, {}).empty());
}

}  // namespace
}  // namespace planfirst::sqlopt
