// planfirst tools list [--json]: the autoviz tool registry (name, capabilities, description).
// planfirst tools search "query" [--top K] [--json]: the tools whose documents best match a query,
// scored by the embedder the configuration names (the built-in hashed one by default).
#include <CLI/CLI.hpp>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/join.hpp"
#include "pipelines/autoviz/autoviz_services.hpp"
#include "planfirst/cli.hpp"

namespace planfirst::cli {
namespace {

struct ToolsArgs {
  std::string query;
  std::size_t top = 5;
  bool json = false;
};

core::Result<std::shared_ptr<const autoviz::AutovizServices>> services(const CliContext& ctx) {
  return autoviz::AutovizServices::load(asset_store(ctx), &ctx.config);
}

int run_list(const CliContext& ctx, const ToolsArgs& args) {
  auto loaded = services(ctx);
  if (!loaded) {
    std::cerr << "planfirst tools: " << loaded.error().describe() << "\n";
    return kExitInputError;
  }
  core::Json list = core::Json::array();
  for (const autoviz::ToolSpec& tool : (*loaded)->tools.tools()) {
    list.push_back({{"name", tool.name},
                    {"capabilities", tool.capabilities},
                    {"description", tool.description},
                    {"params", tool.param_names}});
    if (!args.json) {
      std::cout << std::left << std::setw(24) << tool.name << tool.description << "\n"
                << std::setw(24) << ""
                << "capabilities: " << core::join(tool.capabilities) << "\n";
    }
  }
  if (args.json) std::cout << list.dump(2) << "\n";
  return kExitOk;
}

int run_search(const CliContext& ctx, const ToolsArgs& args) {
  auto loaded = services(ctx);
  if (!loaded) {
    std::cerr << "planfirst tools: " << loaded.error().describe() << "\n";
    return kExitInputError;
  }
  auto hits = (*loaded)->narrower->search(args.query, args.top);
  if (!hits) {
    std::cerr << "planfirst tools search: " << hits.error().describe() << "\n";
    return kExitCheckFailed;
  }
  core::Json list = core::Json::array();
  for (const autoviz::NarrowedTool& hit : *hits) {
    list.push_back({{"tool", hit.tool}, {"score", hit.score}});
    if (!args.json) std::cout << std::fixed << std::setprecision(3) << hit.score << "  " << hit.tool << "\n";
  }
  if (args.json) std::cout << list.dump(2) << "\n";
  return kExitOk;
}

}  // namespace

void add_tools_command(CLI::App& app, CliContext& ctx) {
  auto args = std::make_shared<ToolsArgs>();
  CLI::App* tools =
      app.add_subcommand("tools", "The analysis tools plans are made of: list them, or search them");
  tools->require_subcommand(1);
  CLI::App* list = tools->add_subcommand("list", "Every tool with its capabilities and description");
  list->add_flag("--json", args->json, "Print JSON (with each tool's params)");
  list->callback([&ctx, args] {
    if (prepare_run(ctx)) ctx.exit_code = run_list(ctx, *args);
  });
  CLI::App* search = tools->add_subcommand("search", "The tools that best match a query, with their scores");
  search->add_option("query", args->query, "What the tool should do, in plain words")
      ->required()
      ->check(utf8_text());
  search->add_option("--top", args->top, "How many tools (default 5)")->check(CLI::Range(1, 100));
  search->add_flag("--json", args->json, "Print JSON");
  search->callback([&ctx, args] {
    if (prepare_run(ctx)) ctx.exit_code = run_search(ctx, *args);
  });
}

}  // namespace planfirst::cli
