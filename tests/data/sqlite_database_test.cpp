#include "data/sqlite_database.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "support/temp_dir.hpp"

namespace planfirst::data {
namespace {

using test_support::TempDir;

std::unique_ptr<SqliteDatabase> open_memory(const DatabaseOptions& options = {}) {
  core::Result<std::unique_ptr<SqliteDatabase>> db = SqliteDatabase::open(":memory:", options);
  EXPECT_TRUE(db.has_value()) << db.error().describe();
  return db ? std::move(db).value() : nullptr;
}

TEST(SqliteDatabase, BindsParametersOfEveryType) {
  auto db = open_memory();
  ASSERT_NE(db, nullptr);

  auto result =
      db->query("SELECT $1 AS n, $2 AS b, $3 AS i, $4 AS d, $5 AS s",
                {Value(), Value(true), Value(std::int64_t{9000000000}), Value(2.5), Value("héllo")});

  ASSERT_TRUE(result) << result.error().describe();
  ASSERT_EQ(result->row_count(), 1u);
  EXPECT_TRUE(result->at(0, 0).is_null());
  EXPECT_EQ(result->at(0, 1), Value(1));  // SQLite has no boolean storage class: true binds as 1
  EXPECT_EQ(result->at(0, 2), Value(std::int64_t{9000000000}));
  EXPECT_EQ(result->at(0, 3), Value(2.5));
  EXPECT_EQ(result->at(0, 4), Value("héllo"));
  EXPECT_EQ(result->column(4).type, ColumnType::kText);
}

TEST(SqliteDatabase, DeclaredTypesGiveColumnTypes) {
  auto db = open_memory();
  ASSERT_NE(db, nullptr);
  ASSERT_TRUE(
      db->exec("CREATE TABLE t (b BOOLEAN, i INTEGER, r REAL, n NUMERIC(10,2), s TEXT, d DATE, "
               "ts DATETIME, x BLOB);"
               "INSERT INTO t VALUES (1, 7, 0.5, 3, 'a', '2024-01-02', '2024-01-02 03:04:05', x'00FF');"
               "INSERT INTO t VALUES (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)"));

  auto result = db->query("SELECT * FROM t ORDER BY i IS NULL");

  ASSERT_TRUE(result) << result.error().describe();
  const std::vector<ColumnType> types{ColumnType::kBoolean,   ColumnType::kInteger, ColumnType::kDouble,
                                      ColumnType::kDouble,    ColumnType::kText,    ColumnType::kDate,
                                      ColumnType::kTimestamp, ColumnType::kOther};
  for (std::size_t c = 0; c < types.size(); ++c) {
    EXPECT_EQ(result->column(c).type, types[c]) << result->column(c).name;
    EXPECT_TRUE(result->at(1, c).is_null()) << result->column(c).name;
  }
  EXPECT_EQ(result->at(0, 0), Value(true));
  EXPECT_EQ(result->at(0, 3), Value(3.0));
  EXPECT_EQ(result->at(0, 6), Value("2024-01-02 03:04:05"));
  EXPECT_EQ(result->at(0, 7), Value("\\x00\\xFF"));
  EXPECT_EQ(result->column(3).sql_type, "NUMERIC(10,2)");
}

TEST(SqliteDatabase, ExpressionColumnsTakeTheirTypeFromTheirValues) {
  auto db = open_memory();
  ASSERT_NE(db, nullptr);

  auto result = db->query("SELECT 1 + 1 AS two, 1.5 * 2 AS three, 'a' || 'b' AS ab");

  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(result->column(0).type, ColumnType::kInteger);
  EXPECT_EQ(result->column(1).type, ColumnType::kDouble);
  EXPECT_EQ(result->column(2).type, ColumnType::kText);
}

TEST(SqliteDatabase, ValuesThatDoNotFitTheDeclaredTypeMakeTheColumnOther) {
  auto db = open_memory();
  ASSERT_NE(db, nullptr);
  ASSERT_TRUE(db->exec("CREATE TABLE t (i INTEGER); INSERT INTO t VALUES (1), ('not a number')"));

  auto result = db->query("SELECT i FROM t ORDER BY rowid");

  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(result->column(0).type, ColumnType::kOther);
  EXPECT_EQ(result->at(1, 0), Value("not a number"));
}

TEST(SqliteDatabase, MissingTableIsNotFound) {
  auto db = open_memory();
  ASSERT_NE(db, nullptr);

  auto result = db->query("SELECT * FROM no_such_table");

  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, core::ErrorCode::kNotFound);
  EXPECT_EQ(result.error().message, "no such table: no_such_table");
}

TEST(SqliteDatabase, WrongParameterCountIsInvalidArgument) {
  auto db = open_memory();
  ASSERT_NE(db, nullptr);

  auto result = db->query("SELECT ?", {});

  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, core::ErrorCode::kInvalidArgument);
}

TEST(SqliteDatabase, QueryRefusesAScriptAndExecRunsIt) {
  auto db = open_memory();
  ASSERT_NE(db, nullptr);
  const std::string script = "CREATE TABLE a (x INTEGER); INSERT INTO a VALUES (1), (2);";

  auto refused = db->query(script);
  auto ran = db->exec(script);

  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, core::ErrorCode::kInvalidArgument);
  ASSERT_TRUE(ran) << ran.error().describe();
  auto count = db->query("SELECT count(*) FROM a;  ");
  ASSERT_TRUE(count) << count.error().describe();
  EXPECT_EQ(count->at(0, 0), Value(2));
}

TEST(SqliteDatabase, ExplainGivesTheQueryPlanAsATree) {
  auto db = open_memory();
  ASSERT_NE(db, nullptr);
  ASSERT_TRUE(db->exec("CREATE TABLE t (id INTEGER PRIMARY KEY, g TEXT); CREATE TABLE u (id INTEGER)"));

  auto plan = db->explain_json("SELECT * FROM t WHERE id IN (SELECT id FROM u)", /*analyze=*/false);

  ASSERT_TRUE(plan) << plan.error().describe();
  ASSERT_TRUE(plan->contains("plan")) << plan->dump(2);
  const core::Json& roots = (*plan)["plan"];
  ASSERT_FALSE(roots.empty()) << plan->dump(2);
  bool nested = false;
  for (const auto& root : roots) nested = nested || !root["children"].empty();
  EXPECT_TRUE(nested) << plan->dump(2);
  EXPECT_NE(plan->dump().find("SEARCH t USING INTEGER PRIMARY KEY"), std::string::npos) << plan->dump(2);
}

TEST(SqliteDatabase, ExplainAnalyzeIsRefused) {
  auto db = open_memory();
  ASSERT_NE(db, nullptr);

  auto plan = db->explain_json("SELECT 1", /*analyze=*/true);

  ASSERT_FALSE(plan);
  EXPECT_EQ(plan.error().code, core::ErrorCode::kInvalidArgument);
}

TEST(SqliteDatabase, ReadOnlyRefusesWrites) {
  TempDir dir;
  const std::string path = (dir.path() / "store.sqlite").string();
  {
    auto writable = SqliteDatabase::open(path);
    ASSERT_TRUE(writable) << writable.error().describe();
    ASSERT_TRUE((*writable)->exec("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)"));
  }
  DatabaseOptions options;
  options.read_only = true;
  auto db = SqliteDatabase::open(path, options);
  ASSERT_TRUE(db) << db.error().describe();

  auto write = (*db)->exec("INSERT INTO t VALUES (2)");

  ASSERT_FALSE(write);
  EXPECT_EQ(write.error().code, core::ErrorCode::kFailedPrecondition) << write.error().message;
}

TEST(SqliteDatabase, StatementTimeoutInterruptsALongQuery) {
  DatabaseOptions options;
  options.statement_timeout = std::chrono::milliseconds(100);
  auto db = open_memory(options);
  ASSERT_NE(db, nullptr);

  auto result = db->query(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n WHERE i < 0");

  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, core::ErrorCode::kUnavailable);
  EXPECT_NE(result.error().message.find("statement timeout"), std::string::npos) << result.error().message;
}

TEST(SqliteDatabase, TableNamesSkipSqliteInternals) {
  auto db = open_memory();
  ASSERT_NE(db, nullptr);
  ASSERT_TRUE(db->exec("CREATE TABLE b (x INTEGER PRIMARY KEY AUTOINCREMENT); CREATE TABLE a (x TEXT)"));

  auto names = db->table_names();

  ASSERT_TRUE(names) << names.error().describe();
  EXPECT_EQ(*names, (std::vector<std::string>{"a", "b"}));
}

}  // namespace
}  // namespace planfirst::data
