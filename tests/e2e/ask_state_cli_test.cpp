// What `planfirst ask` leaves behind besides its answer: the output folder holds one run's files (a
// second run replaces the first's, never a file of the user's; a folder of the user's is refused),
// the checkpoint store holds references and previews rather than tables, the default store keeps
// only recent threads, and a confirmed run resumed writes what a direct run writes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "e2e/command_runner.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::e2e {
namespace {

namespace fs = std::filesystem;

class AskState : public ::testing::Test {
 protected:
  fs::path out() const { return dir_.path() / "out"; }
  std::string store() const { return "sqlite:" + (dir_.path() / "checkpoints.sqlite").string(); }
  CommandOutcome ask(const std::string& question, const std::string& extra = "") const {
    return run_command(planfirst("ask " + source("examples/sales.csv") + " \"" + question + "\" --out " +
                                 out().string() + " --checkpointer " + store() + " " + extra));
  }
  test_support::TempDir dir_;
};

// Every file under `dir`, relative to it.
std::set<std::string> files_in(const fs::path& dir) {
  std::set<std::string> names;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) names.insert(fs::relative(entry.path(), dir).generic_string());
  }
  return names;
}

// The run's files as its --json document lists them, relative to `dir`.
std::set<std::string> artifacts(const nlohmann::json& document, const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& file : document["artifacts"]) {
    names.insert(fs::path(file.get<std::string>()).lexically_relative(dir).generic_string());
  }
  return names;
}

TEST_F(AskState, ASecondRunIntoTheSameFolderLeavesItsOwnFilesAndTheUsersOnly) {
  const CommandOutcome first = ask("total revenue by region", "--json");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const std::set<std::string> first_files = artifacts(parsed(first), out());
  ASSERT_TRUE(first_files.count("plot_bar.vl.json")) << first.output;
  std::ofstream(out() / "notes.txt") << "the user's own file\n";

  const CommandOutcome second = ask("how many orders in 2024", "--json --explain");

  ASSERT_EQ(second.exit_code, 0) << second.output;
  const nlohmann::json document = parsed(second);
  std::set<std::string> expected = artifacts(document, out());
  EXPECT_FALSE(expected.count("plot_bar.vl.json")) << "the second question draws no chart";
  expected.insert({"notes.txt", ".planfirst-run.json"});
  EXPECT_EQ(files_in(out()), expected);
  EXPECT_EQ(read_text(out() / "notes.txt"), "the user's own file\n");
  EXPECT_NE(
      document["reasoning"].dump().find("Replaced the previous run's " + std::to_string(first_files.size()) +
                                        " files in " + out().string()),
      std::string::npos)
      << document["reasoning"];

  const CommandOutcome third = ask("how many orders in 2024");

  ASSERT_EQ(third.exit_code, 0) << third.output;
  EXPECT_NE(third.output.find(".. replaced the previous run's " +
                              std::to_string(artifacts(document, out()).size()) + " files in " +
                              out().string() + " (\"how many orders in 2024\")"),
            std::string::npos)
      << third.output;
}

TEST_F(AskState, AFolderOfOtherFilesWithNoRunRecordIsRefusedWithExit2AndLeftAlone) {
  fs::create_directories(out());
  std::ofstream(out() / "draft.md") << "# my draft\n";

  const CommandOutcome run = ask("total revenue by region");

  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("holds files planfirst did not write (draft.md)"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("choose a new or empty folder with --out"), std::string::npos) << run.output;
  EXPECT_EQ(files_in(out()), std::set<std::string>{"draft.md"});
}

// The sales example holds 59,599 rows (4.7 MB as CSV); a step kept up to 10,000 of them, and the
// checkpoints of one "how many" question took 4 MB. Now a step's table is its first 20 rows (the
// rows the reports show), so the state is the profile (about 3 KB), the plan, tools, coverage and
// reasoning (about 5 KB) and per step its params, SQL and 20 rows (under 4 KB on this data): well
// under 64 KiB, and far from any whole table.
TEST_F(AskState, TheCheckpointOfAnAskHoldsPreviewsAndCountsNotTables) {
  constexpr std::uint64_t kStateBound = 64 * 1024;
  const CommandOutcome run = ask("how many orders in 2024", "--thread big --json");
  ASSERT_EQ(run.exit_code, 0) << run.output;

  const CommandOutcome shown = run_command(planfirst("threads show big --checkpointer " + store()));

  ASSERT_EQ(shown.exit_code, 0) << shown.output;
  const std::size_t bytes_at = shown.output.find("stored bytes: ");
  ASSERT_NE(bytes_at, std::string::npos) << shown.output;
  const std::uint64_t stored = std::stoull(shown.output.substr(bytes_at + 14));
  EXPECT_LT(stored, kStateBound);
  const nlohmann::json state = nlohmann::json::parse(shown.output.substr(shown.output.find("state:\n") + 7));
  std::size_t largest_count = 0;
  for (const auto& step : state["execution"]["steps"]) {
    if (!step.contains("table")) continue;
    EXPECT_LE(step["table"].size(), 20u) << step["step_id"];
    ASSERT_TRUE(step.contains("row_count")) << step;
    largest_count = std::max(largest_count, step["row_count"].get<std::size_t>());
  }
  EXPECT_GT(largest_count, 20000u) << "a step over the year's orders counts them all";
  EXPECT_EQ(read_text(out() / "result.csv"),
            "count\n" +
                std::to_string(state["execution"]["steps"].back()["table"][0]["count"].get<std::int64_t>()) +
                "\n");
}

TEST_F(AskState, AConfirmedRunResumedWritesTheFilesADirectRunWrites) {
  const std::string question = "get revenue totals by region and product type over time";
  const CommandOutcome direct = ask(question, "--json");
  ASSERT_EQ(direct.exit_code, 0) << direct.output;
  const fs::path direct_out = dir_.path() / "direct";
  fs::rename(out(), direct_out);

  const CommandOutcome paused = ask(question, "--confirm --json --thread t1");
  ASSERT_EQ(paused.exit_code, 0) << paused.output;
  const CommandOutcome resumed = run_command(planfirst("resume --thread t1 --checkpoint " +
                                                       parsed(paused)["checkpoint_id"].get<std::string>() +
                                                       " --answer approve --json --checkpointer " + store()));

  ASSERT_EQ(resumed.exit_code, 0) << resumed.output;
  EXPECT_EQ(parsed(resumed)["outcome"], "done");
  EXPECT_EQ(files_in(out()), files_in(direct_out));
  for (const std::string& name : files_in(direct_out)) {
    if (name.ends_with(".csv") || name.ends_with(".vl.json") || name.ends_with(".md")) {
      EXPECT_EQ(read_text(out() / name), read_text(direct_out / name)) << name;
    }
  }
  const CommandOutcome shown = run_command(planfirst("threads show t1 --checkpointer " + store()));
  ASSERT_EQ(shown.exit_code, 0) << shown.output;
  const nlohmann::json state = nlohmann::json::parse(shown.output.substr(shown.output.find("state:\n") + 7));
  bool charted = false;
  for (const auto& step : state["execution"]["steps"]) {
    EXPECT_FALSE(step.contains("chart")) << "the spec and its data are in the step's file";
    if (!step.contains("chart_file")) continue;
    charted = true;
    EXPECT_TRUE(fs::exists(out() / step["chart_file"].get<std::string>())) << step;
    EXPECT_GT(step["chart_points"].get<int>(), 0) << step;
  }
  EXPECT_TRUE(charted) << state["execution"];
}

TEST_F(AskState, TheDefaultStoreKeepsTheNewestThreadsAndThreadsPruneAppliesTheSameRule) {
  const std::string env =
      "XDG_DATA_HOME=" + (dir_.path() / "data").string() + " PLANFIRST_CHECKPOINT_KEEP_THREADS=2 ";
  const std::string plan = "plan " + source("examples/sales.csv") + " \"total revenue by region\" --thread ";
  for (const char* thread : {"p1", "p2"}) {
    const CommandOutcome planned = run_command(env + planfirst(plan + thread));
    ASSERT_EQ(planned.exit_code, 0) << planned.output;
  }

  const CommandOutcome third = run_command(env + planfirst(plan + "p3"));

  ASSERT_EQ(third.exit_code, 0) << third.output;
  EXPECT_NE(
      third.output.find("checkpoints: removed 1 thread (keeping the newest 2, none older than 30 days)"),
      std::string::npos)
      << third.output;
  const CommandOutcome listed = run_command(env + planfirst("threads list"));
  ASSERT_EQ(listed.exit_code, 0) << listed.output;
  EXPECT_EQ(listed.output.find("p1 "), std::string::npos) << listed.output;
  EXPECT_NE(listed.output.find("p2 "), std::string::npos) << listed.output;
  EXPECT_NE(listed.output.find("p3 "), std::string::npos) << listed.output;

  const CommandOutcome pruned = run_command(env + planfirst("threads prune --keep-threads 1"));

  ASSERT_EQ(pruned.exit_code, 0) << pruned.output;
  EXPECT_NE(pruned.output.find("pruned threads: removed 1, kept 1\n  removed p2"), std::string::npos)
      << pruned.output;
}

}  // namespace
}  // namespace planfirst::e2e
