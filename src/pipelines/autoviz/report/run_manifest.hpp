// The record a run leaves in its output folder, `.planfirst-run.json`: the question and every file
// the run wrote there, each with its size and checksum. The next run into the folder removes exactly
// those files, so a second run never sits beside the first one's charts, and nothing the user wrote
// is deleted or overwritten: a name that leads out of the folder is never touched, a recorded file
// the user changed since stops the next run (kFailedPrecondition), and so does a folder that holds
// anything but no record, since its files cannot be told from a run's. Format version 1:
//   {"format": 1, "question": "...", "files": [{"path": "report.md", "bytes": 812, "checksum": "..."}]}
// Free functions over the file system; callers into one folder take turns.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace planfirst::autoviz {

inline constexpr std::string_view kRunManifestName = ".planfirst-run.json";
inline constexpr int kRunManifestFormat = 1;

struct PreviousRun {                 // what clear_previous_run found in the folder
  std::string question;              // the previous run's question; empty without a record
  std::vector<std::string> removed;  // its files, deleted, relative to the folder, in recorded order
  std::vector<std::string> kept;     // names it recorded that lead out of the folder, left alone
};

// Whether a run may write into `dir`: a missing or empty folder, or one holding a run record whose
// files are unchanged (or gone). A folder holding other entries and no record, or a recorded file
// changed since, is kFailedPrecondition naming a few of them; a path that is not a folder, or a
// record that cannot be read, is kInvalidArgument naming it.
core::Result<void> check_output_folder(const std::filesystem::path& dir);

// Readies `dir` for a new run after check_output_folder's check: creates it when missing, removes
// the files the previous run recorded (see above) and leaves a record of no files in its place, so
// the folder stays marked as a run's while the new one writes.
core::Result<PreviousRun> clear_previous_run(const std::filesystem::path& dir);

// Records `files` as the run's in `dir` (replacing the record): those outside the folder, missing or
// listed twice are left out; names are relative to the folder, in the order given.
core::Result<void> record_run_files(const std::filesystem::path& dir, std::string_view question,
                                    const std::vector<std::filesystem::path>& files);

// "replaced the previous run's 7 files in out (\"total revenue by region\")"; empty when nothing
// was removed. Names the files left in place, and why.
std::string describe(const PreviousRun& previous, const std::filesystem::path& dir);

}  // namespace planfirst::autoviz
