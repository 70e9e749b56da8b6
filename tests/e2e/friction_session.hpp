// FrictionSession drives the registered `friction` graph through the real planfirst binary on a
// SQLite checkpointer in a scratch folder that is removed with the session. The graph and threads
// end-to-end tests share it so each test reads as the commands a user types.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "e2e/command_runner.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::e2e {

class FrictionSession {
 public:
  FrictionSession() : uri_("sqlite:" + file("checkpoints.sqlite").string()) {}

  const std::string& checkpointer() const { return uri_; }  // "sqlite:<scratch>/checkpoints.sqlite"
  std::filesystem::path file(const std::string& name) const { return dir_.path() / name; }

  // `planfirst ARGS`, as typed; ARGS are passed to the shell unchanged.
  CommandOutcome planfirst(const std::string& args) const;
  // `planfirst graph run friction --thread THREAD` on this session's store.
  CommandOutcome run(const std::string& thread, const std::string& extra = "") const;
  // `planfirst graph resume friction --thread THREAD --checkpoint ID --answer ANSWER`.
  CommandOutcome resume(const std::string& thread, const std::string& checkpoint, const std::string& answer = "yes",
                        const std::string& extra = "") const;
  // `planfirst threads SUBCOMMAND` on this session's store.
  CommandOutcome threads(const std::string& subcommand) const;

 private:
  test_support::TempDir dir_;
  std::string uri_;
};

// The run summary a `graph run` or `graph resume` prints last (one JSON object per line); a null
// JSON value when the last line is not an object, so a failing test shows the output.
nlohmann::json last_json_line(const std::string& output);

}  // namespace planfirst::e2e
