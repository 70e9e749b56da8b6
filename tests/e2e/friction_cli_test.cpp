// `planfirst friction` as a user runs it on the full generated example (300,000 contacts): every
// checkpoint approved with --yes, the report and the drivers file written, the figures summing to the
// file's rows, a question answered from the artifacts; a file without the required columns refused
// naming them; and the same graph driven through `planfirst graph run/resume`.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "e2e/command_runner.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::e2e {
namespace {

std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::vector<std::string> fields;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) fields.push_back(cell);
    rows.push_back(std::move(fields));
  }
  return rows;
}

TEST(FrictionCli, AnalysesTheFullExampleThroughEveryCheckpointAndAnswersAQuestion) {
  test_support::TempDir dir;
  const std::string data = (dir.path() / "contacts.csv").string();
  ASSERT_EQ(run_command(binary("examples/contacts_generator") + " " + data).exit_code, 0);
  const std::string out = (dir.path() / "out").string();

  const CommandOutcome run = run_command(
      planfirst("friction " + data + " --out " + out + " --yes --ask 'Which driver has the most contacts?'"));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  for (const char* prompt : {"Confirm scope and columns? [yes/no/JSON] approve (--yes)",
                             "Confirm buckets and filters? [yes/no/JSON] approve (--yes)",
                             "Proceed to Report Generation? [yes/no/JSON] approve (--yes)"}) {
    EXPECT_NE(run.output.find(prompt), std::string::npos) << prompt << "\n" << run.output;
  }
  EXPECT_NE(run.output.find("Scope: 300,000 contacts"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("[Critique Agent] Checked"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("all hold"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("Report: " + out + "/friction_report.html"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("A: Highest share of contacts: "), std::string::npos) << run.output;
  const std::vector<std::vector<std::string>> rows = csv_rows(read_text(out + "/drivers.csv"));
  ASSERT_EQ(rows.size(), 14u);  // header + 13 drivers
  EXPECT_EQ(rows[0][4], "contacts");
  long attributed = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) attributed += std::stol(rows[i][4]);
  EXPECT_GT(attributed, 250000);
  EXPECT_LT(attributed, 300000);  // routine requests (plan change, address update, enquiries) are no friction
  EXPECT_NE(read_text(out + "/friction_report.html").find("Drivers ranked by Impact x Ease"),
            std::string::npos);
  EXPECT_FALSE(read_text(out + "/charts/drivers.vl.json").empty());
}

TEST(FrictionCli, AnswersGivenOnTheCommandLineChangeTheFiltersAndTheReportsFocus) {
  test_support::TempDir dir;
  const std::string data = (dir.path() / "contacts.csv").string();
  ASSERT_EQ(run_command(binary("examples/contacts_generator") + " " + data + " 5000").exit_code, 0);
  const std::string out = (dir.path() / "out").string();

  const CommandOutcome run = run_command(
      planfirst("friction " + data + " --out " + out + " --yes --no-critique" +
                R"( --answer data_prep='{"filters": {"channels": ["phone"]}}')" +
                R"( --answer synthesizer='{"focus": {"lenses": ["policy"], "top_drivers": 2}}')"));
  const CommandOutcome bad =
      run_command(planfirst("friction " + data + " --out " + (dir.path() / "bad").string() +
                            R"( --yes --answer data_prep='{"filters": {"channels": ["fax"]}}')"));

  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find(R"(Filters: {"channels":["phone"]}.)"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("Report focus: lens Policy; top 2 drivers: 2 of "), std::string::npos)
      << run.output;
  const std::vector<std::vector<std::string>> rows = csv_rows(read_text(out + "/drivers.csv"));
  ASSERT_EQ(rows.size(), 3u);  // header + the two best policy drivers
  EXPECT_EQ(rows[1][1], "policy");
  EXPECT_EQ(rows[2][1], "policy");
  EXPECT_EQ(bad.exit_code, 3) << bad.output;
  EXPECT_NE(bad.output.find(R"(/filters/channels/0: "fax" is no channel of the data)"), std::string::npos)
      << bad.output;
}

TEST(FrictionCli, AFileWithoutTheRequiredColumnsIsAnInputErrorNamingThem) {
  test_support::TempDir dir;
  const std::filesystem::path data =
      dir.write("calls.csv", "call_id,started_at,channel,notes\nA1,2025-01-01 10:00:00,phone,login fails\n");

  const CommandOutcome run = run_command(
      planfirst("friction " + data.string() + " --out " + (dir.path() / "out").string() + " --yes"));

  EXPECT_EQ(run.exit_code, 3) << run.output;
  for (const char* field : {"handle time (", "transfers (", "repeat-contact flag (", "resolution ("}) {
    EXPECT_NE(run.output.find(field), std::string::npos) << field << "\n" << run.output;
  }
  EXPECT_NE(run.output.find("Its columns are: call_id, started_at, channel, notes"), std::string::npos)
      << run.output;
}

TEST(FrictionCli, TheGenericGraphRunnerPausesAtEachCheckpointAndResumesToTheReport) {
  test_support::TempDir dir;
  const std::string data = (dir.path() / "contacts.csv").string();
  ASSERT_EQ(run_command(binary("examples/contacts_generator") + " " + data + " 5000").exit_code, 0);
  const std::string store = "sqlite:" + (dir.path() / "checkpoints.sqlite").string();
  const std::filesystem::path input =
      dir.write("input.json",
                nlohmann::json{{"dataset_path", data}, {"output_dir", (dir.path() / "out").string()}}.dump());

  CommandOutcome step = run_command(
      planfirst("graph run friction --thread t1 --input " + input.string() + " --checkpointer " + store));
  std::vector<std::string> paused_at;
  for (int i = 0; i < 5 && step.exit_code == 0; ++i) {
    const nlohmann::json summary = nlohmann::json::parse(step.output, nullptr, false);
    ASSERT_FALSE(summary.is_discarded()) << step.output;
    if (summary["status"] != "interrupted") break;
    paused_at.push_back(summary["interrupt_node"]);
    step = run_command(planfirst("graph resume friction --thread t1 --checkpoint " +
                                 summary["checkpoint_id"].get<std::string>() +
                                 " --answer approve --checkpointer " + store));
  }

  ASSERT_EQ(step.exit_code, 0) << step.output;
  EXPECT_EQ(paused_at, (std::vector<std::string>{"data_discovery", "data_prep", "synthesizer"}));
  EXPECT_NE(step.output.find("\"status\":\"done\""), std::string::npos) << step.output;
  EXPECT_FALSE(read_text(dir.path() / "out" / "drivers.csv").empty());
}

}  // namespace
}  // namespace planfirst::e2e
