#include <CLI/CLI.hpp>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "core/clock.hpp"
#include "core/file_text.hpp"
#include "core/logging.hpp"
#include "core/utf8.hpp"
#include "planfirst/cli.hpp"

namespace planfirst::cli {
namespace {

core::Result<void> load(CliContext& ctx) {
  core::Result<core::Config> config = core::Config::load(ctx.config_path, core::process_environment());
  if (!config) return config.error();
  ctx.config = std::move(*config);
  if (!ctx.log_format.empty()) {
    if (auto r = ctx.config.set_flag("log.format", ctx.log_format); !r) return r.error();
  }
  if (!ctx.log_level.empty()) {
    if (auto r = ctx.config.set_flag("log.level", ctx.log_level); !r) return r.error();
  }
  if (!ctx.assets_dir.empty()) {
    if (auto r = ctx.config.set_flag("assets.dir", ctx.assets_dir); !r) return r.error();
  }
  core::LogOptions log;
  log.format = ctx.config.get_string("log.format");
  log.level = ctx.config.get_string("log.level");
  return core::configure_logging(log);
}

std::string utf8_error(const std::string& text) {
  const std::string message = core::invalid_utf8_message(text);
  return message.empty() ? message : "the text is " + message;
}

}  // namespace

CLI::Validator utf8_text() {
  return CLI::Validator(utf8_error, "TEXT");
}

CLI::Validator nonblank_question() {
  return CLI::Validator(
      [](const std::string& question) {
        const bool blank = question.find_first_not_of(" \t\r\n") == std::string::npos;
        return blank ? std::string("the question is empty: say what to ask, e.g. \"revenue by region\"")
                     : utf8_error(question);
      },
      "TEXT");
}

CLI::Validator reference_day_text() {
  return CLI::Validator(
      [](const std::string& text) {
        core::Result<std::chrono::sys_days> day = core::parse_reference_day(text, "--as-of");
        return day ? std::string() : "not a day written YYYY-MM-DD: '" + text + "'";
      },
      "YYYY-MM-DD");
}

core::ReferenceDay reference_day(const std::string& flag, std::optional<std::chrono::sys_days> project_as_of,
                                 const std::string& project_file) {
  if (!flag.empty()) {
    if (core::Result<std::chrono::sys_days> day = core::parse_reference_day(flag, "--as-of"); day) {
      return {*day, core::ReferenceOrigin::kFlag, "--as-of"};
    }
  }
  if (project_as_of) return {*project_as_of, core::ReferenceOrigin::kProject, project_file};
  return core::reference_day_from_clock(core::system_clock().now());
}

std::string reference_day_text(const core::Json& state) {
  core::Result<std::optional<core::ReferenceDay>> day =
      core::reference_day_from_json(state.value("as_of", core::Json()), "/as_of");
  return day && *day ? (*day)->describe() : std::string();
}

bool prepare_run(CliContext& ctx) {
  if (core::Result<void> loaded = load(ctx); !loaded) {
    std::cerr << "planfirst: " << loaded.error().describe() << "\n";
    ctx.exit_code = kExitInputError;
    return false;
  }
  return true;
}

core::Result<std::string> read_input(const std::string& file) {
  if (file != "-") return core::read_file_text(file);
  return std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
}

bool apply_config_flags(CliContext& ctx, std::string_view command,
                        std::initializer_list<std::pair<std::string_view, std::string_view>> flags) {
  for (const auto& [key, value] : flags) {
    if (value.empty()) continue;
    if (core::Result<void> set = ctx.config.set_flag(key, value); !set) {
      std::cerr << "planfirst " << command << ": " << set.error().describe() << "\n";
      ctx.exit_code = kExitUsage;
      return false;
    }
  }
  return true;
}

core::AssetStore asset_store(const CliContext& ctx) {
  const std::string& dir = ctx.config.get_string("assets.dir");
  if (dir.empty()) return core::AssetStore();
  return core::AssetStore(dir);
}

}  // namespace planfirst::cli
