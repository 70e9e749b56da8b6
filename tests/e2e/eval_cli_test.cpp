// planfirst eval nl2vis as a user runs it: a small benchmark file beside its tables, the summary
// it prints, the same bytes on a second run, and the errors a broken file gives.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "e2e/command_runner.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::e2e {
namespace {

constexpr const char* kStaff =
    "id,name,dept,salary\n1,Ann,Sales,50\n2,Bob,Sales,60\n3,Cid,Ops,40\n4,Dee,Ops,45\n5,Eve,Ops,70\n6,Fay,"
    "Legal,80\n";

// The first question is planned exactly as the target; the second asks for a pie the target draws as bars.
constexpr const char* kCases =
    R"({"id": "a", "db_id": "hr", "question": "How many staff are there in each dept? Show a bar chart and sort by the y axis in descending order.", "table_csv": "tables/hr/staff.csv", "chart": "bar", "nvbench_chart": "bar", "x": "dept", "y": "*", "aggregate": "count", "distinct": false, "color": null, "bin": null, "sort": {"by": "y", "order": "desc"}, "limit": null, "filters": null, "having": null, "hardness": "Medium", "expected": {"columns": ["x", "y"], "rows": [["Ops", 3], ["Sales", 2], ["Legal", 1]], "zero_filled": false}}
{"id": "b", "db_id": "hr", "question": "What is the average salary for each dept? Show a pie chart.", "table_csv": "tables/hr/staff.csv", "chart": "bar", "nvbench_chart": "bar", "x": "dept", "y": "salary", "aggregate": "avg", "distinct": false, "color": null, "bin": null, "sort": null, "limit": null, "filters": null, "having": null, "hardness": "Easy", "expected": {"columns": ["x", "y"], "rows": [["Ops", 51.6667], ["Sales", 55], ["Legal", 80]], "zero_filled": false}}
)";

class EvalCli : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(dir_.path() / "tables" / "hr");
    std::ofstream(dir_.path() / "tables" / "hr" / "staff.csv") << kStaff;
    std::ofstream(file()) << kCases;
  }
  std::string file() const { return (dir_.path() / "dev.jsonl").string(); }
  test_support::TempDir dir_;
};

TEST_F(EvalCli, ScoresEachComponentAndTheDrawnRows) {
  const CommandOutcome run = run_command(planfirst("eval nl2vis " + file() + " --json --cases"));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json summary = nlohmann::json::parse(run.output, nullptr, false);
  ASSERT_FALSE(summary.is_discarded()) << run.output;
  EXPECT_EQ(summary["overall"]["n"], 2);
  EXPECT_EQ(summary["overall"]["exact"], 1) << summary["cases"];
  EXPECT_EQ(summary["overall"]["execution"], 2) << summary["cases"];
  EXPECT_EQ(summary["overall"]["components"]["chart"], 0.5);
  EXPECT_EQ(summary["cases"][1]["missed"], nlohmann::json::parse(R"(["chart"])"));
  EXPECT_EQ(summary["by_hardness"]["Medium"]["exact_rate"], 1.0);
  EXPECT_EQ(summary["planning"]["requirement_coverage_rate"], 1.0);
  EXPECT_EQ(summary["planning"]["unjustified_step_rate"], 0.0);
}

TEST_F(EvalCli, TheSameFileGivesTheSameBytes) {
  const CommandOutcome first = run_command(planfirst("eval nl2vis " + file() + " --json"));
  const CommandOutcome second = run_command(planfirst("eval nl2vis " + file() + " --json"));

  ASSERT_EQ(first.exit_code, 0) << first.output;
  EXPECT_NE(first.output.find("\"overall\""), std::string::npos) << first.output;
  EXPECT_EQ(first.output, second.output);
}

TEST_F(EvalCli, AQuestionThatOnlyListsIsStillAskedForAChart) {
  std::ofstream(file())
      << R"({"id": "l", "db_id": "hr", "question": "List each dept and the number of staff in it.", "table_csv": "tables/hr/staff.csv", "chart": "bar", "nvbench_chart": "bar", "x": "dept", "y": "*", "aggregate": "count", "distinct": false, "color": null, "bin": null, "sort": null, "limit": null, "filters": null, "having": null, "hardness": "Easy", "expected": {"columns": ["x", "y"], "rows": [["Legal", 1], ["Ops", 3], ["Sales", 2]], "zero_filled": false}})"
      << "\n";

  const CommandOutcome run = run_command(planfirst("eval nl2vis " + file() + " --json --cases"));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json summary = nlohmann::json::parse(run.output, nullptr, false);
  ASSERT_FALSE(summary.is_discarded()) << run.output;
  EXPECT_EQ(summary["cases"][0]["predicted"]["chart"], "bar") << summary["cases"];
  EXPECT_EQ(summary["overall"]["execution"], 1) << summary["cases"];
}

TEST_F(EvalCli, ABrokenFileIsAnInputErrorNamingTheLine) {
  std::ofstream(file(), std::ios::app) << "{\"id\": \"c\", \"question\": \"q\"\n";

  const CommandOutcome broken = run_command(planfirst("eval nl2vis " + file()));
  const CommandOutcome missing =
      run_command(planfirst("eval nl2vis " + (dir_.path() / "none.jsonl").string()));

  EXPECT_EQ(broken.exit_code, 3) << broken.output;
  EXPECT_NE(broken.output.find("dev.jsonl:3"), std::string::npos) << broken.output;
  EXPECT_EQ(missing.exit_code, 3) << missing.output;
  EXPECT_NE(missing.output.find("none.jsonl"), std::string::npos) << missing.output;
}

}  // namespace
}  // namespace planfirst::e2e
