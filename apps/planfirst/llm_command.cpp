// planfirst llm check [--base-url URL] [--model M]
// planfirst llm ask --contract NAME --prompt-file F [--base-url URL] [--model M] [--record FILE] [--replay
// FILE]
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "contracts/contract_registry.hpp"
#include "core/metrics.hpp"
#include "llm/contract_guard.hpp"
#include "llm/openai_compatible_model.hpp"
#include "llm/prompt_library.hpp"
#include "llm/replay_model.hpp"
#include "planfirst/cli.hpp"

namespace planfirst::cli {
namespace {

struct LlmArgs {
  std::string base_url;
  std::string model;
  std::string contract;
  std::string prompt_file;
  std::string record;
  std::string replay;
};

// Applies --base-url and --model over the configuration; false (exit code set) on a bad value.
bool apply_flags(CliContext& ctx, const LlmArgs& args) {
  return apply_config_flags(ctx, "llm", {{"llm.base_url", args.base_url}, {"llm.model", args.model}});
}

std::string seconds(std::chrono::nanoseconds d) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(2) << std::chrono::duration<double>(d).count() << " s";
  return out.str();
}

int run_check(CliContext& ctx, const LlmArgs& args) {
  if (!prepare_run(ctx) || !apply_flags(ctx, args)) return ctx.exit_code;
  core::Result<contracts::ContractRegistry> registry = contracts::ContractRegistry::load(asset_store(ctx));
  if (!registry) {
    std::cerr << "planfirst llm: " << registry.error().describe() << "\n";
    return kExitInputError;
  }
  core::Result<llm::OpenAiModelOptions> options =
      llm::model_options_from_config(ctx.config, core::process_environment());
  if (!options) {
    std::cout << "LLM: not configured. " << options.error().message
              << ". planfirst still runs offline with its rule strategies.\n";
    return kExitCheckFailed;
  }
  options->http.max_retries = 1;
  std::cout << "Server:            " << options->base_url
            << " (structured output: " << llm::to_string(options->structured_output) << ")\n";
  std::cout << "API key:           "
            << (options->api_key.empty()
                    ? "none (variable " + ctx.config.get_string("llm.api_key_env") + " is unset)"
                    : "from " + ctx.config.get_string("llm.api_key_env"))
            << "\n";

  core::Result<llm::OpenAiCompatibleModel> probe = llm::OpenAiCompatibleModel::create(*options, *registry);
  if (!probe) {
    std::cout << "Configuration:     not usable: " << probe.error().describe() << "\n";
    return kExitCheckFailed;
  }
  core::Result<std::vector<std::string>> models = probe->list_models();
  if (models) {
    std::string list;
    for (const std::string& id : *models) list += (list.empty() ? "" : ", ") + id;
    std::cout << "Models:            " << models->size() << " offered" << (list.empty() ? "" : ": " + list)
              << "\n";
    if (options->model.empty() && !models->empty()) {
      options->model = models->front();
      std::cout << "Model:             llm.model is not set; using the server's first model, "
                << options->model << "\n";
    } else if (!options->model.empty() &&
               std::find(models->begin(), models->end(), options->model) == models->end()) {
      std::cout << "Model:             " << options->model << " is NOT among the offered models\n";
    } else {
      std::cout << "Model:             " << (options->model.empty() ? "(server default)" : options->model)
                << "\n";
    }
  } else {
    std::cout << "Models:            could not list them: " << models.error().message << "\n";
  }

  core::Result<llm::PromptLibrary> prompts = llm::PromptLibrary::load(asset_store(ctx));
  if (!prompts) {
    std::cerr << "planfirst llm: " << prompts.error().describe() << "\n";
    return kExitInputError;
  }
  core::Result<std::string> prompt = prompts->render(
      "intent", {{"question", "show the top 5 regions by revenue"},
                 {"dataset_schema", "date (temporal), revenue (numeric), region (categorical)"}});
  if (!prompt) {
    std::cerr << "planfirst llm: " << prompt.error().describe() << "\n";
    return kExitInputError;
  }
  core::Result<llm::OpenAiCompatibleModel> model = llm::OpenAiCompatibleModel::create(*options, *registry);
  if (!model) return kExitCheckFailed;
  llm::GuardOptions guard_options;
  guard_options.max_reasks = static_cast<int>(ctx.config.get_int("llm.max_reasks"));
  const llm::ContractGuard guard(*model, *registry, guard_options);
  llm::CompletionRequest request;
  request.contract = "intent";
  request.messages = {{"user", *prompt}};
  request.max_tokens = 256;
  llm::GuardedCompletion result = guard.generate(request);
  if (result) {
    std::cout << "Contract round trip (intent): works: " << result->json->dump() << " in " << result->attempts
              << (result->attempts == 1 ? " attempt, " : " attempts, ") << seconds(result->latency) << ", "
              << result->usage.prompt << "+" << result->usage.completion << " tokens\n";
    return kExitOk;
  }
  const llm::GuardFailure& failure = result.failure();
  if (failure.model_error) {
    std::cout << "Contract round trip (intent): the server did not answer: "
              << failure.model_error->describe() << "\n";
  } else {
    std::cout << "Contract round trip (intent): the replies did not meet the contract after "
              << failure.attempts.size() << " attempts (" << failure.reason
              << "); planning stages would fall back to their rules.\n";
    for (const contracts::Violation& violation : failure.violations)
      std::cout << "  " << violation.describe() << "\n";
    if (options->structured_output == llm::StructuredOutput::kNone) {
      std::cout << "  Hint: llm.structured_output is none; response_format, llamacpp or ollama constrains "
                   "the reply.\n";
    }
  }
  return kExitCheckFailed;
}

int run_ask(CliContext& ctx, const LlmArgs& args) {
  if (!prepare_run(ctx) || !apply_flags(ctx, args)) return ctx.exit_code;
  if (!args.record.empty() && !args.replay.empty()) {
    std::cerr << "planfirst llm ask: --record and --replay exclude each other\n";
    return kExitUsage;
  }
  core::Result<std::string> prompt = read_input(args.prompt_file);
  if (!prompt) {
    std::cerr << "planfirst llm ask: cannot read " << args.prompt_file << "\n";
    return kExitInputError;
  }
  core::Result<contracts::ContractRegistry> registry = contracts::ContractRegistry::load(asset_store(ctx));
  if (!registry) {
    std::cerr << "planfirst llm ask: " << registry.error().describe() << "\n";
    return kExitInputError;
  }
  if (core::Result<const contracts::Contract*> contract = registry->get(args.contract); !contract) {
    std::cerr << "planfirst llm ask: " << contract.error().message << "\n";
    return kExitUsage;
  }

  core::MetricsRegistry metrics;
  std::unique_ptr<llm::Model> model;
  if (!args.replay.empty()) {
    core::Result<std::unique_ptr<llm::ReplayModel>> replay = llm::ReplayModel::load(args.replay);
    if (!replay) {
      std::cerr << "planfirst llm ask: " << replay.error().describe() << "\n";
      return kExitInputError;
    }
    model = std::move(*replay);
  } else {
    core::Result<llm::OpenAiModelOptions> options =
        llm::model_options_from_config(ctx.config, core::process_environment());
    if (!options) {
      std::cerr << "planfirst llm ask: " << options.error().message << "\n";
      return kExitUsage;
    }
    core::Result<llm::OpenAiCompatibleModel> server =
        llm::OpenAiCompatibleModel::create(*options, *registry, &metrics);
    if (!server) {
      std::cerr << "planfirst llm ask: " << server.error().describe() << "\n";
      return kExitUsage;
    }
    model = std::make_unique<llm::OpenAiCompatibleModel>(std::move(*server));
  }
  std::unique_ptr<llm::RecordingModel> recorder;
  if (!args.record.empty()) recorder = std::make_unique<llm::RecordingModel>(*model, args.record);
  const llm::Model& asked = recorder ? static_cast<const llm::Model&>(*recorder) : *model;

  llm::GuardOptions guard_options;
  guard_options.max_reasks = static_cast<int>(ctx.config.get_int("llm.max_reasks"));
  const llm::ContractGuard guard(asked, *registry, guard_options, &metrics);
  llm::CompletionRequest request;
  request.contract = args.contract;
  request.messages = {{"user", *prompt}};
  llm::GuardedCompletion result = guard.generate(request);
  if (result) {
    std::cout << result->json->dump(2) << "\n";
    std::cerr << "contract " << args.contract << ": valid after " << result->attempts
              << (result->attempts == 1 ? " attempt" : " attempts") << "\n";
    return kExitOk;
  }
  std::cout << "guard failure: " << result.failure().describe() << "\n";
  for (std::size_t i = 0; i < result.failure().attempts.size(); ++i) {
    const llm::GuardAttempt& attempt = result.failure().attempts[i];
    std::cout << "attempt " << (i + 1) << ": " << attempt.reason << "\n";
    for (const contracts::Violation& violation : attempt.violations)
      std::cout << "  " << violation.describe() << "\n";
  }
  return kExitCheckFailed;
}

}  // namespace

void add_llm_command(CLI::App& app, CliContext& ctx) {
  auto args = std::make_shared<LlmArgs>();
  CLI::App* llm =
      app.add_subcommand("llm", "Check the configured LLM server, or ask it for JSON under a contract");
  llm->require_subcommand(1);

  CLI::App* check =
      llm->add_subcommand("check", "Reach the server, list its models, run one contract round trip");
  check->add_option("--base-url", args->base_url, "Server base URL (overrides llm.base_url)");
  check->add_option("--model", args->model, "Model id (overrides llm.model)");
  check->callback([&ctx, args] { ctx.exit_code = run_check(ctx, *args); });

  CLI::App* ask =
      llm->add_subcommand("ask", "Ask for JSON meeting a contract; print it, or the guard failure (exit 1)");
  ask->add_option("--contract", args->contract, "Contract name, e.g. analyst_plan")->required();
  ask->add_option("--prompt-file", args->prompt_file, "File holding the prompt")->required();
  ask->add_option("--base-url", args->base_url, "Server base URL (overrides llm.base_url)");
  ask->add_option("--model", args->model, "Model id (overrides llm.model)");
  ask->add_option("--record", args->record, "Append each reply to this JSON Lines fixture");
  ask->add_option("--replay", args->replay, "Answer from this JSON Lines fixture instead of a server");
  ask->callback([&ctx, args] { ctx.exit_code = run_ask(ctx, *args); });
}

}  // namespace planfirst::cli
