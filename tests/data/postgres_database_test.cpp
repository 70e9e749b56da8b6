#include "data/postgres_database.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "support/postgres_server.hpp"

namespace planfirst::data {
namespace {

using test_support::PostgresServer;

// Connects to this program's throwaway server; fails the test with the reason when it cannot.
std::unique_ptr<PostgresDatabase> connect(const DatabaseOptions& options = {}) {
  std::string failure;
  PostgresServer* server = PostgresServer::shared(&failure);
  EXPECT_NE(server, nullptr) << "cannot start PostgreSQL: " << failure;
  if (server == nullptr) return nullptr;
  core::Result<std::unique_ptr<PostgresDatabase>> db = PostgresDatabase::connect(server->uri(), options);
  EXPECT_TRUE(db.has_value()) << db.error().describe();
  return db ? std::move(db).value() : nullptr;
}

bool any_node(const core::Json& node, const std::function<bool(const core::Json&)>& match) {
  if (node.is_object() && match(node)) return true;
  if (node.is_object() || node.is_array()) {
    for (const auto& child : node) {
      if (any_node(child, match)) return true;
    }
  }
  return false;
}

TEST(PostgresDatabase, BindsParametersOfEveryType) {
  auto db = connect();
  ASSERT_NE(db, nullptr);

  auto result =
      db->query("SELECT $1::int AS n, $2 AS b, $3 AS i, $4 AS d, $5 AS s",
                {Value(), Value(true), Value(std::int64_t{9000000000}), Value(2.5), Value("héllo 'x'")});

  ASSERT_TRUE(result) << result.error().describe();
  ASSERT_EQ(result->row_count(), 1u);
  EXPECT_TRUE(result->at(0, 0).is_null());
  EXPECT_EQ(result->at(0, 1), Value(true));
  EXPECT_EQ(result->at(0, 2), Value(std::int64_t{9000000000}));
  EXPECT_EQ(result->at(0, 3), Value(2.5));
  EXPECT_EQ(result->at(0, 4), Value("héllo 'x'"));
  EXPECT_EQ(result->column(1).type, ColumnType::kBoolean);
  EXPECT_EQ(result->column(2).sql_type, "int8");
}

TEST(PostgresDatabase, TextParametersTakeTheTypeTheirContextNeeds) {
  auto db = connect();
  ASSERT_NE(db, nullptr);

  auto result =
      db->query("SELECT $1::date + 1 AS next_day, 40 + $2 AS sum", {Value("2024-02-28"), Value("2")});

  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(result->at(0, 0), Value("2024-02-29"));
  EXPECT_EQ(result->at(0, 1), Value(42));
}

TEST(PostgresDatabase, ReadsEachColumnTypeIntoItsKind) {
  auto db = connect();
  ASSERT_NE(db, nullptr);

  auto result = db->query(
      "SELECT false AS b, 7::int4 AS i, 538.55::numeric(10,2) AS m, 0.125::float8 AS d, 'x'::varchar AS s, "
      "DATE '2024-02-29' AS day, TIMESTAMP '2024-02-29 13:45:00.25' AS at, '{\"a\": 1}'::jsonb AS j, "
      "NULL::int8 AS missing");

  ASSERT_TRUE(result) << result.error().describe();
  const std::vector<ColumnType> types{ColumnType::kBoolean,   ColumnType::kInteger, ColumnType::kDouble,
                                      ColumnType::kDouble,    ColumnType::kText,    ColumnType::kDate,
                                      ColumnType::kTimestamp, ColumnType::kOther,   ColumnType::kInteger};
  for (std::size_t c = 0; c < types.size(); ++c) EXPECT_EQ(result->column(c).type, types[c]) << c;
  EXPECT_EQ(result->at(0, 0), Value(false));
  EXPECT_EQ(result->at(0, 2), Value(538.55));
  EXPECT_EQ(result->at(0, 5), Value("2024-02-29"));
  EXPECT_EQ(result->at(0, 6), Value("2024-02-29 13:45:00.25"));
  EXPECT_EQ(result->at(0, 7), Value("{\"a\": 1}"));
  EXPECT_EQ(result->column(7).sql_type, "jsonb");
  EXPECT_TRUE(result->at(0, 8).is_null());
}

TEST(PostgresDatabase, MissingTableIsNotFoundWithTheServerMessage) {
  auto db = connect();
  ASSERT_NE(db, nullptr);

  auto result = db->query("SELECT * FROM no_such_table");

  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, core::ErrorCode::kNotFound);
  EXPECT_NE(result.error().message.find("relation \"no_such_table\" does not exist"), std::string::npos)
      << result.error().message;
}

TEST(PostgresDatabase, SyntaxErrorIsInvalidArgument) {
  auto db = connect();
  ASSERT_NE(db, nullptr);

  auto result = db->query("SELEC 1");

  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(result.error().message.find("syntax error"), std::string::npos) << result.error().message;
}

TEST(PostgresDatabase, ExecRunsAScript) {
  auto db = connect();
  ASSERT_NE(db, nullptr);

  auto ran = db->exec(
      "DROP TABLE IF EXISTS script_t; CREATE TABLE script_t (x int); "
      "INSERT INTO script_t VALUES (1), (2);");

  ASSERT_TRUE(ran) << ran.error().describe();
  auto count = db->query("SELECT count(*) FROM script_t");
  ASSERT_TRUE(count) << count.error().describe();
  EXPECT_EQ(count->at(0, 0), Value(2));
}

TEST(PostgresDatabase, ExplainAnalyzeGivesPlanWithActualRows) {
  auto db = connect();
  ASSERT_NE(db, nullptr);
  ASSERT_TRUE(
      db->exec("DROP TABLE IF EXISTS explained; CREATE TABLE explained AS "
               "SELECT g AS id, g % 7 AS k FROM generate_series(1, 1000) AS g; ANALYZE explained"));

  auto plan =
      db->explain_json("SELECT k, count(*) FROM explained WHERE id > 10 GROUP BY k", /*analyze=*/true);

  ASSERT_TRUE(plan) << plan.error().describe();
  ASSERT_TRUE(plan->is_array()) << plan->dump(2);
  ASSERT_TRUE((*plan)[0].contains("Plan")) << plan->dump(2);
  EXPECT_TRUE(any_node((*plan)[0]["Plan"], [](const core::Json& node) {
    return node.value("Node Type", "") == "Seq Scan" && node.value("Actual Rows", -1) == 990;
  })) << plan->dump(2);
}

TEST(PostgresDatabase, ExplainWithoutAnalyzeHasEstimatesOnly) {
  auto db = connect();
  ASSERT_NE(db, nullptr);

  auto plan = db->explain_json("SELECT 1", /*analyze=*/false);

  ASSERT_TRUE(plan) << plan.error().describe();
  ASSERT_TRUE((*plan)[0].contains("Plan")) << plan->dump(2);
  EXPECT_TRUE((*plan)[0]["Plan"].contains("Plan Rows"));
  EXPECT_FALSE((*plan)[0]["Plan"].contains("Actual Rows"));
}

TEST(PostgresDatabase, ReadOnlyModeRefusesAWrite) {
  auto writer = connect();
  ASSERT_NE(writer, nullptr);
  ASSERT_TRUE(writer->exec("DROP TABLE IF EXISTS guarded; CREATE TABLE guarded (x int)"));
  DatabaseOptions options;
  options.read_only = true;
  auto db = connect(options);
  ASSERT_NE(db, nullptr);

  auto read = db->query("SELECT count(*) FROM guarded");
  auto write = db->query("INSERT INTO guarded VALUES (1)");

  ASSERT_TRUE(read) << read.error().describe();
  ASSERT_FALSE(write);
  EXPECT_EQ(write.error().code, core::ErrorCode::kFailedPrecondition);
  EXPECT_NE(write.error().message.find("read-only transaction"), std::string::npos) << write.error().message;
}

TEST(PostgresDatabase, StatementTimeoutCancelsASlowStatementWithAClearError) {
  DatabaseOptions options;
  options.statement_timeout = std::chrono::milliseconds(200);
  auto db = connect(options);
  ASSERT_NE(db, nullptr);

  auto result = db->query("SELECT pg_sleep(5)");

  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code, core::ErrorCode::kUnavailable);
  EXPECT_NE(result.error().message.find("statement timeout: PostgreSQL canceled the statement after 200 ms"),
            std::string::npos)
      << result.error().message;
  auto after = db->query("SELECT 1");
  EXPECT_TRUE(after) << "the connection stays usable after a timeout";
}

TEST(PostgresDatabase, ConnectionFailureIsUnavailableWithLibpqMessage) {
  auto db = PostgresDatabase::connect("postgresql://postgres@127.0.0.1:1/postgres?connect_timeout=5");

  ASSERT_FALSE(db);
  EXPECT_EQ(db.error().code, core::ErrorCode::kUnavailable);
  EXPECT_NE(db.error().message.find("cannot connect to PostgreSQL"), std::string::npos);
  EXPECT_NE(db.error().message.find("127.0.0.1"), std::string::npos) << db.error().message;
}

TEST(PostgresDatabase, TableNamesListTheCurrentSchema) {
  auto db = connect();
  ASSERT_NE(db, nullptr);
  ASSERT_TRUE(
      db->exec("DROP TABLE IF EXISTS listed_b, listed_a; CREATE TABLE listed_b (x int); "
               "CREATE TABLE listed_a (x int)"));

  auto names = db->table_names();

  ASSERT_TRUE(names) << names.error().describe();
  const auto a = std::find(names->begin(), names->end(), "listed_a");
  const auto b = std::find(names->begin(), names->end(), "listed_b");
  ASSERT_NE(a, names->end());
  ASSERT_NE(b, names->end());
  EXPECT_LT(a, b);
}

}  // namespace
}  // namespace planfirst::data
