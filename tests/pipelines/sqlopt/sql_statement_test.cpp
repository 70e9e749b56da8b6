#include "pipelines/sqlopt/sql_statement.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace planfirst::sqlopt {
namespace {

core::Result<void> check(const std::string& sql) {
  core::Result<core::Json> tree = parse_postgres_sql(sql);
  if (!tree) return tree.error();
  return require_single_select(*tree);
}

TEST(SqlStatement, AcceptsSelectAndWithSelect) {
  EXPECT_TRUE(check("SELECT 1").has_value());
  EXPECT_TRUE(check("WITH t AS (SELECT 1 AS x) SELECT x FROM t;").has_value());
  EXPECT_TRUE(check("SELECT 1 UNION SELECT 2").has_value());
}

TEST(SqlStatement, RefusesEveryStatementThatIsNotASingleSelect) {
  for (const char* sql : {"DELETE FROM orders", "DROP TABLE orders", "SELECT 1; SELECT 2",
                          "WITH gone AS (DELETE FROM orders RETURNING *) SELECT * FROM gone",
                          "SELECT * INTO copy FROM orders", "SELECT * FROM orders FOR UPDATE",
                          "INSERT INTO t SELECT 1", "CREATE TABLE t (x int)", "COPY t TO '/tmp/x'", ""}) {
    const core::Result<void> result = check(sql);
    ASSERT_FALSE(result.has_value()) << sql;
    EXPECT_EQ(result.error().code, core::ErrorCode::kFailedPrecondition) << sql;
  }
}

TEST(SqlStatement, NamesLineAndColumnOfAParseError) {
  const core::Result<core::Json> tree = parse_postgres_sql("SELECT a\nFROM t\nWHERE x = = 3");

  ASSERT_FALSE(tree.has_value());
  EXPECT_EQ(tree.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(tree.error().where, "line 3, column 11");
}

TEST(SqlStatement, TrimsBlanksAndSemicolons) {
  EXPECT_EQ(trimmed_statement("  SELECT 1 ;\n;\n"), "SELECT 1");
}

}  // namespace
}  // namespace planfirst::sqlopt
