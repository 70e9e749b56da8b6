// planfirst retrieve "question" [--plan-only] [--json] [--gitlab URL] [--youtrack URL] [--timezone TZ]
// [--as-of YYYY-MM-DD]
// Runs the retrieval graph (seed 001): prints the intents, hypotheses, plans and queries, then, unless
// --plan-only, what each source returned and the context document. A source the plans name but no
// flag configured is reported as not configured (with how to configure it); the rest still run.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/join.hpp"
#include "graph/runner.hpp"
#include "pipelines/retrieval/retrieval_graph.hpp"
#include "pipelines/retrieval/retrieval_planner.hpp"
#include "planfirst/cli.hpp"
#include "planfirst/retrieve_sources.hpp"

namespace planfirst::cli {
namespace {

using core::Json;

struct RetrieveArgs {
  std::string question;
  SourceFlags flags;
  std::string timezone;
  std::string as_of;
  bool plan_only = false;
  bool json = false;
};

// `object[key]` when it is an array, else an empty one.
const Json& list_at(const Json& object, const char* key) {
  static const Json kEmpty = Json::array();
  return object.is_object() && object.contains(key) && object[key].is_array() ? object[key] : kEmpty;
}

// "projects=a,b dates=last week" in the seed's filter order; empty filters left out.
std::string values_text(const Json& filters) {
  std::string text;
  for (std::string_view name : retrieval::kFilterOrder) {
    const Json& values = list_at(filters, std::string(name).c_str());
    if (values.empty()) continue;
    text += (text.empty() ? "" : " ") + std::string(name) + "=" +
            core::join(values.get<std::vector<std::string>>(), ",");
  }
  return text;
}

// Sources that plans named but are not configured -> how to configure them.
Json configure_hints(const Json& state) {
  Json hints = Json::object();
  for (const Json& result : list_at(state["retrieval"], "results")) {
    for (const Json& attempt : list_at(result, "attempts")) {
      if (attempt.value("status", "") == "not_configured") {
        const std::string source = attempt.value("source", "");
        hints[source] = how_to_configure(source);
      }
    }
  }
  return hints;
}

void print_text(const Json& state, bool plan_only) {
  const Json& reasoning = state["reasoning"];
  std::cout << fmt::format("Intents (primary {:.2f}, overall {:.2f}):\n",
                           reasoning.value("primary_score", 0.0), reasoning.value("overall_score", 0.0));
  for (const Json& intent : reasoning["intents"]) {
    std::cout << fmt::format("  {:<16} {:.2f}\n", intent.value("type", ""), intent.value("confidence", 0.0));
  }
  std::cout << "Entities: " << values_text(reasoning["entities"]) << "\n";
  if (const std::string as_of = reference_day_text(state); !as_of.empty())
    std::cout << "As of: " << as_of << "\n";
  std::cout << "Hypotheses:\n";
  for (const Json& hypothesis : reasoning["hypotheses"]) {
    std::vector<std::string> after = hypothesis["dependencies"].get<std::vector<std::string>>();
    std::cout << "  " << hypothesis.value("id", "") << "  " << hypothesis.value("description", "")
              << (after.empty() ? "" : " (after " + core::join(after) + ")") << "\n";
  }
  const Json& retrieval = state["retrieval"];
  std::cout << "Plans:\n";
  if (retrieval["plans"].empty()) std::cout << "  none: every intent is below the confidence threshold 0.3\n";
  for (const Json& plan : retrieval["plans"]) {
    std::cout << "  " << plan.value("id", "") << "  [" << plan.value("priority", 0) << "] "
              << plan.value("description", "")
              << "  sources=" << core::join(plan["sources"].get<std::vector<std::string>>())
              << (plan["filters"].empty() ? "" : "  " + values_text(plan["filters"])) << "\n";
  }
  std::cout << "Queries:\n";
  for (const Json& query : retrieval["queries"]) {
    std::cout << "  " << query.value("id", "") << "  " << query.value("source", "") << "  \""
              << query.value("query_string", "") << "\"\n";
  }
  if (plan_only) return;
  std::cout << "Results:\n";
  for (const Json& result : list_at(retrieval, "results")) {
    std::cout << "  " << result.value("query_id", "") << "  " << result.value("source", "") << ": ";
    if (result.value("status", "") == "ok") {
      std::cout << result.value("item_count", 0) << " items from " << result.value("answered_by", "")
                << (result.value("truncated", false) ? " (truncated to the limit)" : "") << "\n";
    } else {
      std::vector<std::string> messages;
      for (const Json& attempt : result["attempts"]) messages.push_back(attempt.value("message", ""));
      std::cout << core::join(messages, "; ") << "\n";
    }
  }
  const Json hints = configure_hints(state);
  for (const auto& [source, hint] : hints.items()) {
    std::cout << "  to configure " << source << ": " << hint.get<std::string>() << "\n";
  }
  if (state.contains("context")) std::cout << "\n" << state["context"].value("markdown", "");
}

int run_retrieve(const CliContext& ctx, const RetrieveArgs& args) {
  core::Result<retrieval::SourceMap> sources = make_retrieval_sources(args.flags);
  if (!sources) {
    std::cerr << "planfirst retrieve: " << sources.error().describe() << "\n";
    return kExitUsage;
  }
  core::Result<retrieval::TimeZone> zone = retrieval::TimeZone::parse(args.timezone);
  if (!zone) {
    std::cerr << "planfirst retrieve: " << zone.error().describe() << "\n";
    return kExitUsage;
  }
  core::ReferenceDay as_of = reference_day(args.as_of, std::nullopt, "");
  if (as_of.origin == core::ReferenceOrigin::kClock) as_of.day = zone->local_day(core::system_clock().now());
  core::Result<std::shared_ptr<const retrieval::RetrievalServices>> services =
      retrieval::RetrievalServices::load(asset_store(ctx), std::move(*sources), std::move(*zone));
  if (!services) {
    std::cerr << "planfirst retrieve: " << services.error().describe() << "\n";
    return kExitInputError;
  }
  core::Result<graph::CompiledGraph> compiled = retrieval::build_retrieval_graph(std::move(*services));
  if (!compiled) {
    std::cerr << "planfirst retrieve: " << compiled.error().describe() << "\n";
    return kExitCheckFailed;
  }
  graph::Runner runner(*compiled, graph::RunnerOptions{});
  core::Result<graph::RunResult> result = runner.run(
      "retrieve",
      graph::JsonValue(
          Json{{"question", args.question}, {"plan_only", args.plan_only}, {"as_of", core::to_json(as_of)}}));
  if (!result || result->status == graph::RunStatus::kFailed) {
    const core::Error error =
        !result ? result.error() : result->error.value_or(core::internal_error("the run failed"));
    std::cerr << "planfirst retrieve: " << error.describe() << "\n";
    return error.code == core::ErrorCode::kInvalidArgument ? kExitInputError : kExitCheckFailed;
  }
  const Json& state = result->state.json();
  if (args.json) {
    Json document{{"question", args.question},
                  {"as_of", state.value("as_of", Json())},
                  {"reasoning", state["reasoning"]},
                  {"retrieval", state["retrieval"]},
                  {"audit", state["audit"]},
                  {"capabilities", retrieval::to_json(retrieval::RetrievalPlanner::capabilities())}};
    if (!args.plan_only) {
      document["context"] = state.value("context", Json::object());
      document["configure"] = configure_hints(state);
    }
    std::cout << document.dump(2) << "\n";
  } else {
    print_text(state, args.plan_only);
  }
  return kExitOk;
}

}  // namespace

void add_retrieve_command(CLI::App& app, CliContext& ctx) {
  auto args = std::make_shared<RetrieveArgs>();
  CLI::App* command = app.add_subcommand(
      "retrieve",
      "Plan retrieval for a question (seed 001) and fetch from GitLab and YouTrack when configured");
  command->add_option("question", args->question, "The question, in plain language")
      ->required()
      ->check(nonblank_question());
  command->add_flag("--plan-only", args->plan_only,
                    "Stop after planning: intents, hypotheses, plans, queries");
  command->add_flag("--json", args->json, "Print the state as JSON");
  command->add_option("--gitlab", args->flags.gitlab_url,
                      "GitLab server base URL (https://gitlab.example.com); token in $GITLAB_TOKEN");
  command->add_option("--gitlab-project", args->flags.gitlab_projects,
                      "GitLab project (group/app) for questions that name none; repeatable");
  command->add_option("--youtrack", args->flags.youtrack_url,
                      "YouTrack server base URL (https://youtrack.example.com); token in $YOUTRACK_TOKEN");
  command->add_option("--youtrack-project", args->flags.youtrack_projects,
                      "YouTrack project for questions that name none; repeatable (default: all)");
  command->add_option(
      "--timezone", args->timezone,
      "Zone relative dates are read in: UTC (default), +HH:MM or an IANA name (Europe/Berlin)");
  command
      ->add_option("--as-of", args->as_of,
                   "The day relative dates (\"last week\", \"this month\") count back from; default: today")
      ->check(reference_day_text());
  command->callback([&ctx, args] {
    if (prepare_run(ctx)) ctx.exit_code = run_retrieve(ctx, *args);
  });
}

}  // namespace planfirst::cli
