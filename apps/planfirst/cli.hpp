// The planfirst command line: global options every subcommand sees, the documented exit codes, and
// one add_*_command function per subcommand file (profile_command.cpp, contract_command.cpp, ...).
#pragma once

#include <chrono>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "core/asset_store.hpp"
#include "core/config.hpp"
#include "core/reference_day.hpp"

namespace CLI {
class App;
class Validator;
}  // namespace CLI

namespace planfirst::cli {

enum ExitCode : int {
  kExitOk = 0,           // the command did what was asked
  kExitCheckFailed = 1,  // a check ran and failed (invalid reply, validation errors)
  kExitUsage = 2,        // bad flags or arguments
  kExitInputError = 3,   // an input could not be read or parsed (missing file, malformed CSV)
};

struct CliContext {
  std::string config_path;  // --config FILE (TOML); empty: defaults + environment
  std::string assets_dir;   // --assets-dir DIR: overrides for files under assets/
  std::string log_format;   // --log-format text|json; empty: config log.format
  std::string log_level;    // --log-level trace|debug|info|warn|error; empty: config log.level
  core::Config config;      // defaults < --config file < PLANFIRST_* environment < flags
  int exit_code = kExitOk;  // set by the subcommand that ran
};

// Loads the configuration and sets up logging; every subcommand calls it first. On failure it prints
// the error (naming the file, line and key) to stderr, sets exit code 3 and returns false.
bool prepare_run(CliContext& ctx);

// The bytes of FILE, or of standard input when FILE is "-"; the error names the file.
core::Result<std::string> read_input(const std::string& file);

// Sets each flag whose value is not empty over its config key ({"llm.base_url", url}). On a bad value
// it prints the error after "planfirst <command>: ", sets exit code 2 and returns false.
bool apply_config_flags(CliContext& ctx, std::string_view command,
                        std::initializer_list<std::pair<std::string_view, std::string_view>> flags);

// Refuses text that is not well-formed UTF-8 as a usage error naming the first bad byte.
CLI::Validator utf8_text();

// Refuses a question of only blanks as a usage error that says what to write, and one that is not
// well-formed UTF-8 as utf8_text() does.
CLI::Validator nonblank_question();

// Refuses an --as-of that is not a day written YYYY-MM-DD as a usage error.
CLI::Validator reference_day_text();

// The day relative periods count back from: --as-of when given (`flag`), else the project's as_of
// (`project_as_of`, read from `project_file`), else today in UTC by the system clock.
core::ReferenceDay reference_day(const std::string& flag, std::optional<std::chrono::sys_days> project_as_of,
                                 const std::string& project_file);

// "2026-11-25 (as_of in ...)" for the reference day a run's state holds under "as_of"; "" when none.
std::string reference_day_text(const core::Json& state);

// The assets, with --assets-dir (or config assets.dir) overriding the built-in files.
core::AssetStore asset_store(const CliContext& ctx);

void add_profile_command(CLI::App& app, CliContext& ctx);
void add_contract_command(CLI::App& app, CliContext& ctx);
void add_embed_command(CLI::App& app, CliContext& ctx);
void add_llm_command(CLI::App& app, CliContext& ctx);
void add_graph_command(CLI::App& app, CliContext& ctx);
void add_threads_command(CLI::App& app, CliContext& ctx);
void add_ask_command(CLI::App& app, CliContext& ctx);  // ask, plan, resume
void add_tools_command(CLI::App& app, CliContext& ctx);
void add_eval_command(CLI::App& app, CliContext& ctx);  // eval nl2vis
void add_retrieve_command(CLI::App& app, CliContext& ctx);
void add_chat_command(CLI::App& app, CliContext& ctx);      // the analyst graph (seed 000)
void add_sql_command(CLI::App& app, CliContext& ctx);       // sql analyze, validate, optimize (seed 004)
void add_serve_command(CLI::App& app, CliContext& ctx);     // the HTTP API (server/)
void add_friction_command(CLI::App& app, CliContext& ctx);  // the friction graph (seed 003)

}  // namespace planfirst::cli
