// planfirst chat --project DIR ["question"] [--json] [--llm URL] [--metrics] [--db URI] [--neo4j URL]
// [--rerank] [--answer TEXT] [--as-of YYYY-MM-DD]
//                [--interactive]
// Runs the analyst graph (seed 000): router, analyst plan, clarification, retrieval from the plan's
// required sources only, answer. A plan that asks a question pauses the thread: --answer answers it,
// a terminal is asked for the answer, otherwise the clarification (clarification_v1) is printed.
// With no question, or --interactive, it reads questions from the terminal until "exit" or end of input.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/join.hpp"
#include "core/utf8.hpp"
#include "graph/memory_checkpointer.hpp"
#include "graph/runner.hpp"
#include "pipelines/analyst/analyst_graph.hpp"
#include "planfirst/chat_sources.hpp"
#include "planfirst/cli.hpp"
#include "sources/project_settings.hpp"

namespace planfirst::cli {
namespace {

using core::Json;

struct ChatArgs {
  std::string question;
  ChatSourceFlags flags;
  std::string llm_url;
  std::string answer;
  std::string as_of;
  bool json = false;
  bool metrics = false;
  bool interactive = false;
};

// One conversation: the graph, a memory checkpointer, one thread per question.
class ChatSession {
 public:
  ChatSession(graph::CompiledGraph graph, std::shared_ptr<core::MetricsRegistry> metrics,
              core::ReferenceDay as_of)
      : metrics_(std::move(metrics)), as_of_(std::move(as_of)), runner_(std::move(graph), options()) {}

  core::Result<graph::RunResult> ask(const std::string& question) {
    return runner_.run("chat-" + std::to_string(++turns_),
                       graph::JsonValue(Json{{"user_query", question}, {"as_of", core::to_json(as_of_)}}));
  }
  core::Result<graph::RunResult> answer(const graph::RunResult& paused, const std::string& text) {
    return runner_.resume(paused.thread_id, paused.checkpoint_id, text);
  }
  std::string metrics_text() const { return metrics_->render_prometheus(); }

 private:
  graph::RunnerOptions options() {
    graph::RunnerOptions options;
    options.checkpointer = &checkpointer_;
    return options;
  }

  std::shared_ptr<core::MetricsRegistry> metrics_;
  core::ReferenceDay as_of_;
  graph::MemoryCheckpointer checkpointer_;  // declared before runner_, which borrows it
  graph::Runner runner_;
  int turns_ = 0;
};

std::string list_text(const Json& list) {
  std::vector<std::string> items;
  for (const Json& item : list) items.push_back(item.is_string() ? item.get<std::string>() : item.dump());
  return items.empty() ? "none" : core::join(items, ", ");
}

Json chat_document(const graph::RunResult& result) {
  const Json& state = result.state.json();
  Json document = Json::object();
  for (const char* key :
       {"user_query", "as_of", "request_type", "track", "route_reason", "router", "analyst_plan",
        "plan_review", "clarifications", "source_status", "evidence", "answer"}) {
    if (state.contains(key)) document[key] = state[key];
  }
  if (result.status == graph::RunStatus::kInterrupted) {
    document["answer"] = Json{{"schema", "clarification_v1"},
                              {"format", "json"},
                              {"content",
                               {{"question", result.prompt},
                                {"thread_id", result.thread_id},
                                {"checkpoint_id", result.checkpoint_id}}}};
  }
  return document;
}

void print_text(const graph::RunResult& result) {
  const Json& state = result.state.json();
  const Json plan = state.value("analyst_plan", Json::object());
  std::cout << "request type: " << state.value("request_type", "") << " (" << state.value("track", "")
            << ")\n"
            << "route: " << state.value("route_reason", "") << "\n"
            << "plan: intent=" << plan.value("intent", "")
            << " sources=" << list_text(plan.value("required_sources", Json::array()))
            << " schema=" << plan.value("expected_output_schema", "") << "\n";
  if (const std::string as_of = reference_day_text(state); !as_of.empty())
    std::cout << "as of: " << as_of << "\n";
  for (const Json& report : state.value("source_status", Json::array())) {
    std::cout << "source " << report.value("source", "") << ": " << report.value("status", "")
              << (report.value("message", "").empty()
                      ? " (" + std::to_string(report.value("items", 0)) + " items)"
                      : " - " + report.value("message", ""))
              << "\n";
  }
  if (result.status == graph::RunStatus::kInterrupted) {
    std::cout << "\nclarification needed: " << result.prompt << "\n";
    return;
  }
  const Json answer = state.value("answer", Json::object());
  std::cout << "\n[" << answer.value("schema", "") << ", " << answer.value("strategy", "") << "]\n";
  const Json& content = answer.contains("content") ? answer["content"] : Json();
  std::cout << (content.is_string() ? content.get<std::string>() : content.dump(2) + "\n");
  if (!answer.value("fallback", "").empty())
    std::cout << "(model answer rejected: " << answer.value("fallback", "") << ")\n";
}

// Prints the run's outcome; the exit code for it.
int report(const core::Result<graph::RunResult>& result, const ChatArgs& args, const ChatSession& session) {
  if (!result || result->status == graph::RunStatus::kFailed) {
    const core::Error error =
        !result ? result.error() : result->error.value_or(core::internal_error("the run failed"));
    std::cerr << "planfirst chat: " << error.describe() << "\n";
    return error.code == core::ErrorCode::kInvalidArgument ? kExitInputError : kExitCheckFailed;
  }
  if (args.json) {
    Json document = chat_document(*result);
    if (args.metrics) document["metrics"] = session.metrics_text();
    std::cout << document.dump(2) << "\n";
  } else {
    print_text(*result);
    if (args.metrics) std::cout << "\n" << session.metrics_text();
  }
  return kExitOk;
}

bool stdin_is_terminal() {
  return ::isatty(STDIN_FILENO) == 1;
}

// The next line the user types that is well-formed UTF-8 (one that is not is refused, naming its
// first bad byte, and asked again); nothing at the end of input.
std::optional<std::string> read_line(const char* prompt) {
  std::string line;
  while (true) {
    std::cout << prompt << std::flush;
    if (!std::getline(std::cin, line)) return std::nullopt;
    const std::string bad = core::invalid_utf8_message(line);
    if (bad.empty()) return line;
    std::cout << "That line is " << bad << "; type it again.\n";
  }
}

// One question; a pause is answered from --answer, else from the terminal when `ask_terminal`.
int one_question(ChatSession& session, const std::string& question, const ChatArgs& args, bool ask_terminal) {
  core::Result<graph::RunResult> result = session.ask(question);
  std::string preset = args.answer;
  while (result && result->status == graph::RunStatus::kInterrupted) {
    std::string answer = preset;
    preset.clear();
    if (answer.empty() && ask_terminal) {
      std::cout << result->prompt << "\n";
      std::optional<std::string> line = read_line("answer> ");
      if (!line) break;
      answer = *line;
    }
    if (answer.empty()) break;
    result = session.answer(*result, answer);
  }
  return report(result, args, session);
}

int run_chat(CliContext& ctx, const ChatArgs& args) {
  const bool interactive = args.interactive || args.question.empty();
  if (interactive && !stdin_is_terminal()) {
    std::cerr
        << "planfirst chat: interactive mode needs a terminal on standard input; pass the question as an "
           "argument (and --answer TEXT for a clarification)\n";
    return kExitUsage;
  }
  if (!apply_config_flags(ctx, "chat", {{"llm.base_url", args.llm_url}})) return ctx.exit_code;
  core::Result<ChatSources> chat_sources = make_chat_sources(args.flags, asset_store(ctx), ctx.config);
  if (!chat_sources) {
    std::cerr << "planfirst chat: " << chat_sources.error().describe() << "\n";
    return kExitUsage;
  }
  core::Result<sources::ProjectSettings> settings = sources::load_project_settings(args.flags.project_dir);
  if (!settings) {
    std::cerr << "planfirst chat: " << settings.error().describe() << "\n";
    return kExitInputError;
  }
  const core::ReferenceDay as_of = reference_day(args.as_of, settings->as_of, settings->file.string());
  analyst::AnalystOptions options;
  options.config = &ctx.config;
  options.sources = std::move(chat_sources->sources);
  options.source_hints = std::move(chat_sources->hints);
  options.metrics = std::make_shared<core::MetricsRegistry>();
  std::shared_ptr<core::MetricsRegistry> metrics = options.metrics;
  core::Result<std::shared_ptr<const analyst::AnalystServices>> services =
      analyst::AnalystServices::load(asset_store(ctx), std::move(options));
  if (!services) {
    std::cerr << "planfirst chat: " << services.error().describe() << "\n";
    return kExitInputError;
  }
  core::Result<graph::CompiledGraph> compiled = analyst::build_analyst_graph(std::move(*services));
  if (!compiled) {
    std::cerr << "planfirst chat: " << compiled.error().describe() << "\n";
    return kExitCheckFailed;
  }
  ChatSession session(std::move(*compiled), std::move(metrics), as_of);
  if (!interactive) return one_question(session, args.question, args, stdin_is_terminal());
  int exit_code = kExitOk;
  std::optional<std::string> question =
      args.question.empty() ? read_line("you> ") : std::optional(args.question);
  while (question) {
    if (*question == "exit" || *question == "quit") break;
    if (!question->empty()) exit_code = one_question(session, *question, args, true);
    question = read_line("you> ");
  }
  return exit_code;
}

}  // namespace

void add_chat_command(CLI::App& app, CliContext& ctx) {
  auto args = std::make_shared<ChatArgs>();
  CLI::App* command = app.add_subcommand("chat",
                                         "Ask the analyst (seed 000): route, plan the sources, clarify, "
                                         "retrieve from the plan's sources, answer");
  command->add_option("question", args->question, "The question; none: interactive mode")
      ->check(nonblank_question());
  command
      ->add_option("--project", args->flags.project_dir,
                   "The project folder (status database, docs/, policies/)")
      ->required();
  command->add_option("--db", args->flags.db_uri,
                      "The status database as postgresql://... instead of the project's");
  command->add_option(
      "--neo4j", args->flags.neo4j_url,
      "Neo4j HTTP root (http://localhost:7474; user and password in $NEO4J_USER, $NEO4J_PASSWORD) "
      "instead of the built-in project graph");
  command->add_option("--llm", args->llm_url,
                      "OpenAI-compatible model server base URL (http://localhost:8000/v1)");
  command
      ->add_option("--answer", args->answer,
                   "The answer to the plan's clarification question, if it asks one")
      ->check(utf8_text());
  command
      ->add_option("--as-of", args->as_of,
                   "The day relative periods (\"this month\", \"last 3 sprints\") count back from; default: "
                   "the project's as_of in planfirst.toml, else today")
      ->check(reference_day_text());
  command->add_flag(
      "--rerank", args->flags.rerank,
      "Re-rank doc and policy hits with the configured embedder (embed.base_url; else the built-in one)");
  command->add_flag("--json", args->json, "Print the state (plan, evidence, answer) as JSON");
  command->add_flag("--metrics", args->metrics,
                    "Print the analyst metrics (Prometheus text) after the answer");
  command->add_flag("--interactive", args->interactive,
                    "Read questions and clarification answers from the terminal");
  command->callback([&ctx, args] {
    if (prepare_run(ctx)) ctx.exit_code = run_chat(ctx, *args);
  });
}

}  // namespace planfirst::cli
