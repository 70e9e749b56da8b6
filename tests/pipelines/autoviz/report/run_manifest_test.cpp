// The run record in an output folder: a new run removes exactly the files the previous one recorded
// and left unchanged, never a file of the user's, never anything outside the folder; a folder of
// other files with no record is refused with nothing touched.
#include "pipelines/autoviz/report/run_manifest.hpp"

#include <gmock/gmock.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "core/content_hash.hpp"
#include "core/file_text.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::autoviz {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

class RunManifest : public ::testing::Test {
 protected:
  fs::path out() const { return dir_.path() / "out"; }
  fs::path write(const std::string& name, const std::string& bytes) const {
    const fs::path path = out() / name;
    fs::create_directories(path.parent_path());
    EXPECT_TRUE(core::write_file_atomically(path, bytes).has_value()) << path;
    return path;
  }
  // The names in out(), sorted.
  std::set<std::string> names() const {
    std::set<std::string> found;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(out())) {
      if (entry.is_regular_file()) found.insert(fs::relative(entry.path(), out()).generic_string());
    }
    return found;
  }
  test_support::TempDir dir_;
};

TEST_F(RunManifest, ANewRunRemovesTheFilesThePreviousRunRecordedAndNoOther) {
  const fs::path chart = write("plot_bar.svg", "<svg/>");
  const fs::path table = write("aggregate.csv", "region,revenue\nNorth,25\n");
  ASSERT_TRUE(record_run_files(out(), "total revenue by region", {chart, table}).has_value());
  write("notes.txt", "mine");

  core::Result<PreviousRun> previous = clear_previous_run(out());

  ASSERT_TRUE(previous.has_value()) << previous.error().describe();
  EXPECT_THAT(previous->removed, ElementsAre("plot_bar.svg", "aggregate.csv"));
  EXPECT_TRUE(previous->kept.empty());
  EXPECT_EQ(names(), (std::set<std::string>{".planfirst-run.json", "notes.txt"}));
  EXPECT_EQ(describe(*previous, out()),
            "replaced the previous run's 2 files in " + out().string() + " (\"total revenue by region\")");
}

TEST_F(RunManifest, AFileChangedSinceTheRunWroteItStopsTheNextRunWithNothingDeleted) {
  const fs::path report = write("report.md", "# Report\n");
  const fs::path chart = write("plot_bar.svg", "<svg/>");
  ASSERT_TRUE(record_run_files(out(), "q", {report, chart}).has_value());
  write("report.md", "# Report\nmy notes\n");

  core::Result<PreviousRun> previous = clear_previous_run(out());

  ASSERT_FALSE(previous.has_value());
  EXPECT_EQ(previous.error().code, core::ErrorCode::kFailedPrecondition);
  EXPECT_THAT(previous.error().message, HasSubstr("changed since it wrote them (report.md)"));
  EXPECT_EQ(*core::read_file_text(out() / "report.md"), "# Report\nmy notes\n");
  EXPECT_EQ(names(), (std::set<std::string>{".planfirst-run.json", "plot_bar.svg", "report.md"}));
}

TEST_F(RunManifest, AFileTheUserDeletedSinceIsNoObstacle) {
  const fs::path report = write("report.md", "# Report\n");
  const fs::path chart = write("plot_bar.svg", "<svg/>");
  ASSERT_TRUE(record_run_files(out(), "q", {report, chart}).has_value());
  fs::remove(report);

  core::Result<PreviousRun> previous = clear_previous_run(out());

  ASSERT_TRUE(previous.has_value()) << previous.error().describe();
  EXPECT_THAT(previous->removed, ElementsAre("plot_bar.svg"));
  EXPECT_TRUE(previous->kept.empty());
}

TEST_F(RunManifest, AFolderOfOtherFilesWithNoRecordIsRefusedAndLeftAsItWas) {
  write("notes.txt", "mine");
  write("plot_bar.svg", "<svg/>");

  core::Result<PreviousRun> previous = clear_previous_run(out());

  ASSERT_FALSE(previous.has_value());
  EXPECT_EQ(previous.error().code, core::ErrorCode::kFailedPrecondition);
  EXPECT_THAT(previous.error().message,
              HasSubstr("holds files planfirst did not write (notes.txt, plot_bar.svg)"));
  EXPECT_THAT(previous.error().message, HasSubstr("choose a new or empty folder with --out"));
  EXPECT_EQ(names(), (std::set<std::string>{"notes.txt", "plot_bar.svg"}));
}

TEST_F(RunManifest, AMissingOrEmptyFolderIsReadyAndGetsARecordOfNoFiles) {
  ASSERT_TRUE(check_output_folder(out()).has_value());

  core::Result<PreviousRun> previous = clear_previous_run(out());

  ASSERT_TRUE(previous.has_value()) << previous.error().describe();
  EXPECT_TRUE(previous->removed.empty());
  EXPECT_EQ(describe(*previous, out()), "");
  EXPECT_EQ(names(), (std::set<std::string>{".planfirst-run.json"}));
  EXPECT_TRUE(check_output_folder(out()).has_value()) << "a recorded folder takes the next run";
}

TEST_F(RunManifest, ARecordNamingFilesOutsideTheFolderRemovesNothingThere) {
  const fs::path outside = dir_.path() / "outside.txt";
  ASSERT_TRUE(core::write_file_atomically(outside, "keep").has_value());
  fs::create_directories(out());
  fs::create_directory_symlink(dir_.path(), out() / "link");
  // Each entry names outside.txt, with its true size and checksum, by another way out of the folder.
  nlohmann::json files = nlohmann::json::array();
  for (const std::string& path :
       {std::string("../outside.txt"), outside.string(), std::string("link/outside.txt")})
    files.push_back({{"path", path}, {"bytes", 4}, {"checksum", core::to_hex(core::checksum64("keep"))}});
  write(".planfirst-run.json", nlohmann::json{{"format", 1}, {"question", "q"}, {"files", files}}.dump());

  core::Result<PreviousRun> previous = clear_previous_run(out());

  ASSERT_TRUE(previous.has_value()) << previous.error().describe();
  EXPECT_TRUE(previous->removed.empty());
  EXPECT_EQ(previous->kept.size(), 3u);
  EXPECT_EQ(*core::read_file_text(outside), "keep");
}

TEST_F(RunManifest, AnUnreadableRecordIsRefusedNamingIt) {
  write(".planfirst-run.json", "{not json");
  write("report.md", "# Report\n");

  core::Result<void> checked = check_output_folder(out());

  ASSERT_FALSE(checked.has_value());
  EXPECT_EQ(checked.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_THAT(checked.error().where, HasSubstr(".planfirst-run.json"));
  EXPECT_TRUE(fs::exists(out() / "report.md"));
}

TEST_F(RunManifest, AFileIsNotAnOutputFolder) {
  fs::create_directories(dir_.path());
  const fs::path file = dir_.write("out", "a file");

  core::Result<void> checked = check_output_folder(file);

  ASSERT_FALSE(checked.has_value());
  EXPECT_THAT(checked.error().message, HasSubstr("is a file"));
}

}  // namespace
}  // namespace planfirst::autoviz
