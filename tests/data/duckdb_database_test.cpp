#include "data/duckdb_database.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "support/temp_dir.hpp"

namespace planfirst::data {
namespace {

using test_support::TempDir;

std::unique_ptr<DuckDbDatabase> open_memory(const DatabaseOptions& options = {}) {
  core::Result<std::unique_ptr<DuckDbDatabase>> db = DuckDbDatabase::open(":memory:", options);
  EXPECT_TRUE(db.has_value()) << db.error().describe();
  return db ? std::move(db).value() : nullptr;
}

// Depth-first search for a JSON object that satisfies `match`.
bool any_node(const core::Json& node, const std::function<bool(const core::Json&)>& match) {
  if (node.is_object() && match(node)) return true;
  if (node.is_object() || node.is_array()) {
    for (const auto& child : node) {
      if (any_node(child, match)) return true;
    }
  }
  return false;
}

TEST(DuckDbDatabase, BindsParametersOfEveryType) {
  auto db = open_memory();
  ASSERT_NE(db, nullptr);

  auto result =
      db->query("SELECT $1::INTEGER AS n, $2 AS b, $3 AS i, $4 AS d, $5 AS s",
                {Value(), Value(true), Value(std::int64_t{9000000000}), Value(2.5), Value("héllo 'x'")});

  ASSERT_TRUE(result) << result.error().describe();
  ASSERT_EQ(result->row_count(), 1u);
  EXPECT_TRUE(result->at(0, 0).is_null());
  EXPECT_EQ(result->at(0, 1), Value(true));
  EXPECT_EQ(result->at(0, 2), Value(std::int64_t{9000000000}));
  EXPECT_EQ(result->at(0, 3), Value(2.5));
  EXPECT_EQ(result->at(0, 4), Value("héllo 'x'"));
  EXPECT_EQ(result->column(1).type, ColumnType::kBoolean);
  EXPECT_EQ(result->column(4).type, ColumnType::kText);
}

TEST(DuckDbDatabase, ReadsEachColumnTypeIntoItsKind) {
  auto db = open_memory();
  ASSERT_NE(db, nullptr);
  ASSERT_TRUE(
      db->exec("CREATE TABLE t (b BOOLEAN, i INTEGER, h HUGEINT, d DOUBLE, m DECIMAL(10,2), s VARCHAR, "
               "day DATE, ts TIMESTAMP);"
               "INSERT INTO t VALUES (false, -3, 12, 0.125, 538.55, 'a b', DATE '2024-02-29', "
               "TIMESTAMP '2024-02-29 13:45:00.25'), (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)"));

  auto result = db->query("SELECT * FROM t ORDER BY i NULLS LAST");

  ASSERT_TRUE(result) << result.error().describe();
  ASSERT_EQ(result->row_count(), 2u);
  const std::vector<ColumnType> types{ColumnType::kBoolean, ColumnType::kInteger,  ColumnType::kInteger,
                                      ColumnType::kDouble,  ColumnType::kDouble,   ColumnType::kText,
                                      ColumnType::kDate,    ColumnType::kTimestamp};
  for (std::size_t c = 0; c < types.size(); ++c) {
    EXPECT_EQ(result->column(c).type, types[c]) << result->column(c).name;
    EXPECT_TRUE(result->at(1, c).is_null()) << result->column(c).name;
  }
  EXPECT_EQ(result->column(4).sql_type, "DECIMAL(10,2)");
  EXPECT_EQ(result->at(0, 0), Value(false));
  EXPECT_EQ(result->at(0, 1), Value(-3));
  EXPECT_EQ(result->at(0, 2), Value(12));
  EXPECT_EQ(result->at(0, 4), Value(538.55));
  EXPECT_EQ(result->at(0, 6), Value("2024-02-29"));
  EXPECT_EQ(result->at(0, 7), Value("2024-02-29 13:45:00.25"));
}

TEST(DuckDbDatabase, ReadsNestedAndUnusualTypesAsText) {
  auto db = open_memory();
  ASSERT_NE(db, nullptr);

  auto result = db->query(
      "SELECT [1, 2] AS l, {'a': 1, 'b': 'x'} AS s, INTERVAL 3 DAY AS i, "
      "'00000000-0000-0000-0000-000000000001'::UUID AS u, 'x'::ENUM('x', 'y') AS e, MAP {'k': 1} AS m");

  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(result->at(0, 0), Value("[1, 2]"));
  EXPECT_EQ(result->at(0, 1), Value("{'a': 1, 'b': 'x'}"));
  EXPECT_EQ(result->at(0, 2), Value("3 days"));
  EXPECT_EQ(result->at(0, 3), Value("00000000-0000-0000-0000-000000000001"));
  EXPECT_EQ(result->at(0, 4), Value("x"));
  EXPECT_EQ(result->at(0, 5), Value("{'k'=1}"));
  EXPECT_EQ(result->column(0).type, ColumnType::kOther);
  EXPECT_EQ(result->column(0).sql_type, "INTEGER[]");
  EXPECT_EQ(result->column(4).type, ColumnType::kText);
}

TEST(DuckDbDatabase, ReadsResultsLongerThanOneChunk) {
  auto db = open_memory();
  ASSERT_NE(db, nullptr);

  auto result = db->query("SELECT range AS n FROM range(5000) ORDER BY n");

  ASSERT_TRUE(result) << result.error().describe();
  ASSERT_EQ(result->row_count(), 5000u);
  EXPECT_EQ(result->at(4999, 0), Value(4999));
}

TEST(DuckDbDatabase, MissingTableIsNotFoundWithTheEngineMessage) {
  auto db = open_memory();
  ASSERT_NE(db, nullptr);

  auto result = db->query("SELECT * FROM no_such_table");

  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, core::ErrorCode::kNotFound);
  EXPECT_NE(result.error().message.find("no_such_table"), std::string::npos) << result.error().message;
}

TEST(DuckDbDatabase, SyntaxErrorIsInvalidArgument) {
  auto db = open_memory();
  ASSERT_NE(db, nullptr);

  auto result = db->query("SELEC 1");

  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(result.error().message.find("syntax error"), std::string::npos) << result.error().message;
}

TEST(DuckDbDatabase, WrongParameterCountIsInvalidArgument) {
  auto db = open_memory();
  ASSERT_NE(db, nullptr);

  auto result = db->query("SELECT $1 + $2", {Value(1)});

  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(result.error().message, "the statement has 2 parameter(s) but 1 value(s) were given");
}

TEST(DuckDbDatabase, QueryRefusesAScriptAndExecRunsIt) {
  auto db = open_memory();
  ASSERT_NE(db, nullptr);
  const std::string script = "CREATE TABLE a (x INTEGER); INSERT INTO a VALUES (1), (2)";

  auto refused = db->query(script);
  auto ran = db->exec(script);

  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, core::ErrorCode::kInvalidArgument);
  ASSERT_TRUE(ran) << ran.error().describe();
  auto count = db->query("SELECT count(*) FROM a");
  ASSERT_TRUE(count);
  EXPECT_EQ(count->at(0, 0), Value(2));
}

TEST(DuckDbDatabase, ExplainAnalyzeGivesOperatorsWithActualCardinality) {
  auto db = open_memory();
  ASSERT_NE(db, nullptr);
  ASSERT_TRUE(db->exec("CREATE TABLE t AS SELECT range AS id, range % 7 AS g FROM range(1000)"));

  auto plan = db->explain_json("SELECT g, count(*) FROM t WHERE id > 10 GROUP BY g", /*analyze=*/true);

  ASSERT_TRUE(plan) << plan.error().describe();
  EXPECT_TRUE(any_node(*plan, [](const core::Json& node) {
    return node.contains("operator_name") &&
           node["operator_name"].get<std::string>().starts_with("SEQ_SCAN") &&
           node.value("operator_cardinality", -1) == 989 && node.contains("extra_info");
  })) << plan->dump(2);
}

TEST(DuckDbDatabase, ExplainWithoutAnalyzeGivesThePhysicalPlan) {
  auto db = open_memory();
  ASSERT_NE(db, nullptr);
  ASSERT_TRUE(db->exec("CREATE TABLE t (id INTEGER)"));

  auto plan = db->explain_json("SELECT id FROM t WHERE id = 3", /*analyze=*/false);

  ASSERT_TRUE(plan) << plan.error().describe();
  ASSERT_TRUE(plan->is_array()) << plan->dump(2);
  EXPECT_TRUE(any_node(*plan, [](const core::Json& node) {
    return node.contains("extra_info") && node["extra_info"].contains("Estimated Cardinality");
  })) << plan->dump(2);
}

TEST(DuckDbDatabase, ReadOnlyFileRefusesWrites) {
  TempDir dir;
  const std::string path = (dir.path() / "store.duckdb").string();
  {
    auto writable = DuckDbDatabase::open(path);
    ASSERT_TRUE(writable) << writable.error().describe();
    ASSERT_TRUE((*writable)->exec("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)"));
  }
  DatabaseOptions options;
  options.read_only = true;
  auto db = DuckDbDatabase::open(path, options);
  ASSERT_TRUE(db) << db.error().describe();

  auto read = (*db)->query("SELECT x FROM t");
  auto write = (*db)->exec("INSERT INTO t VALUES (2)");

  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(read->at(0, 0), Value(1));
  ASSERT_FALSE(write);
  EXPECT_EQ(write.error().code, core::ErrorCode::kFailedPrecondition) << write.error().message;
}

TEST(DuckDbDatabase, AWriteRefusedUnderAStatementTimeoutIsStillAFailedPrecondition) {
  TempDir dir;
  const std::string path = (dir.path() / "store.duckdb").string();
  {
    auto writable = DuckDbDatabase::open(path);
    ASSERT_TRUE(writable) << writable.error().describe();
    ASSERT_TRUE((*writable)->exec("CREATE TABLE t (x INTEGER)"));
  }
  DatabaseOptions options;
  options.read_only = true;
  options.statement_timeout = std::chrono::milliseconds(5000);
  auto db = DuckDbDatabase::open(path, options);
  ASSERT_TRUE(db) << db.error().describe();

  auto write = (*db)->query("DELETE FROM t");

  ASSERT_FALSE(write);
  EXPECT_EQ(write.error().code, core::ErrorCode::kFailedPrecondition) << write.error().message;
}

TEST(DuckDbDatabase, ReadOnlyOpenOfAMissingFileIsNotFound) {
  TempDir dir;
  DatabaseOptions options;
  options.read_only = true;

  auto db = DuckDbDatabase::open((dir.path() / "absent.duckdb").string(), options);

  ASSERT_FALSE(db);
  EXPECT_EQ(db.error().code, core::ErrorCode::kNotFound);
  EXPECT_NE(db.error().message.find("absent.duckdb"), std::string::npos);
}

TEST(DuckDbDatabase, OpeningAFileThatIsNotADatabaseFailsNamingIt) {
  TempDir dir;
  const auto path = dir.write("notes.duckdb", "just some text, not a database\n");

  auto db = DuckDbDatabase::open(path.string());

  ASSERT_FALSE(db);
  EXPECT_EQ(db.error().code, core::ErrorCode::kInvalidArgument) << "the input is at fault: exit 3, not 1";
  EXPECT_NE(db.error().message.find("notes.duckdb"), std::string::npos) << db.error().message;
  EXPECT_NE(db.error().message.find("not a valid DuckDB database file"), std::string::npos)
      << db.error().message;
}

TEST(DuckDbDatabase, StatementTimeoutInterruptsALongQuery) {
  DatabaseOptions options;
  options.statement_timeout = std::chrono::milliseconds(100);
  auto db = open_memory(options);
  ASSERT_NE(db, nullptr);

  auto result =
      db->query("SELECT count(*) FROM range(1000000000) a, range(1000) b WHERE a.range + b.range < 0");

  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, core::ErrorCode::kUnavailable);
  EXPECT_NE(result.error().message.find("statement timeout"), std::string::npos) << result.error().message;
}

TEST(DuckDbDatabase, TableNamesAreSorted) {
  auto db = open_memory();
  ASSERT_NE(db, nullptr);
  ASSERT_TRUE(
      db->exec("CREATE TABLE zeta (x INTEGER); CREATE TABLE alpha (x INTEGER); "
               "CREATE VIEW middle AS SELECT 1 AS x"));

  auto names = db->table_names();

  ASSERT_TRUE(names) << names.error().describe();
  EXPECT_EQ(*names, (std::vector<std::string>{"alpha", "middle", "zeta"}));
}

}  // namespace
}  // namespace planfirst::data
