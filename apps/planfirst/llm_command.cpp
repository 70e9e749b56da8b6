// planfirst llm check [--base-url URL] [--model M]
// planfirst llm bench [--samples N] [--max-tokens N] [--contract NAME]... [--base-url URL] [--model M]: per
// contract and structured-output mode, the valid-on-first-try rate, re-asks, fallbacks, latency and tokens/s
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
#include <string_view>
#include <vector>

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
  int samples = 5;
  int max_tokens = 768;
  std::vector<std::string> contracts;  // bench: only these (default every contract)
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

// One contract in one structured-output mode, summed over the samples.
struct BenchRow {
  int samples = 0;
  int first_try = 0;  // valid on the first attempt
  int valid = 0;      // valid after re-asks
  int reasks = 0;
  int calls = 0;                        // requests sent, whether the server answered or not
  std::chrono::nanoseconds latency{0};  // the wall time of every call, summed
  std::int64_t completion_tokens = 0;
};

std::string bench_prompt(const nlohmann::json& tasks, const contracts::Contract& contract, int sample) {
  const nlohmann::json& list = tasks["tasks"];
  std::string prompt = tasks["prompt"].get<std::string>();
  auto put = [&prompt](const std::string& key, const std::string& value) {
    if (auto at = prompt.find(key); at != std::string::npos) prompt.replace(at, key.size(), value);
  };
  put("{{task}}", list[static_cast<std::size_t>(sample) % list.size()].get<std::string>());
  put("{{schema}}", contract.schema_text());
  return prompt;
}

// Counts the model's calls, their wall time and tokens, whether the guard kept the reply or not and
// whether the server answered or failed (a timeout's wait counts too).
class MeteredModel final : public llm::Model {
 public:
  MeteredModel(const llm::Model& model, BenchRow& row) : model_(model), row_(row) {}
  core::Result<llm::Completion> complete(const llm::CompletionRequest& request,
                                         const core::CancellationToken* cancel) const override {
    const auto began = std::chrono::steady_clock::now();
    core::Result<llm::Completion> reply = model_.complete(request, cancel);
    row_.latency += std::chrono::steady_clock::now() - began;
    ++row_.calls;
    if (reply) row_.completion_tokens += reply->usage.completion;
    return reply;
  }
  std::string name() const override { return model_.name(); }

 private:
  const llm::Model& model_;
  BenchRow& row_;
};

BenchRow bench_contract(const llm::Model& model, const contracts::ContractRegistry& registry,
                        const nlohmann::json& tasks, const std::string& contract, const LlmArgs& args,
                        int max_reasks) {
  BenchRow row;
  const MeteredModel metered(model, row);
  llm::GuardOptions options;
  options.max_reasks = max_reasks;
  const llm::ContractGuard guard(metered, registry, options);
  for (int i = 0; i < args.samples; ++i) {
    llm::CompletionRequest request;
    request.contract = contract;
    request.messages = {{"user", bench_prompt(tasks, *registry.find(contract), i)}};
    request.temperature = 0.8;
    request.seed = static_cast<std::uint32_t>(1000 + i);
    request.max_tokens = args.max_tokens;
    const llm::GuardedCompletion reply = guard.generate(request);
    ++row.samples;
    const int attempts = reply ? reply->attempts : static_cast<int>(reply.failure().attempts.size());
    row.reasks += attempts - 1;
    if (reply) ++row.valid;
    if (reply && reply->attempts == 1) ++row.first_try;
  }
  return row;
}

void print_bench_row(int name_width, const std::string& contract, llm::StructuredOutput mode,
                     const BenchRow& row) {
  const double seconds = std::chrono::duration<double>(row.latency).count();
  std::cout << std::left << std::setw(name_width) << contract << std::setw(17) << llm::to_string(mode)
            << std::right << std::setw(6) << row.first_try << "/" << std::left << std::setw(5) << row.samples
            << std::right << std::setw(7) << row.reasks << std::setw(10) << (row.samples - row.valid)
            << std::fixed << std::setprecision(2) << std::setw(11)
            << (row.calls > 0 ? seconds / row.calls : 0.0) << std::setprecision(1) << std::setw(10)
            << (seconds > 0 ? static_cast<double>(row.completion_tokens) / seconds : 0.0) << "\n";
}

int run_bench(CliContext& ctx, const LlmArgs& args) {
  if (!prepare_run(ctx) || !apply_flags(ctx, args)) return ctx.exit_code;
  if (args.samples < 1 || args.max_tokens < 1) {
    std::cerr << "planfirst llm bench: --samples and --max-tokens must be at least 1\n";
    return kExitUsage;
  }
  core::Result<contracts::ContractRegistry> registry = contracts::ContractRegistry::load(asset_store(ctx));
  core::Result<std::string> tasks_text = asset_store(ctx).read("llm/bench_tasks.json");
  if (!registry || !tasks_text) {
    std::cerr << "planfirst llm bench: "
              << (!registry ? registry.error().describe() : tasks_text.error().describe()) << "\n";
    return kExitInputError;
  }
  const nlohmann::json tasks = nlohmann::json::parse(*tasks_text, nullptr, false);
  if (tasks.is_discarded() || !tasks.contains("tasks") || !tasks["tasks"].is_array() ||
      tasks["tasks"].empty() || !tasks.contains("prompt") || !tasks["prompt"].is_string()) {
    std::cerr
        << "planfirst llm bench: llm/bench_tasks.json needs a \"prompt\" and a non-empty \"tasks\" list\n";
    return kExitInputError;
  }
  core::Result<llm::OpenAiModelOptions> options =
      llm::model_options_from_config(ctx.config, core::process_environment());
  if (!options) {
    std::cerr << "planfirst llm bench: " << options.error().message << "\n";
    return kExitUsage;
  }
  const int max_reasks = static_cast<int>(ctx.config.get_int("llm.max_reasks"));
  std::cout << "Server " << options->base_url << ", " << args.samples << " samples per row (temperature 0.8, "
            << "max_tokens " << args.max_tokens << ", up to " << max_reasks << " re-asks)\n\n";
  // The contract column as wide as the longest name, plus a blank before the mode.
  std::size_t longest = std::string_view("contract").size();
  for (const std::string& contract : registry->names()) longest = std::max(longest, contract.size());
  const int name_width = static_cast<int>(longest) + 2;
  std::cout << std::left << std::setw(name_width) << "contract" << std::setw(17) << "mode" << std::right
            << std::setw(12) << "first try" << std::setw(7) << "reasks" << std::setw(10) << "fallback"
            << std::setw(11) << "s/call" << std::setw(10) << "tok/s"
            << "\n";
  // Contract by contract, every mode in turn: the prompt starts with the contract's schema, so the
  // server reuses that cached prefix across the modes and samples of one contract.
  std::vector<llm::OpenAiCompatibleModel> models;
  const std::vector<llm::StructuredOutput> modes{
      llm::StructuredOutput::kLlamaCpp, llm::StructuredOutput::kResponseFormat, llm::StructuredOutput::kNone};
  for (llm::StructuredOutput mode : modes) {
    llm::OpenAiModelOptions mode_options = *options;
    mode_options.structured_output = mode;
    core::Result<llm::OpenAiCompatibleModel> model =
        llm::OpenAiCompatibleModel::create(mode_options, *registry);
    if (!model) {
      std::cerr << "planfirst llm bench: " << model.error().describe() << "\n";
      return kExitUsage;
    }
    models.push_back(std::move(*model));
  }
  for (const std::string& contract : registry->names()) {
    if (!args.contracts.empty() &&
        std::find(args.contracts.begin(), args.contracts.end(), contract) == args.contracts.end())
      continue;
    for (std::size_t m = 0; m < modes.size(); ++m)
      print_bench_row(name_width, contract, modes[m],
                      bench_contract(models[m], *registry, tasks, contract, args, max_reasks));
  }
  return kExitOk;
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

  CLI::App* bench = llm->add_subcommand(
      "bench", "Per contract and structured-output mode: valid on the first try, re-asks, latency, tokens/s");
  bench->add_option("--samples", args->samples, "Replies per contract and mode (default 5)");
  bench->add_option("--max-tokens", args->max_tokens, "max_tokens of each request (default 768)");
  bench->add_option("--contract", args->contracts, "Only this contract (repeatable; default every one)");
  bench->add_option("--base-url", args->base_url, "Server base URL (overrides llm.base_url)");
  bench->add_option("--model", args->model, "Model id (overrides llm.model)");
  bench->callback([&ctx, args] { ctx.exit_code = run_bench(ctx, *args); });
}

}  // namespace planfirst::cli
