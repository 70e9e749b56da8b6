// What `planfirst ask` leaves behind besides its answer: the output folder holds one run's files (a
// second run replaces the first's, never a file of the user's; a folder of the user's is refused).
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

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
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

}  // namespace
}  // namespace planfirst::e2e
