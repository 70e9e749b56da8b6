// planfirst graph list | mermaid NAME | node NAME NODE --state FILE [--llm URL]
//                | run NAME [--thread ID] [--input FILE] [--checkpointer URI] [--events]
//                | resume NAME --thread ID --checkpoint ID --answer TEXT [--checkpointer URI] [--events]
#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>

#include "contracts/contract_registry.hpp"
#include "core/ids.hpp"
#include "graph/graph_registry.hpp"
#include "graph/mermaid.hpp"
#include "graph/open_checkpointer.hpp"
#include "graph/runner.hpp"
#include "planfirst/cli.hpp"
#include "planfirst/graph_session.hpp"

namespace planfirst::cli {
namespace {

struct GraphArgs {
  std::string name;
  std::string node;
  std::string state_file;
  std::string llm_url;  // sets llm.base_url for nodes that call a model (analyst_plan, answer)
  std::string thread;
  std::string input_file;
  std::string checkpointer;
  std::string checkpoint;
  std::string answer;
  bool events = false;
};

std::unique_ptr<GraphSession> load(const CliContext& ctx, int& exit_code) {
  core::Result<std::unique_ptr<GraphSession>> session = open_graph_session(ctx);
  if (!session) {
    std::cerr << "planfirst graph: " << session.error().describe() << "\n";
    exit_code = kExitInputError;
    return nullptr;
  }
  return std::move(*session);
}

std::optional<graph::CompiledGraph> build(const GraphSession& session, const std::string& name,
                                          int& exit_code) {
  core::Result<graph::CompiledGraph> compiled = session.build(name);
  if (!compiled) {
    std::cerr << "planfirst graph: " << compiled.error().describe() << "\n";
    exit_code = compiled.error().code == core::ErrorCode::kNotFound ? kExitUsage : kExitInputError;
    return std::nullopt;
  }
  return *compiled;
}

// A JSON object from FILE ("-" for stdin); nullopt after saying why (exit code 3).
std::optional<graph::JsonValue> read_json_object(const std::string& file, int& exit_code) {
  core::Result<std::string> text = read_input(file);
  if (!text) {
    std::cerr << "planfirst graph: cannot read " << file << "\n";
    exit_code = kExitInputError;
    return std::nullopt;
  }
  core::Result<graph::JsonValue> value = graph::JsonValue::parse(*text, file);
  if (!value || !value->json().is_object()) {
    std::cerr << "planfirst graph: " << (value ? file + ": not a JSON object" : value.error().describe())
              << "\n";
    exit_code = kExitInputError;
    return std::nullopt;
  }
  return std::move(*value);
}

int run_list(const CliContext& ctx) {
  int exit_code = kExitOk;
  std::unique_ptr<GraphSession> loaded = load(ctx, exit_code);
  if (!loaded) return exit_code;
  for (const std::string& name : loaded->graphs.names()) {
    std::optional<graph::CompiledGraph> compiled = build(*loaded, name, exit_code);
    if (!compiled) return exit_code;
    std::cout << name << "  " << loaded->graphs.description(name) << "\n  nodes:";
    for (const graph::CompiledNode& node : compiled->nodes()) {
      std::cout << " " << node.name;
      if (node.kind == graph::NodeKind::kDecision) std::cout << " (decision)";
      if (node.fan_out) std::cout << " (fan-out)";
    }
    std::cout << "\n";
  }
  return kExitOk;
}

int run_mermaid(const CliContext& ctx, const GraphArgs& args) {
  int exit_code = kExitOk;
  std::unique_ptr<GraphSession> loaded = load(ctx, exit_code);
  if (!loaded) return exit_code;
  std::optional<graph::CompiledGraph> compiled = build(*loaded, args.name, exit_code);
  if (!compiled) return exit_code;
  std::cout << graph::to_mermaid(*compiled);
  return kExitOk;
}

int run_node(const CliContext& ctx, const GraphArgs& args) {
  int exit_code = kExitOk;
  std::unique_ptr<GraphSession> loaded = load(ctx, exit_code);
  if (!loaded) return exit_code;
  std::optional<graph::CompiledGraph> compiled = build(*loaded, args.name, exit_code);
  if (!compiled) return exit_code;
  if (compiled->node(args.node) == nullptr) {
    std::cerr << "planfirst graph node: graph " << args.name << " has no node \"" << args.node << "\"\n";
    return kExitUsage;
  }
  std::optional<graph::JsonValue> state = read_json_object(args.state_file, exit_code);
  if (!state) return exit_code;
  if (const contracts::Contract* contract = compiled->state_contract(); contract != nullptr) {
    if (contracts::ValidationReport report = contract->validate(state->json()); !report.ok()) {
      std::cerr << "planfirst graph node " << args.name << " " << args.node << ": " << args.state_file
                << " is no " << contract->name() << ":\n"
                << report.describe();
      return kExitCheckFailed;
    }
  }
  graph::Runner runner(*compiled, graph::RunnerOptions{});
  core::Result<graph::Delta> delta = runner.run_node(args.node, *state);
  if (!delta) {
    std::cout << delta.error().message << "\n";
    return kExitCheckFailed;
  }
  std::cout << delta->json().dump(2) << "\n";
  return kExitOk;
}

// The command that answers an interrupted run; ANSWER is left for the user to fill in.
std::string resume_command(const GraphArgs& args, const graph::RunResult& result) {
  std::string command = "planfirst graph resume " + shell_word(args.name) + " --thread " +
                        shell_word(result.thread_id) + " --checkpoint " + shell_word(result.checkpoint_id);
  if (!args.checkpointer.empty()) command += " --checkpointer " + shell_word(args.checkpointer);
  return command + " --answer ANSWER";
}

void print_result(const GraphArgs& args, const graph::RunResult& result) {
  core::Json summary{{"status", graph::to_string(result.status)},
                     {"thread_id", result.thread_id},
                     {"checkpoint_id", result.checkpoint_id},
                     {"step", result.step},
                     {"last_completed_node", result.last_completed_node}};
  if (result.status == graph::RunStatus::kInterrupted) {
    summary["interrupt_node"] = result.interrupt_node;
    summary["message"] = result.message;
    summary["prompt"] = result.prompt;
    summary["resume"] = resume_command(args, result);
  }
  if (result.error) summary["error"] = result.error->describe();
  std::cout << summary.dump() << "\n";
}

// Runs `act` on a runner over the named graph and the --checkpointer store; prints the outcome.
template <typename Act>
int with_runner(const CliContext& ctx, const GraphArgs& args, Act act) {
  int exit_code = kExitOk;
  std::unique_ptr<GraphSession> loaded = load(ctx, exit_code);
  if (!loaded) return exit_code;
  std::optional<graph::CompiledGraph> compiled = build(*loaded, args.name, exit_code);
  if (!compiled) return exit_code;
  core::Result<std::unique_ptr<graph::Checkpointer>> store = open_checkpointer_or_default(args.checkpointer);
  if (!store) {
    std::cerr << "planfirst graph: " << store.error().describe() << "\n";
    return kExitInputError;
  }
  graph::JsonLinesEventPrinter printer(std::cout);
  graph::RunnerOptions options;
  options.checkpointer = store->get();
  if (args.events) options.events = &printer;
  graph::Runner runner(*compiled, options);
  core::Result<graph::RunResult> result = act(runner);
  if (!result) {
    std::cerr << "planfirst graph: " << result.error().describe() << "\n";
    const core::ErrorCode code = result.error().code;
    return code == core::ErrorCode::kInvalidArgument || code == core::ErrorCode::kNotFound ? kExitInputError
                                                                                           : kExitCheckFailed;
  }
  print_result(args, *result);
  return result->status == graph::RunStatus::kFailed ? kExitCheckFailed : kExitOk;
}

int run_run(const CliContext& ctx, const GraphArgs& args) {
  int exit_code = kExitOk;
  graph::JsonValue input;
  if (!args.input_file.empty()) {
    std::optional<graph::JsonValue> read = read_json_object(args.input_file, exit_code);
    if (!read) return exit_code;
    input = std::move(*read);
  }
  const std::string thread = args.thread.empty() ? core::RandomIdGenerator().next() : args.thread;
  return with_runner(ctx, args, [&](graph::Runner& runner) { return runner.run(thread, input); });
}

int run_resume(const CliContext& ctx, const GraphArgs& args) {
  return with_runner(ctx, args, [&](graph::Runner& runner) {
    return runner.resume(args.thread, args.checkpoint, args.answer);
  });
}

}  // namespace

void add_graph_command(CLI::App& app, CliContext& ctx) {
  auto args = std::make_shared<GraphArgs>();
  CLI::App* graph =
      app.add_subcommand("graph", "Registered pipelines (graphs): list, draw, run one node, run, resume");
  graph->require_subcommand(1);

  CLI::App* list = graph->add_subcommand("list", "The registered graphs and their nodes");
  list->callback([&ctx] {
    if (prepare_run(ctx)) ctx.exit_code = run_list(ctx);
  });

  CLI::App* mermaid = graph->add_subcommand("mermaid", "A graph as a Mermaid flowchart");
  mermaid->add_option("name", args->name, "Graph name")->required();
  mermaid->callback([&ctx, args] {
    if (prepare_run(ctx)) ctx.exit_code = run_mermaid(ctx, *args);
  });

  CLI::App* node =
      graph->add_subcommand("node", "Run one node on a state file and print its validated delta");
  node->add_option("name", args->name, "Graph name")->required();
  node->add_option("node", args->node, "Node name")->required();
  node->add_option("--state", args->state_file, "State as a JSON object (- for stdin)")->required();
  node->add_option("--llm", args->llm_url,
                   "Model server (OpenAI-compatible base URL) for nodes that call one, e.g. analyst_plan");
  node->callback([&ctx, args] {
    if (prepare_run(ctx) && apply_config_flags(ctx, "graph node", {{"llm.base_url", args->llm_url}})) {
      ctx.exit_code = run_node(ctx, *args);
    }
  });

  CLI::App* run = graph->add_subcommand("run", "Run a graph on a thread until it ends or asks for input");
  run->add_option("name", args->name, "Graph name")->required();
  run->add_option("--thread", args->thread, "Thread id (default: a new random id)");
  run->add_option("--input", args->input_file, "Input state as a JSON object");
  run->add_option("--checkpointer", args->checkpointer,
                  "memory:, sqlite:PATH or postgresql://... (default: sqlite under the data dir)");
  run->add_flag("--events", args->events, "Print the run's events as JSON Lines");
  run->callback([&ctx, args] {
    if (prepare_run(ctx)) ctx.exit_code = run_run(ctx, *args);
  });

  CLI::App* resume = graph->add_subcommand("resume", "Answer a thread's checkpoint and continue");
  resume->add_option("name", args->name, "Graph name")->required();
  resume->add_option("--thread", args->thread, "Thread id")->required();
  resume
      ->add_option("--checkpoint", args->checkpoint, "The checkpoint id the run paused at (must be the head)")
      ->required();
  resume->add_option("--answer", args->answer, "The answer")->required()->check(utf8_text());
  resume->add_option("--checkpointer", args->checkpointer, "memory:, sqlite:PATH or postgresql://...");
  resume->add_flag("--events", args->events, "Print the run's events as JSON Lines");
  resume->callback([&ctx, args] {
    if (prepare_run(ctx)) ctx.exit_code = run_resume(ctx, *args);
  });
}

}  // namespace planfirst::cli
