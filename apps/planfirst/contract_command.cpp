// planfirst contract list | show NAME | check NAME FILE | grammar NAME [--format gbnf|response_format]
#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>

#include "contracts/contract_registry.hpp"
#include "contracts/gbnf_export.hpp"
#include "contracts/json_extraction.hpp"
#include "contracts/response_format.hpp"
#include "core/asset_store.hpp"
#include "planfirst/cli.hpp"

namespace planfirst::cli {
namespace {

struct ContractArgs {
  std::string name;
  std::string file;
  std::string format = "gbnf";
  bool schema_only = false;
};

core::Result<contracts::ContractRegistry> load_registry(const CliContext& ctx) {
  const core::AssetStore assets = asset_store(ctx);
  return contracts::ContractRegistry::load(assets);
}

// The named contract, or nullptr with `exit_code` set after saying why there is none.
const contracts::Contract* find_contract(const contracts::ContractRegistry& registry, const std::string& name,
                                         int& exit_code) {
  core::Result<const contracts::Contract*> contract = registry.get(name);
  if (!contract) {
    std::cerr << "planfirst contract: " << contract.error().message << "\n";
    exit_code = kExitUsage;
    return nullptr;
  }
  return *contract;
}

// The registry with the contract named `name` in it, or nullopt with `exit_code` set after saying
// why there is none (an unreadable registry, an unknown name).
struct NamedContract {
  contracts::ContractRegistry registry;
  const contracts::Contract* contract = nullptr;  // points into `registry`
};

std::optional<NamedContract> open_contract(const CliContext& ctx, const std::string& name, int& exit_code) {
  core::Result<contracts::ContractRegistry> registry = load_registry(ctx);
  if (!registry) {
    std::cerr << "planfirst contract: " << registry.error().describe() << "\n";
    exit_code = kExitInputError;
    return std::nullopt;
  }
  std::optional<NamedContract> named(NamedContract{std::move(*registry), nullptr});
  named->contract = find_contract(named->registry, name, exit_code);
  if (named->contract == nullptr) return std::nullopt;
  return named;
}

std::string first_sentence(const std::string& text, std::size_t max) {
  std::string line = text.substr(0, text.find(". ") == std::string::npos ? text.size() : text.find(". ") + 1);
  if (line.size() > max) line = line.substr(0, max - 3) + "...";
  return line;
}

int run_list(const CliContext& ctx) {
  core::Result<contracts::ContractRegistry> registry = load_registry(ctx);
  if (!registry) {
    std::cerr << "planfirst contract: " << registry.error().describe() << "\n";
    return kExitInputError;
  }
  for (const std::string& name : registry->names()) {
    const contracts::Contract& contract = *registry->find(name);
    std::string padded = name;
    padded.resize(std::max<std::size_t>(padded.size() + 2, 18), ' ');
    std::cout << padded << first_sentence(contract.description(), 100) << "\n";
  }
  std::cout << "\nroles:";
  for (const std::string& role : registry->roles()) {
    std::cout << " " << role << "=" << (*registry->for_role(role))->name();
  }
  std::cout << "\n";
  return kExitOk;
}

int run_show(const CliContext& ctx, const ContractArgs& args) {
  int exit_code = kExitOk;
  std::optional<NamedContract> named = open_contract(ctx, args.name, exit_code);
  if (!named) return exit_code;
  const contracts::ContractRegistry* registry = &named->registry;
  const contracts::Contract* contract = named->contract;
  if (args.schema_only) {
    std::cout << contract->schema_text();
    return kExitOk;
  }
  std::cout << "contract: " << contract->name() << "\n"
            << "title:    " << contract->title() << "\n"
            << "from:     " << registry->origin(contract->name()) << "\n";
  std::string roles;
  for (const std::string& role : registry->roles()) {
    if ((*registry->for_role(role))->name() == contract->name()) roles += (roles.empty() ? "" : ", ") + role;
  }
  std::cout << "roles:    " << (roles.empty() ? "-" : roles) << "\n"
            << "about:    " << contract->description() << "\n";
  std::cout << "rules:    " << (contract->rules().empty() ? "-" : "") << "\n";
  for (const contracts::ContractRule& rule : contract->rules())
    std::cout << "  " << rule.name << ": " << rule.description << "\n";
  std::cout << "schema:\n" << contract->schema_text();
  return kExitOk;
}

int run_check(const CliContext& ctx, const ContractArgs& args) {
  int exit_code = kExitOk;
  std::optional<NamedContract> named = open_contract(ctx, args.name, exit_code);
  if (!named) return exit_code;
  const contracts::Contract* contract = named->contract;

  const std::string label = args.file == "-" ? "<stdin>" : args.file;
  core::Result<std::string> read = read_input(args.file);
  if (!read) {
    std::cerr << "planfirst contract check: cannot read " << args.file << "\n";
    return kExitInputError;
  }
  const std::string& reply = *read;

  contracts::ExtractOptions options;
  options.objects_only = contract->schema().is_object() && contract->schema().value("type", "") == "object";
  contracts::ExtractedJson json = contracts::extract_first_json(reply, options);
  if (!json) {
    std::cout << label << ": no " << contract->name() << " in the reply: " << to_string(json.error().kind)
              << ": " << json.error().message << "\n";
    return kExitCheckFailed;
  }
  const contracts::ValidationReport report = contract->validate(*json);
  if (report.ok()) {
    std::cout << label << ": valid " << contract->name() << "\n";
    return kExitOk;
  }
  const std::size_t count = report.violations().size();
  std::cout << label << ": " << count << " violation" << (count == 1 ? "" : "s") << " of " << contract->name()
            << ":\n";
  for (const contracts::Violation& violation : report.violations())
    std::cout << "  " << violation.describe() << "\n";
  return kExitCheckFailed;
}

int run_grammar(const CliContext& ctx, const ContractArgs& args) {
  int exit_code = kExitOk;
  std::optional<NamedContract> named = open_contract(ctx, args.name, exit_code);
  if (!named) return exit_code;
  const contracts::Contract* contract = named->contract;
  if (args.format == "response_format") {
    std::cout << contracts::response_format(*contract, 2) << "\n";
    return kExitOk;
  }
  core::Result<std::string> grammar = contracts::to_gbnf(*contract);
  if (!grammar) {
    std::cerr << "planfirst contract grammar: " << grammar.error().describe() << "\n";
    return kExitInputError;
  }
  std::cout << *grammar;
  return kExitOk;
}

}  // namespace

void add_contract_command(CLI::App& app, CliContext& ctx) {
  auto args = std::make_shared<ContractArgs>();  // shared by the callbacks below, which outlive this call
  CLI::App* contract = app.add_subcommand(
      "contract",
      "The JSON contracts every planning stage's output must meet: list them, show one, check a "
      "model's reply against one, or export one as a grammar for constrained generation.");
  contract->require_subcommand(1);

  CLI::App* list =
      contract->add_subcommand("list",
                               "List the contracts (built in, or from --assets-dir) and the role "
                               "that uses each.");
  list->callback([&ctx] {
    if (prepare_run(ctx)) ctx.exit_code = run_list(ctx);
  });

  CLI::App* show = contract->add_subcommand("show",
                                            "Show a contract: where it was read from, its roles, its "
                                            "cross-field rules and its JSON Schema.");
  show->add_option("NAME", args->name, "Contract name, e.g. analyst_plan (see 'contract list')")->required();
  show->add_flag("--schema-only", args->schema_only, "Print only the JSON Schema, as written");
  show->callback([&ctx, args] {
    if (prepare_run(ctx)) ctx.exit_code = run_show(ctx, *args);
  });

  CLI::App* check = contract->add_subcommand(
      "check",
      "Check a model's reply saved in FILE: find its first JSON value (past prose and ```json fences), "
      "validate it and print every violation with its JSON pointer. Exit 0 valid, 1 invalid, 2 unknown "
      "contract, 3 unreadable FILE.");
  check->add_option("NAME", args->name, "Contract name, e.g. analyst_plan")->required();
  check->add_option("FILE", args->file, "The reply to check; - reads standard input")->required();
  check->callback([&ctx, args] {
    if (prepare_run(ctx)) ctx.exit_code = run_check(ctx, *args);
  });

  CLI::App* grammar = contract->add_subcommand(
      "grammar",
      "Export a contract for constrained generation: a llama.cpp GBNF grammar, or an OpenAI-compatible "
      "response_format object (vLLM, llama.cpp server, Ollama).");
  grammar->add_option("NAME", args->name, "Contract name, e.g. requirements")->required();
  grammar->add_option("--format", args->format, "Output format")
      ->check(CLI::IsMember({"gbnf", "response_format"}))
      ->capture_default_str();
  grammar->callback([&ctx, args] {
    if (prepare_run(ctx)) ctx.exit_code = run_grammar(ctx, *args);
  });
}

}  // namespace planfirst::cli
