// planfirst ask DATA "question" [--out DIR] [--json] [--confirm] [--explain] [--llm URL] [--thread ID]
// [--checkpointer URI] planfirst plan DATA "question" [--json] [--llm URL]: plan and coverage only, nothing
// executed planfirst resume --thread ID --checkpoint CID --answer TEXT [--llm URL]: answer a paused ask
// (approve, or a change) All run the autoviz graph (seed 002); progress goes to stderr, the result to stdout.
// --llm (or config llm.base_url) makes intent, requirements and plan ask the model first, falling back to the
// rules.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/ids.hpp"
#include "data/dataset_pool.hpp"
#include "graph/events.hpp"
#include "graph/runner.hpp"
#include "graph/thread_retention.hpp"
#include "pipelines/autoviz/autoviz_graph.hpp"
#include "pipelines/autoviz/autoviz_services.hpp"
#include "pipelines/autoviz/report/run_manifest.hpp"
#include "planfirst/ask_report.hpp"
#include "planfirst/cli.hpp"
#include "planfirst/graph_session.hpp"  // open_checkpointer_or_default

namespace planfirst::cli {
namespace {

struct AskArgs {
  std::string data;
  std::string question;
  std::string table;
  std::string out_dir;
  std::string thread;
  std::string checkpointer;
  std::string checkpoint;
  std::string answer;
  std::string llm;  // --llm URL: overrides llm.base_url
  bool json = false;
  bool confirm = false;
  bool explain = false;
  bool plan_only = false;
};

// Prints each node's reasoning line and each progress message to stderr as the run goes.
class ProgressPrinter final : public graph::EventSink {
 public:
  explicit ProgressPrinter(bool quiet) : quiet_(quiet) {}
  void on_event(const graph::Event& event) override {
    if (quiet_) return;
    const core::Json& data = event.data.json();
    if (event.kind == graph::EventKind::kProgress) {
      std::cerr << "  .. " << data.value("message", "") << "\n";
    } else if (event.kind == graph::EventKind::kUpdates && data.contains("reasoning")) {
      for (const core::Json& line : data["reasoning"]) {
        std::cerr << "[" << event.node << "] " << line.value("step_text", "") << "\n";
      }
    }
  }

 private:
  bool quiet_;
};

int exit_code_for(const core::Error& error) {
  switch (error.code) {
    case core::ErrorCode::kNotFound:
    case core::ErrorCode::kInvalidArgument: return kExitInputError;
    default: return kExitCheckFailed;
  }
}

std::string resume_command(const AskArgs& args, const graph::RunResult& result) {
  std::string command = "planfirst resume --thread " + shell_word(result.thread_id) + " --checkpoint " +
                        shell_word(result.checkpoint_id);
  if (!args.checkpointer.empty()) command += " --checkpointer " + shell_word(args.checkpointer);
  return command + " --answer approve";
}

// Runs `act` on the autoviz graph with the --checkpointer store and prints the outcome. `datasets`:
// the pool the run reads its data through, which may already be opening it. `new_thread`: the thread a
// new run starts, kept while the default store drops the threads its retention does not keep;
// empty for a resume, which prunes nothing.
template <typename Act>
int with_autoviz(const CliContext& ctx, const AskArgs& args, const char* command,
                 std::shared_ptr<data::DatasetPool> datasets, const std::string& new_thread, Act act) {
  core::Result<std::shared_ptr<const autoviz::AutovizServices>> services =
      autoviz::AutovizServices::load(asset_store(ctx), &ctx.config, std::move(datasets));
  if (!services) {
    std::cerr << "planfirst " << command << ": " << services.error().describe() << "\n";
    return kExitInputError;
  }
  core::Result<graph::CompiledGraph> compiled = autoviz::build_autoviz_graph(std::move(*services));
  if (!compiled) {
    std::cerr << "planfirst " << command << ": " << compiled.error().describe() << "\n";
    return kExitInputError;
  }
  core::Result<std::unique_ptr<graph::Checkpointer>> store = open_checkpointer_or_default(args.checkpointer);
  if (!store) {
    std::cerr << "planfirst " << command << ": " << store.error().describe() << "\n";
    return kExitInputError;
  }
  if (!new_thread.empty() && args.checkpointer.empty()) {  // the default store keeps recent threads only
    const graph::ThreadRetention retention = default_store_retention(ctx.config);
    core::Result<graph::ThreadPruneReport> pruned =
        graph::prune_threads(**store, retention, std::chrono::system_clock::now(), new_thread);
    if (!pruned) {
      std::cerr << "planfirst " << command << ": " << pruned.error().describe() << "\n";
      return kExitInputError;
    }
    if (const std::string removed = graph::describe(*pruned, retention); !removed.empty() && !args.json)
      std::cerr << "  .. checkpoints: " << removed << "\n";
  }
  ProgressPrinter progress(args.json);
  graph::RunnerOptions options;
  options.checkpointer = store->get();
  options.events = &progress;
  graph::Runner runner(*compiled, options);
  core::Result<graph::RunResult> result = act(runner);
  if (!result) {
    std::cerr << "planfirst " << command << ": " << result.error().describe() << "\n";
    return exit_code_for(result.error());
  }
  AskReport report(result->state.json(), args.explain);
  if (result->status == graph::RunStatus::kFailed) {
    std::cerr << "planfirst " << command << ": "
              << (result->error ? result->error->describe() : "the run failed") << "\n";
    return result->error ? exit_code_for(*result->error) : kExitCheckFailed;
  }
  const bool paused = result->status == graph::RunStatus::kInterrupted;
  if (args.json) {
    core::Json document = report.to_json();
    document["thread_id"] = result->thread_id;
    document["checkpoint_id"] = result->checkpoint_id;
    document["status"] = std::string(graph::to_string(result->status));
    if (paused) document["resume"] = resume_command(args, *result);
    std::cout << document.dump(2) << "\n";
  } else {
    std::cout << report.to_text();
    if (paused) {
      std::cout << "\n"
                << result->message << "\n"
                << result->prompt << "\nthread " << result->thread_id << ", checkpoint "
                << result->checkpoint_id << "\nto approve: " << resume_command(args, *result)
                << "\nto change it: the same with --answer \"what to change\"\n";
    }
  }
  return report.succeeded() || paused ? kExitOk : kExitCheckFailed;
}

std::string output_folder(const AskArgs& args) {
  return args.out_dir.empty() ? std::string("planfirst-out") : args.out_dir;
}

graph::JsonValue ask_input(const AskArgs& args) {
  core::Json input{{"question", args.question},
                   {"dataset", args.data},
                   {"out_dir", output_folder(args)},
                   {"confirm", args.confirm},
                   {"plan_only", args.plan_only}};
  if (!args.table.empty()) input["table"] = args.table;
  return graph::JsonValue(std::move(input));
}

int run_ask(const CliContext& ctx, const AskArgs& args, const char* command) {
  if (!args.plan_only) {  // refused before planning: a folder of the user's is never written into
    if (core::Result<void> usable = autoviz::check_output_folder(output_folder(args)); !usable) {
      std::cerr << "planfirst " << command << ": " << usable.error().describe() << "\n";
      return kExitUsage;
    }
  }
  core::RandomIdGenerator ids;
  const std::string thread = args.thread.empty() ? "ask-" + ids.next() : args.thread;
  auto datasets = std::make_shared<data::DatasetPool>();
  // A run that goes on to execute opens its database file while the planner loads. A CSV, Parquet
  // or JSON file loads when first read instead: its load may take long, and a question the planner
  // refuses must not wait for it.
  if (!args.confirm && !args.plan_only && data::is_duckdb_file(args.data))
    datasets->prefetch(args.data, args.table);
  return with_autoviz(ctx, args, command, std::move(datasets), thread,
                      [&](graph::Runner& runner) { return runner.run(thread, ask_input(args)); });
}

int run_resume(const CliContext& ctx, const AskArgs& args) {
  return with_autoviz(ctx, args, "resume", nullptr, "", [&](graph::Runner& runner) {
    return runner.resume(args.thread, args.checkpoint, args.answer);
  });
}

constexpr const char* kLlmHelp =
    "An OpenAI-compatible server's base URL (overrides llm.base_url): intent, requirements and plan ask the "
    "model "
    "first under their contracts and fall back to the rules; without it (and without llm.base_url) all runs "
    "offline";

// Loads the configuration with --llm over llm.base_url; false (exit code set) on failure.
bool prepare_ask(CliContext& ctx, const AskArgs& args, const char* command) {
  return prepare_run(ctx) && apply_config_flags(ctx, command, {{"llm.base_url", args.llm}});
}

void add_common(CLI::App* command, AskArgs& args) {
  command->add_option("DATA", args.data, "A CSV, Parquet or JSON file, or a DuckDB database file")
      ->required();
  command->add_option("QUESTION", args.question, "The question, in plain words")
      ->required()
      ->check(nonblank_question());
  command->add_option("--table", args.table, "The table to read when DATA is a database with several");
  command->add_flag("--json", args.json, "Print one JSON document instead of text; no progress lines");
  command->add_flag("--explain", args.explain, "Also print every stage's reasoning");
  command->add_option("--llm", args.llm, kLlmHelp);
  command->add_option("--thread", args.thread, "Thread id (default: a new one)");
  command->add_option(
      "--checkpointer", args.checkpointer,
      "memory:, sqlite:PATH or postgresql://... (default: sqlite under the user's data folder)");
}

}  // namespace

void add_ask_command(CLI::App& app, CliContext& ctx) {
  auto args = std::make_shared<AskArgs>();
  CLI::App* ask =
      app.add_subcommand("ask",
                         "Plan, check and run an analysis of a dataset: requirements, tools, a plan whose "
                         "every step cites what it "
                         "satisfies, a coverage check, then charts, tables and a report in --out");
  ask->footer(
      "Chart SVGs come from a node process that stays up for render.keep_alive_seconds (default 300) "
      "after the last chart, so the next ask skips node's start-up; PLANFIRST_RENDER_KEEP_ALIVE_SECONDS=0 "
      "keeps it inside the command.");
  add_common(ask, *args);
  ask->add_option("--out", args->out_dir,
                  "Output folder (default: planfirst-out). A folder a previous run wrote is cleared of that "
                  "run's files (recorded in its .planfirst-run.json) first; one holding other files and no "
                  "such record is refused (exit 2)");
  ask->add_flag("--confirm", args->confirm, "Pause after planning for approval (see 'planfirst resume')");
  ask->callback([&ctx, args] {
    if (prepare_ask(ctx, *args, "ask")) ctx.exit_code = run_ask(ctx, *args, "ask");
  });

  auto plan_args = std::make_shared<AskArgs>();
  plan_args->plan_only = true;
  CLI::App* plan = app.add_subcommand("plan", "Plan and check an analysis without running it");
  add_common(plan, *plan_args);
  plan->callback([&ctx, plan_args] {
    if (prepare_ask(ctx, *plan_args, "plan")) ctx.exit_code = run_ask(ctx, *plan_args, "plan");
  });

  auto resume_args = std::make_shared<AskArgs>();
  CLI::App* resume =
      app.add_subcommand("resume", "Answer a paused 'ask --confirm': approve, or say what to change");
  resume->add_option("--thread", resume_args->thread, "Thread id the paused run printed")->required();
  resume->add_option("--checkpoint", resume_args->checkpoint, "Checkpoint id the paused run printed")
      ->required();
  resume->add_option("--answer", resume_args->answer, "'approve', or the change in plain words")
      ->required()
      ->check(utf8_text());
  resume->add_option("--checkpointer", resume_args->checkpointer, "The store the run used");
  resume->add_flag("--json", resume_args->json, "Print one JSON document instead of text");
  resume->add_flag("--explain", resume_args->explain, "Also print every stage's reasoning");
  resume->add_option("--llm", resume_args->llm, kLlmHelp);
  resume->callback([&ctx, resume_args] {
    if (prepare_ask(ctx, *resume_args, "resume")) ctx.exit_code = run_resume(ctx, *resume_args);
  });
}

}  // namespace planfirst::cli
