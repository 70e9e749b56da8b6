#include "pipelines/sqlopt/logic_tree.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace planfirst::sqlopt {
namespace {

TEST(LogicTree, CardsCtesSubqueriesAndCorrelation) {
  const std::string sql =
      "WITH totals AS (SELECT customer_id, SUM(amount) AS total FROM orders GROUP BY customer_id)\n"
      "SELECT c.customer_id FROM customers c JOIN totals t ON t.customer_id = c.customer_id\n"
      "WHERE c.region = 'west' AND t.total > (SELECT AVG(o.amount) FROM orders o WHERE o.customer_id = "
      "c.customer_id)\n"
      "  AND (c.segment = 'x' OR EXISTS (SELECT 1 FROM returns r WHERE r.customer_id = c.customer_id))";

  const core::Result<LogicTree> tree = build_logic_tree(sql);

  ASSERT_TRUE(tree.has_value()) << tree.error().describe();
  ASSERT_EQ(tree->nodes.size(), 4u);
  const LogicNode& cte = tree->nodes[1];
  EXPECT_EQ(cte.id, "cte:totals");
  EXPECT_EQ(cte.references, 1);
  EXPECT_EQ(cte.aggregates, std::vector<std::string>{"sum"});
  EXPECT_TRUE(cte.has_group_by);
  EXPECT_EQ(tree->span_text(cte),
            "(SELECT customer_id, SUM(amount) AS total FROM orders GROUP BY customer_id)");
  const LogicNode& scalar = tree->nodes[2];
  EXPECT_EQ(scalar.sublink, "SCALAR");
  EXPECT_TRUE(scalar.correlated);
  EXPECT_TRUE(scalar.top_level_conjunct);
  EXPECT_EQ(scalar.outer_references, std::vector<std::string>{"c.customer_id"});
  EXPECT_EQ(tree->span_text(scalar),
            "(SELECT AVG(o.amount) FROM orders o WHERE o.customer_id = c.customer_id)");
  const LogicNode& exists = tree->nodes[3];
  EXPECT_EQ(exists.sublink, "EXISTS");
  EXPECT_FALSE(exists.top_level_conjunct);
  EXPECT_TRUE(exists.positive_context);
  EXPECT_EQ(sql.substr(exists.expression_begin, 6), "EXISTS");
  EXPECT_EQ(tree->nodes[0].joins, std::vector<std::string>{"JOIN_INNER"});
  EXPECT_EQ(tree->to_json().dump(), build_logic_tree(sql)->to_json().dump());
}

TEST(LogicTree, CardsUnionBranches) {
  const core::Result<LogicTree> tree = build_logic_tree("SELECT a, 'x' FROM t UNION SELECT a, 'y' FROM t");

  ASSERT_TRUE(tree.has_value());
  EXPECT_EQ(tree->nodes[0].set_operation, "UNION");
  ASSERT_EQ(tree->nodes.size(), 3u);
  EXPECT_EQ(tree->nodes[1].kind, "branch");
  EXPECT_EQ(tree->nodes[2].tables, std::vector<std::string>{"t"});
}

TEST(LogicTree, RefusesWhatIsNotASelect) {
  const core::Result<LogicTree> tree = build_logic_tree("UPDATE t SET a = 1");

  ASSERT_FALSE(tree.has_value());
  EXPECT_EQ(tree.error().code, core::ErrorCode::kFailedPrecondition);
}

}  // namespace
}  // namespace planfirst::sqlopt
