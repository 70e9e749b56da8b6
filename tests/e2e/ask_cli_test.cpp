// planfirst ask / plan / resume as a user runs them: the seed 002 walkthrough on the bundled sales
// example, the confirmation checkpoint and its resume, and the errors a user can cause.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <set>
#include <string>

#include "e2e/command_runner.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::e2e {
namespace {

constexpr const char* kWalkthrough = "\"get revenue totals by region and product type over time\"";

class AskCli : public ::testing::Test {
 protected:
  std::string out() const { return (dir_.path() / "out").string(); }
  std::string store() const { return "sqlite:" + (dir_.path() / "checkpoints.sqlite").string(); }
  CommandOutcome ask(const std::string& data, const std::string& question, const std::string& extra = "") const {
    return run_command(planfirst("ask " + data + " " + question + " --out " + out() + " --checkpointer " + store() +
                                 " " + extra));
  }
  test_support::TempDir dir_;
};

nlohmann::json parsed(const CommandOutcome& run) {
  nlohmann::json json = nlohmann::json::parse(run.output, nullptr, false);
  EXPECT_FALSE(json.is_discarded()) << run.output;
  return json;
}

TEST_F(AskCli, TheSeedWalkthroughPlansCoversAndProducesALineChartAndATable) {
  const CommandOutcome run = ask(source("examples/sales.csv"), kWalkthrough, "--json");

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json result = parsed(run);
  EXPECT_EQ(result["requirements"], nlohmann::json::parse(R"({"metrics": ["revenue"],
      "group_by": ["region", "product_category"], "time": {"column": "date", "grain": "unknown"},
      "analysis": ["total", "compare", "trend"], "outputs": ["chart", "table"], "constraints": []})"));
  std::set<std::string> tools;
  for (const auto& tool : result["tools"]) tools.insert(tool["tool"].get<std::string>());
  for (const char* seed_tool :  // seed §3's final subset
       {"parse_datetime", "aggregate", "plot_line", "compute_summary_stats", "segment_metric", "plot_bar"}) {
    EXPECT_TRUE(tools.count(seed_tool)) << seed_tool;
  }
  EXPECT_TRUE(result["coverage"]["complete"].get<bool>());
  for (const auto& line : result["coverage"]["lines"]) EXPECT_TRUE(line["covered"].get<bool>()) << line;
  bool line_chart_by_category = false;
  for (const auto& step : result["plan"]["steps"]) {
    EXPECT_NE(step["tool"], "detect_anomalies");
    EXPECT_NE(step["tool"], "plot_histogram");
    if (step["tool"] == "plot_line") line_chart_by_category = step["params"]["color"] == "product_category";
  }
  EXPECT_TRUE(line_chart_by_category) << result["plan"];
  EXPECT_EQ(result["outcome"], "done");
  for (const char* file : {"plan.json", "report.md", "plot_line.vl.json", "result.csv", "result.md"}) {
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(out()) / file)) << file;
  }
}

TEST_F(AskCli, PlanStopsAfterTheCoverageCheckAndRunsNothing) {
  const CommandOutcome run = run_command(planfirst("plan " + source("examples/sales.csv") + " " + kWalkthrough +
                                                   " --json --checkpointer " + store()));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json result = parsed(run);
  EXPECT_TRUE(result["coverage"]["complete"].get<bool>());
  EXPECT_FALSE(result.contains("execution"));
}

TEST_F(AskCli, ConfirmPausesWithTheResumeCommandAndApproveFinishesTheRun) {
  const CommandOutcome paused = ask(source("examples/sales.csv"), kWalkthrough, "--confirm --json --thread t1");

  ASSERT_EQ(paused.exit_code, 0) << paused.output;
  const nlohmann::json pause = parsed(paused);
  ASSERT_EQ(pause["status"], "interrupted") << pause;
  EXPECT_FALSE(pause.contains("execution"));
  const std::string checkpoint = pause["checkpoint_id"].get<std::string>();
  EXPECT_NE(pause["resume"].get<std::string>().find("--checkpoint " + checkpoint), std::string::npos);

  const CommandOutcome done = run_command(planfirst("resume --thread t1 --checkpoint " + checkpoint +
                                                   " --answer approve --json --checkpointer " + store()));

  ASSERT_EQ(done.exit_code, 0) << done.output;
  EXPECT_EQ(parsed(done)["outcome"], "done");
}

TEST_F(AskCli, AQuestionNamingNoColumnListsTheColumns) {
  const CommandOutcome run = ask(source("examples/sales.csv"), "\"what is the weather like\"");

  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_NE(run.output.find("weather"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("product_category"), std::string::npos) << run.output;
}

TEST_F(AskCli, AMissingDatasetIsAnInputErrorNamingIt) {
  const CommandOutcome run = ask("/nonexistent/sales.csv", kWalkthrough);

  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_NE(run.output.find("/nonexistent/sales.csv"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace planfirst::e2e
