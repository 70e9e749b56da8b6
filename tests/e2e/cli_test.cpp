// The planfirst command as a user runs it: documented exit codes (0 ok, 1 check failed, 2 usage,
// 3 input error), the profile of the bundled example, and the contract check of a saved LLM reply.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "e2e/command_runner.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::e2e {
namespace {

TEST(Cli, VersionPrintsTheProgramVersion) {
  const CommandOutcome run = run_command(planfirst("--version"));

  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.output.rfind("planfirst ", 0), 0u) << run.output;
}

// HTTP and TLS live in a module loaded on first use (core/http_module.hpp): an offline plan never
// loads OpenSSL. LD_DEBUG=libs makes the loader name every library it initializes.
TEST(Cli, AnOfflinePlanLoadsNoTls) {
  const CommandOutcome run = run_command(
      "LD_DEBUG=libs " + planfirst("plan " + source("examples/sales.csv") + " 'total revenue by region'"));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  ASSERT_NE(run.output.find("calling init: "), std::string::npos) << "LD_DEBUG named no library";
  EXPECT_EQ(run.output.find("libssl"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("libcrypto"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("libplanfirst_http"), std::string::npos) << run.output;
}

TEST(Cli, UnknownSubcommandIsAUsageErrorThatNamesItAndListsTheCommands) {
  const CommandOutcome run = run_command(planfirst("frobnicate"));

  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("unknown command 'frobnicate'; the commands are: profile, "), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("ask, plan, resume"), std::string::npos) << run.output;
}

TEST(Cli, ADirectoryInsteadOfADataFileIsAnInputErrorSayingSo) {
  const CommandOutcome run = run_command(planfirst("ask " + source("examples") + " 'revenue by region'"));

  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_NE(run.output.find(source("examples") + ": is a directory; pass a data file"), std::string::npos)
      << run.output;
}

TEST(Cli, ProfileOfTheSalesExampleNamesEveryColumnWithItsRole) {
  const CommandOutcome run = run_command(planfirst("profile --json " + source("examples/sales.csv")));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json profile = nlohmann::json::parse(run.output);
  std::map<std::string, std::string> roles;
  for (const auto& column : profile.at("columns")) roles[column.at("name")] = column.at("role");
  EXPECT_EQ(roles.at("date"), "temporal");
  EXPECT_EQ(roles.at("order_id"), "identifier");
  EXPECT_EQ(roles.at("revenue"), "measure");
  EXPECT_EQ(roles.at("region"), "categorical");
  EXPECT_EQ(roles.at("product_category"), "categorical");
}

TEST(Cli, ProfileIsTheSameBytesTwice) {
  const std::string command = planfirst("profile --json " + source("examples/sales.csv"));

  const CommandOutcome first = run_command(command);
  const CommandOutcome second = run_command(command);

  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_EQ(first.output, second.output);
}

TEST(Cli, ProfileOfAMissingFileIsAnInputErrorNamingTheFile) {
  const CommandOutcome run = run_command(planfirst("profile /nonexistent/orders.csv"));

  EXPECT_EQ(run.exit_code, 3);
  EXPECT_NE(run.output.find("/nonexistent/orders.csv"), std::string::npos) << run.output;
}

TEST(Cli, ProfileOfARaggedCsvNamesTheLine) {
  const test_support::TempDir dir;
  const auto csv = dir.write("ragged.csv", "a,b,c\n1,2,3\n4,5,6\n7,8,9,10\n");

  const CommandOutcome run = run_command(planfirst("profile " + csv.string()));

  EXPECT_EQ(run.exit_code, 3);
  EXPECT_NE(run.output.find("ragged.csv:4"), std::string::npos) << run.output;
}

TEST(Cli, ContractCheckOfAReplyWithAnUnknownRequestTypeFailsNamingThePointer) {
  const test_support::TempDir dir;
  const auto reply =
      dir.write("reply.txt",
                "Sure! Here is the plan you asked for:\n\n```json\n"
                "{\"intent\": \"query_sprint_completion_rate\", \"request_type\": \"STATUS_REPORT\",\n"
                " \"track\": \"QUALITY\", \"required_sources\": [\"db\"],\n"
                " \"missing_info_questions\": [], \"expected_output_schema\": \"status_metric_v1_json\"}\n"
                "```\nLet me know if you need more.\n");

  const CommandOutcome run = run_command(planfirst("contract check analyst_plan " + reply.string()));

  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("/request_type"), std::string::npos) << run.output;
}

TEST(Cli, ContractCheckAcceptsTheSeedsStatusMetricExample) {
  const test_support::TempDir dir;
  const auto reply =
      dir.write("good_reply.txt",
                "{\"intent\": \"query_sprint_completion_rate\", \"request_type\": \"STATUS_METRIC\","
                " \"track\": \"QUALITY\", \"required_sources\": [\"db\"],"
                " \"missing_info_questions\": [], \"expected_output_schema\": \"status_metric_v1_json\"}");

  const CommandOutcome run = run_command(planfirst("contract check analyst_plan " + reply.string()));

  EXPECT_EQ(run.exit_code, 0) << run.output;
}

TEST(Cli, ConfigWithAnUnknownKeyIsAnInputErrorNamingTheKeyAndLine) {
  const test_support::TempDir dir;
  const auto config = dir.write("bad.toml", "[llm]\nmodel = \"m\"\nbse_url = \"http://localhost\"\n");

  const CommandOutcome run = run_command(planfirst("--config " + config.string() + " contract list"));

  EXPECT_EQ(run.exit_code, 3);
  EXPECT_NE(run.output.find("llm.bse_url"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find(":3"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace planfirst::e2e
