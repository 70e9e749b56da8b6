// planfirst: the command line. Each subcommand lives in its own file and registers itself here.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "core/join.hpp"
#include "planfirst/cli.hpp"

int main(int argc, char** argv) {
  using namespace planfirst::cli;
  CLI::App app{
      "planfirst: analyst agents that plan before they act.\n"
      "Exit codes: 0 ok, 1 check failed, 2 usage error, 3 input error."};
  app.set_version_flag("--version", std::string("planfirst ") + PLANFIRST_VERSION);
  CliContext ctx;
  app.add_option("--config", ctx.config_path, "Configuration file (TOML)")->check(CLI::ExistingFile);
  app.add_option("--assets-dir", ctx.assets_dir, "Folder whose files override the built-in assets/");
  app.add_option("--log-format", ctx.log_format, "Log format (default: config log.format, text)")
      ->check(CLI::IsMember({"text", "json"}));
  app.add_option("--log-level", ctx.log_level, "Log level (default: config log.level, warn)")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error"}));
  app.require_subcommand(1);

  add_profile_command(app, ctx);
  add_contract_command(app, ctx);
  add_embed_command(app, ctx);
  add_llm_command(app, ctx);
  add_graph_command(app, ctx);
  add_threads_command(app, ctx);
  add_ask_command(app, ctx);
  add_tools_command(app, ctx);
  add_eval_command(app, ctx);
  add_retrieve_command(app, ctx);
  add_chat_command(app, ctx);
  add_sql_command(app, ctx);
  add_serve_command(app, ctx);
  add_friction_command(app, ctx);

  std::vector<std::string> names;
  const CLI::App& commands = app;
  for (const CLI::App* command : commands.get_subcommands(std::function<bool(const CLI::App*)>()))
    names.push_back(command->get_name());
  if (argc > 1 && argv[1][0] != '-' && std::find(names.begin(), names.end(), argv[1]) == names.end()) {
    std::cerr << "planfirst: unknown command '" << argv[1]
              << "'; the commands are: " << planfirst::core::join(names)
              << "\nRun planfirst --help for what each does.\n";
    return kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForVersion& e) {
    std::cout << e.what() << "\n";
    return kExitOk;
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  return ctx.exit_code;
}
