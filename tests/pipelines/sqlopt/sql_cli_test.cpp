// planfirst sql as a user runs it: exit codes and messages for each kind of failure, and the --json
// shape of analyze on both engines.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "data/duckdb_database.hpp"
#include "data/postgres_database.hpp"
#include "e2e/command_runner.hpp"
#include "retail_fixture.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::sqlopt {
namespace {

using e2e::CommandOutcome;

// `planfirst sql ARGS`, its exit code and output (stdout alone without `with_stderr`).
CommandOutcome planfirst_sql(const std::string& args, bool with_stderr = true) {
  const std::string command = e2e::planfirst("sql " + args);
  return e2e::run_command(with_stderr ? command : "(" + command + " 2>/dev/null)");
}

std::string example(const std::string& name) {
  return e2e::source("examples/sqlopt/queries/" + name);
}

class SqlCli : public ::testing::Test {
 protected:
  test_support::TempDir dir_;
};

TEST_F(SqlCli, AnalyzePrintsTheDocumentedJsonOnBothEngines) {
  for (const std::string& uri : {testing::retail_duckdb_uri(), testing::retail_postgres_uri()}) {
    const CommandOutcome run =
        planfirst_sql("analyze --db '" + uri + "' " + example("decorrelation_scalar.sql") + " --json", false);

    ASSERT_EQ(run.exit_code, 0) << run.output;
    const core::Json json = core::Json::parse(run.output);
    for (const char* key : {"engine", "tree", "qerror", "findings", "candidates", "best"})
      EXPECT_TRUE(json.contains(key)) << key;
    EXPECT_FALSE(json["findings"].empty());
    EXPECT_EQ(json["findings"][0]["transform"], "decorrelation");
    EXPECT_TRUE(json["tree"]["text"].get<std::string>().find("customers") != std::string::npos);
  }
}

// The version the database itself reports, asked directly.
std::string direct_version(const std::string& uri) {
  if (uri.starts_with("duckdb:")) {
    auto duck = data::DuckDbDatabase::open(":memory:");
    if (!duck) return "unopenable";
    auto rows = (*duck)->query("SELECT library_version FROM pragma_version()");
    return rows ? rows->at(0, 0).to_string() : "no answer";
  }
  auto db = data::PostgresDatabase::connect(uri);
  if (!db) return "unreachable";
  auto rows = (*db)->query("SELECT current_setting('server_version')");
  return rows ? rows->at(0, 0).to_string() : "no answer";
}

TEST_F(SqlCli, AnalyzeNamesTheEngineProfileTheRunningVersionAndWhatItLeavesToTheOptimizer) {
  for (const std::string& uri : {testing::retail_duckdb_uri(), testing::retail_postgres_uri()}) {
    SCOPED_TRACE(uri);
    const CommandOutcome json =
        planfirst_sql("analyze --db '" + uri + "' " + example("control_cte_once.sql") + " --json", false);
    const CommandOutcome text =
        planfirst_sql("analyze --db '" + uri + "' " + example("control_cte_once.sql"), false);

    ASSERT_EQ(json.exit_code, 0) << json.output;
    const core::Json doc = core::Json::parse(json.output);
    const std::string version = direct_version(uri);
    EXPECT_EQ(doc["engine_profile"]["running_version"], version);
    EXPECT_EQ(doc["engine_profile"]["version_matches"], true);
    ASSERT_EQ(doc["left_to_optimizer"].size(), 1u);
    EXPECT_EQ(doc["left_to_optimizer"][0]["strength"], "cte_inlining");
    EXPECT_TRUE(doc["findings"].empty()) << doc["findings"].dump();
    const std::string bare = version.substr(version.starts_with("v") ? 1 : 0,
                                            version.find(' ') - (version.starts_with("v") ? 1 : 0));
    EXPECT_NE(text.output.find("; this database runs " + bare + "\n"), std::string::npos) << text.output;
    EXPECT_EQ(text.output.find("Note: the running version"), std::string::npos) << text.output;
    EXPECT_NE(text.output.find("- left to the optimizer: global_predicate_pushdown of cte:customer_totals "
                               "(strength cte_inlining"),
              std::string::npos)
        << text.output;
  }
}

TEST_F(SqlCli, OptimizeSaysWhenHypoPgIsNotInstalledAndHasNoIndexHypothesesOnDuckDb) {
  auto admin = data::PostgresDatabase::connect(testing::retail_postgres_uri());
  ASSERT_TRUE(admin.has_value()) << admin.error().describe();
  ASSERT_TRUE((*admin)->exec("DROP EXTENSION IF EXISTS hypopg").has_value());

  const CommandOutcome postgres = planfirst_sql(
      "optimize --db '" + testing::retail_postgres_uri() + "' " + example("control_cte_once.sql"), false);
  const CommandOutcome duckdb = planfirst_sql(
      "optimize --db '" + testing::retail_duckdb_uri() + "' " + example("control_cte_once.sql") + " --json",
      false);

  ASSERT_EQ(postgres.exit_code, 0) << postgres.output;
  EXPECT_NE(postgres.output.find("Index hypotheses (HypoPG; planner estimates, not measured):\n"
                                 "  HypoPG is not installed in this database; no index hypotheses\n"),
            std::string::npos)
      << postgres.output;
  ASSERT_EQ(duckdb.exit_code, 0) << duckdb.output;
  const core::Json json = core::Json::parse(duckdb.output);
  ASSERT_TRUE(json.contains("index_hypotheses"));
  EXPECT_TRUE(json["index_hypotheses"].is_null());
}

TEST_F(SqlCli, RefusesAStatementThatIsNotASelectWithExit3) {
  const auto file = dir_.write("drop.sql", "DROP TABLE orders;");

  const CommandOutcome run =
      planfirst_sql("analyze --db '" + testing::retail_duckdb_uri() + "' " + file.string());

  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_NE(run.output.find("refused: DropStmt is not a SELECT"), std::string::npos) << run.output;
}

TEST_F(SqlCli, NamesLineAndColumnOfASqlParseError) {
  const auto file = dir_.write("typo.sql", "SELECT a\nFROM orders\nWHERE amount > > 3");

  const CommandOutcome run =
      planfirst_sql("analyze --db '" + testing::retail_duckdb_uri() + "' " + file.string());

  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_NE(run.output.find("typo.sql: line 3, column 16"), std::string::npos) << run.output;
}

TEST_F(SqlCli, NamesTheFieldOfAMalformedPlanWithExit3) {
  const auto file = dir_.write("plan.json", R"([{"Plan": {"Node Type": "Seq Scan", "Actual Rows": -4}}])");

  const CommandOutcome run = planfirst_sql("analyze --plan " + file.string());

  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_NE(run.output.find("plan.json at /0/Plan/Actual Rows: expected a finite number >= 0"),
            std::string::npos)
      << run.output;
}

TEST_F(SqlCli, AnalyzesACapturedPlanWithoutADatabase) {
  const auto file = dir_.write("plan.json", R"([{"Plan": {"Node Type": "Seq Scan", "Relation Name": "orders",
    "Plan Rows": 10, "Actual Rows": 1000, "Actual Loops": 1, "Actual Total Time": 2.0}, "Execution Time": 2.5}])");

  const CommandOutcome run = planfirst_sql("analyze --plan " + file.string());

  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("Seq Scan orders | 1.0K rows (est 10) | 2.0 ms 80%"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("Worst misestimate: UNDER at SCAN"), std::string::npos) << run.output;
}

TEST_F(SqlCli, ReportsATimeoutWithExit1) {
  const auto file =
      dir_.write("slow.sql", "SELECT COUNT(*) FROM orders a, orders b WHERE a.amount < b.amount");

  const CommandOutcome run = planfirst_sql("analyze --db '" + testing::retail_postgres_uri() + "' " +
                                           file.string() + " --timeout 0.2");

  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("statement timeout"), std::string::npos) << run.output;
}

TEST_F(SqlCli, ReportsAnUnreachableDatabaseWithExit1) {
  const CommandOutcome run =
      planfirst_sql("analyze --db 'postgresql://postgres@127.0.0.1:1/postgres?connect_timeout=2' " +
                    example("control_in.sql"));

  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("cannot connect to PostgreSQL"), std::string::npos) << run.output;
}

TEST_F(SqlCli, ValidateTellsDifferentRowsWithExit1) {
  const auto a = dir_.write("a.sql", "SELECT customer_id FROM customers WHERE region = 'west'");
  const auto b = dir_.write("b.sql", "SELECT customer_id FROM customers WHERE region = 'south'");

  const CommandOutcome run =
      planfirst_sql("validate --db '" + testing::retail_duckdb_uri() + "' " + a.string() + " " + b.string());

  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("Rows: differ: 400 rows against 1200"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("Verdict: NOT_EQUIVALENT"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace planfirst::sqlopt
