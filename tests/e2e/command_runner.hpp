// run_command runs a shell command line and captures its exit status and combined output; the
// whole-program tests drive build/planfirst through it the way a user would from a terminal.
#pragma once

#include <filesystem>
#include <string>

#include "core/json.hpp"

namespace planfirst::e2e {

struct CommandOutcome {
  int exit_code = -1;
  std::string output;  // stdout and stderr interleaved
};

CommandOutcome run_command(const std::string& command_line);

// The output of a run that printed one JSON document (--json); a failed expectation, and a
// discarded value, when it did not.
core::Json parsed(const CommandOutcome& run);

// Path of a built program, e.g. binary("planfirst") -> "<build>/planfirst".
std::string binary(const std::string& relative_path);
// The command line that runs the built planfirst with `args`, e.g. planfirst("embed 'a' 'b'").
std::string planfirst(const std::string& args);
// The whole content of a file a run wrote; "" when it cannot be read (the expectation on it fails).
std::string read_text(const std::filesystem::path& file);

// Path of a file in the source tree, e.g. source("examples/sales.csv").
std::string source(const std::string& relative_path);

}  // namespace planfirst::e2e
