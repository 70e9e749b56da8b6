// planfirst friction DATA [--out DIR] [--yes] [--no-critique] [--map FIELD=COLUMN]... [--channel C]...
//                         [--from DAY] [--to DAY] [--answer CHECKPOINT=ANSWER]... [--ask QUESTION]
//                         [--checkpointer URI] [--thread ID]
// Runs the friction graph (seed 003) on a contacts file: prints each node's reasoning as it comes,
// asks at each of the three checkpoints on the terminal (--yes approves them; --answer gives a
// checkpoint's answer the first time it asks), then the ranked drivers and the files written; --ask
// puts a question to qa_agent once the analysis is done.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/ids.hpp"
#include "core/number_text.hpp"
#include "graph/runner.hpp"
#include "pipelines/friction/checkpoint_answer.hpp"
#include "pipelines/friction/friction_graph.hpp"
#include "planfirst/cli.hpp"
#include "planfirst/graph_session.hpp"

namespace planfirst::cli {
namespace {

struct FrictionArgs {
  std::string data;
  std::string out = friction::kDefaultOutputDir;
  bool yes = false;
  bool no_critique = false;
  std::vector<std::string> maps;
  std::vector<std::string> channels;
  std::string from;
  std::string to;
  std::vector<std::string> answers;
  std::string ask;
  std::string checkpointer;
  std::string thread;
};

// The run's input state; nullopt after printing why (a --map without '=').
std::optional<core::Json> input_state(const FrictionArgs& args) {
  core::Json input{
      {"dataset_path", args.data}, {"output_dir", args.out}, {"critique_enabled", !args.no_critique}};
  core::Json filters = core::Json::object();
  if (!args.channels.empty()) filters["channels"] = args.channels;
  if (!args.from.empty()) filters["from"] = args.from;
  if (!args.to.empty()) filters["to"] = args.to;
  if (!filters.empty()) input["filters"] = std::move(filters);
  for (const std::string& map : args.maps) {
    const std::size_t eq = map.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == map.size()) {
      std::cerr << "planfirst friction: --map takes FIELD=COLUMN (e.g. summary=notes), not '" << map << "'\n";
      return std::nullopt;
    }
    input["columns"][map.substr(0, eq)] = map.substr(eq + 1);
  }
  return input;
}

// Prints the reasoning lines the state holds beyond the first `printed`; returns the new count.
std::size_t print_reasoning(const core::Json& state, std::size_t printed) {
  const core::Json& lines = state.value("reasoning", core::Json::array());
  for (std::size_t i = printed; i < lines.size(); ++i) {
    if (lines[i].value("step_name", "") == "Supervisor") continue;
    std::cerr << "[" << lines[i].value("step_name", "") << "] " << lines[i].value("step_text", "") << "\n";
  }
  return lines.size();
}

void print_drivers(const core::Json& state) {
  const core::Json& synthesis = state.value("synthesis", core::Json::object());
  const std::int64_t total = synthesis.value("total_contacts", std::int64_t{0});
  std::cout << "\n" << synthesis.value("headline", "") << "\n" << synthesis.value("lens_line", "") << "\n\n";
  std::cout << fmt::format("{:>4}  {:<14} {:<30} {:>9} {:>6} {:>7} {:>9} {:>9} {:>7}\n", "rank", "lens",
                           "driver", "contacts", "share", "repeat", "handle m", "transfer", "IxE");
  for (const core::Json& d : synthesis.value("drivers", core::Json::array())) {
    std::cout << fmt::format("{:>4}  {:<14} {:<30} {:>9} {:>5.1f}% {:>6.1f}% {:>9.1f} {:>8.1f}% {:>7.1f}\n",
                             d.value("rank", 0), d.value("lens", ""), d.value("label", ""),
                             core::format_integer(d.value("contacts", std::int64_t{0}), 1000),
                             100 * d.value("share", 0.0), 100 * d.value("repeat_rate", 0.0),
                             d.value("avg_handle_minutes", 0.0), 100 * d.value("transfer_rate", 0.0),
                             d.value("score", 0.0));
  }
  std::cout << "\nImpact x Ease: " << synthesis.value("formula", "") << "\n";
  std::cout << "(" << core::format_integer(total, 1000) << " contacts analysed)\n";
}

std::string last_ai_message(const core::Json& state) {
  const core::Json& messages = state.value("messages", core::Json::array());
  for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
    if (it->value("role", "") == "ai") return it->value("content", "");
  }
  return "";
}

int failure(const core::Error& error) {
  std::cerr << "planfirst friction: " << error.describe() << "\n";
  return error.code == core::ErrorCode::kInvalidArgument || error.code == core::ErrorCode::kNotFound
             ? kExitInputError
             : kExitCheckFailed;
}

// --answer CHECKPOINT=ANSWER by checkpoint; nullopt after printing why (no '=' or no such checkpoint).
std::optional<std::map<std::string, std::string>> given_answers(const FrictionArgs& args) {
  std::map<std::string, std::string> answers;
  for (const std::string& given : args.answers) {
    const std::size_t eq = given.find('=');
    const std::string node = given.substr(0, eq);
    if (eq == std::string::npos || !friction::is_checkpoint(node)) {
      std::cerr
          << "planfirst friction: --answer takes CHECKPOINT=ANSWER with CHECKPOINT data_discovery, "
             "data_prep or synthesizer (e.g. data_prep='{\"filters\": {\"channels\": [\"chat\"]}}'), not '"
          << given << "'\n";
      return std::nullopt;
    }
    answers[node] = given.substr(eq + 1);
  }
  return answers;
}

int run_friction(const CliContext& ctx, const FrictionArgs& args) {
  std::optional<core::Json> input = input_state(args);
  if (!input) return kExitUsage;
  std::optional<std::map<std::string, std::string>> given = given_answers(args);
  if (!given) return kExitUsage;
  core::Result<std::unique_ptr<GraphSession>> session = open_graph_session(ctx);
  if (!session) return failure(session.error());
  core::Result<graph::CompiledGraph> compiled = (*session)->build(std::string(friction::kFrictionGraphName));
  if (!compiled) return failure(compiled.error());
  const std::string uri = args.checkpointer.empty() && args.yes ? "memory:" : args.checkpointer;
  core::Result<std::unique_ptr<graph::Checkpointer>> store = open_checkpointer_or_default(uri);
  if (!store) return failure(store.error());
  graph::RunnerOptions options;
  options.checkpointer = store->get();
  graph::Runner runner(*compiled, options);
  const std::string thread = args.thread.empty() ? core::RandomIdGenerator().next() : args.thread;

  core::Result<graph::RunResult> result = runner.run(thread, graph::JsonValue(*input));
  std::size_t printed = 0;
  while (true) {
    if (!result) return failure(result.error());
    printed = print_reasoning(result->state.json(), printed);
    if (result->status == graph::RunStatus::kFailed) {
      return failure(result->error.value_or(core::internal_error("the run failed", thread)));
    }
    if (result->status == graph::RunStatus::kDone) break;
    std::cout << "\n" << result->message << "\n" << result->prompt << " [yes/no/JSON] " << std::flush;
    std::string answer = "approve";
    const bool scripted = given->count(result->interrupt_node) > 0;
    if (scripted) {
      answer = given->at(result->interrupt_node);
      given->erase(result->interrupt_node);  // the checkpoint asks again after a change: then --yes or stdin
      std::cout << answer << " (--answer)\n";
    } else if (args.yes) {
      std::cout << "approve (--yes)\n";
    } else if (!std::getline(std::cin, answer)) {
      std::cout << "\nNo answer on standard input. To continue:\n  planfirst graph resume friction --thread "
                << shell_word(thread) << " --checkpoint " << shell_word(result->checkpoint_id)
                << (uri.empty() ? "" : " --checkpointer " + shell_word(uri)) << " --answer approve\n";
      return kExitOk;
    }
    if (answer.empty()) answer = "approve";
    core::Result<graph::RunResult> next = runner.resume(thread, result->checkpoint_id, answer);
    if (!next && next.error().code == core::ErrorCode::kInvalidArgument && !scripted && !args.yes) {
      std::cout << "Not accepted: " << next.error().describe() << "\n";  // the run still waits here
      continue;
    }
    result = std::move(next);
  }
  const core::Json& state = result->state.json();
  if (!state.value("analysis_complete", false)) {
    std::cout << last_ai_message(state) << "\n";
    return kExitOk;
  }
  print_drivers(state);
  std::cout << "\nReport: " << state.value("report_file_path", "")
            << "\nDrivers: " << state.value("data_file_path", "") << "\n";
  for (const core::Json& notice : state["artifacts"].value("notices", core::Json::array())) {
    std::cerr << "notice: " << notice.get<std::string>() << "\n";
  }
  if (!args.ask.empty()) {
    core::Json turn{{"messages", core::Json::array({{{"role", "human"}, {"content", args.ask}}})}};
    core::Result<graph::RunResult> qa = runner.run(thread, graph::JsonValue(std::move(turn)));
    if (!qa) return failure(qa.error());
    if (qa->status == graph::RunStatus::kFailed)
      return failure(qa->error.value_or(core::internal_error("qa failed", thread)));
    std::cout << "\nQ: " << args.ask << "\nA: " << last_ai_message(qa->state.json()) << "\n";
  }
  return kExitOk;
}

}  // namespace

void add_friction_command(CLI::App& app, CliContext& ctx) {
  auto args = std::make_shared<FrictionArgs>();
  CLI::App* command = app.add_subcommand(
      "friction",
      "Contact-centre friction analysis of a contacts file (seed 003): drivers ranked by Impact x Ease");
  command->add_option("data", args->data, "Contacts file: CSV, Parquet, JSON or DuckDB")->required();
  command->add_option("--out", args->out, "Output folder (default friction-out)");
  command->add_flag("--yes", args->yes, "Approve every checkpoint without asking");
  command->add_flag("--no-critique", args->no_critique,
                    "Skip the critique that rechecks the synthesis with SQL");
  command->add_option("--map", args->maps, "FIELD=COLUMN: the column holding a field (e.g. summary=notes)");
  command->add_option("--channel", args->channels, "Keep only this channel (repeatable)");
  command->add_option("--from", args->from, "Keep contacts from this day (YYYY-MM-DD)");
  command->add_option("--to", args->to, "Keep contacts up to this day (YYYY-MM-DD)");
  command->add_option(
      "--answer", args->answers,
      "CHECKPOINT=ANSWER: the answer the first time a checkpoint asks (data_discovery, data_prep, "
      "synthesizer; e.g. data_prep='{\"filters\": {\"channels\": [\"chat\"]}}')");
  command->add_option("--ask", args->ask, "A question for qa_agent once the analysis is done")
      ->check(utf8_text());
  command->add_option("--checkpointer", args->checkpointer,
                      "memory:, sqlite:PATH or postgresql://... (default: memory: with --yes, else sqlite "
                      "under the data dir)");
  command->add_option("--thread", args->thread, "Thread id (default: a new random id)");
  command->callback([&ctx, args] {
    if (prepare_run(ctx)) ctx.exit_code = run_friction(ctx, *args);
  });
}

}  // namespace planfirst::cli
