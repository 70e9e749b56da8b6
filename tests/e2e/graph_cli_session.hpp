// GraphCliSession drives `planfirst graph` and `planfirst threads` through the real planfirst binary
// on a SQLite checkpointer in a scratch folder that is removed with the session. Its runs are of the
// autoviz graph on the bundled sales example with `confirm` set, so each pauses for the plan's
// approval; files are not written, so an approved run ends after execute. The graph and threads
// end-to-end tests share it so each test reads as the commands a user types.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "e2e/command_runner.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::e2e {

inline constexpr const char* kRunQuestion = "revenue by region";
inline constexpr const char* kApprovalPrompt =
    "Approve the plan? Answer 'approve', or say in plain words what to change.";

class GraphCliSession {
 public:
  GraphCliSession();

  const std::string& checkpointer() const { return uri_; }  // "sqlite:<scratch>/checkpoints.sqlite"
  std::filesystem::path file(const std::string& name) const { return dir_.path() / name; }

  // `planfirst ARGS`, as typed; ARGS are passed to the shell unchanged.
  CommandOutcome planfirst(const std::string& args) const;
  // `planfirst graph run autoviz --input <kRunQuestion on the sales example> --thread THREAD`.
  CommandOutcome run(const std::string& thread, const std::string& extra = "") const;
  // `planfirst graph resume autoviz --thread THREAD --checkpoint ID --answer 'ANSWER'`: "approve"
  // executes the plan; anything else is a change, planned again up to the next approval.
  CommandOutcome resume(const std::string& thread, const std::string& checkpoint,
                        const std::string& answer = "approve", const std::string& extra = "") const;
  // `planfirst threads SUBCOMMAND` on this session's store.
  CommandOutcome threads(const std::string& subcommand) const;

 private:
  test_support::TempDir dir_;
  std::string uri_;
  std::string input_;  // the run's input state file
};

// The run summary a `graph run` or `graph resume` prints last (one JSON object per line); a null
// JSON value when the last line is not an object, so a failing test shows the output.
nlohmann::json last_json_line(const std::string& output);

}  // namespace planfirst::e2e
