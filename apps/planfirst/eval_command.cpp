// planfirst eval nl2vis FILE.jsonl [--json] [--cases] [--limit N]: runs the autoviz graph on every
// benchmark question (tables at tables/<db_id>/<table>.csv beside FILE), scores the planned chart
// against the target component by component and the drawn rows against the target's rows, and
// prints the rates overall, by hardness and by chart type, with seed 002's planning metrics.
#include <CLI/CLI.hpp>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>

#include "graph/runner.hpp"
#include "pipelines/autoviz/autoviz_graph.hpp"
#include "pipelines/autoviz/chart_spec.hpp"
#include "pipelines/autoviz/nl2vis_case.hpp"
#include "pipelines/autoviz/nl2vis_score.hpp"
#include "pipelines/autoviz/plan.hpp"
#include "planfirst/cli.hpp"
#include "planfirst/graph_session.hpp"

namespace planfirst::cli {
namespace {

using autoviz::Nl2visCase;
using core::Json;

struct EvalArgs {
  std::string file;
  bool json = false;
  bool cases = false;
  std::size_t limit = 0;
};

// Seed 002's planning metrics, summed over the runs.
struct PlanningCounts {
  int planned = 0, failed = 0, requirement_lines = 0, covered_lines = 0, steps = 0, unjustified = 0;
  int retrieval_misses = 0, executed = 0, repaired = 0;

  void add(const Json& state) {
    const Json plan = state.value("plan", Json());
    if (!plan.is_object()) {
      ++failed;
      return;
    }
    ++planned;
    steps += static_cast<int>(plan.value("steps", Json::array()).size());
    const Json coverage = state.value("coverage", Json::object());
    for (const Json& line : coverage.value("lines", Json::array())) {
      ++requirement_lines;
      covered_lines += line.value("covered", false) ? 1 : 0;
    }
    unjustified += static_cast<int>(coverage.value("unjustified", Json::array()).size());
    bool missed = false;
    for (const Json& tool : state.value("tools", Json::array())) missed = missed || tool.value("source", "") == "discovery";
    retrieval_misses += missed ? 1 : 0;
    const Json executed_steps = state.value("execution", Json::object()).value("steps", Json::array());
    if (executed_steps.empty()) return;
    ++executed;
    bool any = false;
    for (const Json& step : executed_steps) any = any || !step.value("repairs", Json::array()).empty();
    repaired += any ? 1 : 0;
  }

  Json to_json() const {
    const auto rate = [](int k, int n) { return n == 0 ? 0.0 : std::round(10000.0 * k / n) / 10000.0; };
    return {{"runs_planned", planned},
            {"runs_failed", failed},
            {"requirement_coverage_rate", rate(covered_lines, requirement_lines)},
            {"unjustified_step_rate", rate(unjustified, steps)},
            {"tool_retrieval_miss_rate", rate(retrieval_misses, planned)},
            {"plan_repair_rate", rate(repaired, executed)}};
  }
};

// The rows of the last chart the run drew; null when it drew none, with `why` set unless it was.
Json drawn_chart_rows(const Json& state, std::string& why) {
  const Json steps = state.value("execution", Json::object()).value("steps", Json::array());
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
    if (!it->contains("chart")) continue;
    core::Result<Json> rows = autoviz::drawn_rows((*it)["chart"]);
    if (rows) return *rows;
    if (why.empty()) why = rows.error().message;
    return Json();
  }
  if (!why.empty()) return Json();
  why = steps.empty() ? "nothing executed" : "no chart drawn";
  for (const Json& step : steps) {
    if (step.contains("error")) why = step.value("step_id", "") + ": " + step.value("error", "");
  }
  return Json();
}

class Nl2visEval {
 public:
  Nl2visEval(graph::Runner& runner, std::filesystem::path scratch) : runner_(runner), scratch_(std::move(scratch)) {}

  Json run_case(const Nl2visCase& c, std::size_t index) {
    const Json input{{"question", c.question},
                     {"dataset", c.table_csv.string()},
                     {"out_dir", (scratch_ / std::to_string(index)).string()},
                     {"confirm", false},
                     {"plan_only", false}};
    core::Result<graph::RunResult> result = runner_.run("eval-" + std::to_string(index), graph::JsonValue(input));
    Json state = result ? result->state.json() : Json::object();
    std::string why;
    if (!result) why = result.error().describe();
    else if (result->status == graph::RunStatus::kFailed && result->error) why = result->error->describe();
    planning_.add(state);
    core::Result<autoviz::Plan> plan = autoviz::Plan::from_json(state.value("plan", Json()));
    const autoviz::ChartSpec predicted = plan ? autoviz::chart_spec_of(*plan) : autoviz::ChartSpec{};
    const std::map<std::string, bool> components = autoviz::score_components(predicted, c);
    const Json drawn = drawn_chart_rows(state, why);
    const bool execution = drawn.is_array() && autoviz::rows_match(drawn, c);
    tally_.add({c.hardness, c.nvbench_chart}, components, execution);
    Json misses = Json::array();
    for (const auto& [name, ok] : components) {
      if (!ok) misses.push_back(name);
    }
    Json line{{"id", c.id}, {"question", c.question}, {"predicted", predicted.to_json()}, {"target", c.target.to_json()},
              {"missed", misses}, {"execution", execution}};
    if (!execution && !why.empty()) line["why"] = why;
    return line;
  }

  Json summary() const {
    Json out = tally_.to_json({"hardness", "chart"});
    out["planning"] = planning_.to_json();
    return out;
  }

 private:
  graph::Runner& runner_;
  std::filesystem::path scratch_;
  autoviz::Nl2visTally tally_;
  PlanningCounts planning_;
};

std::string percent(const Json& counts, const char* key) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1) << 100.0 * counts.value(key, 0.0) << "%";
  return out.str();
}

void print_row(const std::string& name, const Json& counts) {
  std::cout << std::left << std::setw(18) << name << std::right << std::setw(5) << counts.value("n", 0) << std::setw(9)
            << percent(counts, "exact_rate") << std::setw(9) << percent(counts, "execution_rate");
  for (const std::string& component : autoviz::kNl2visComponents) {
    std::cout << std::setw(9) << percent(counts["components"], component.c_str());
  }
  std::cout << "\n";
}

void print_text(const Json& summary) {
  std::cout << std::left << std::setw(18) << "" << std::right << std::setw(5) << "n" << std::setw(9) << "exact" << std::setw(9)
            << "exec";
  for (const std::string& component : autoviz::kNl2visComponents) std::cout << std::setw(9) << component;
  std::cout << "\n";
  print_row("overall", summary["overall"]);
  for (const char* kind : {"by_hardness", "by_chart"}) {
    for (const auto& [name, counts] : summary[kind].items()) print_row("  " + name, counts);
  }
  std::cout << "\nplanning (seed 002 metrics):\n";
  for (const auto& [name, value] : summary["planning"].items()) std::cout << "  " << name << ": " << value.dump() << "\n";
}

std::filesystem::path scratch_folder() {
  std::string pattern = (std::filesystem::temp_directory_path() / "planfirst-eval-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) return {};
  return pattern;
}

int run_eval(const CliContext& ctx, const EvalArgs& args) {
  core::Result<std::vector<Nl2visCase>> cases = autoviz::load_nl2vis_cases(args.file);
  if (!cases) {
    std::cerr << "planfirst eval nl2vis: " << cases.error().describe() << "\n";
    return kExitInputError;
  }
  core::Result<std::unique_ptr<GraphSession>> session = open_graph_session(ctx);
  if (!session) {
    std::cerr << "planfirst eval nl2vis: " << session.error().describe() << "\n";
    return kExitInputError;
  }
  core::Result<graph::CompiledGraph> compiled = (*session)->build(std::string(autoviz::kAutovizGraphName));
  if (!compiled) {
    std::cerr << "planfirst eval nl2vis: " << compiled.error().describe() << "\n";
    return kExitInputError;
  }
  const std::filesystem::path scratch = scratch_folder();
  if (scratch.empty()) {
    std::cerr << "planfirst eval nl2vis: cannot create a scratch folder under " << std::filesystem::temp_directory_path() << "\n";
    return kExitInputError;
  }
  graph::Runner runner(*compiled, graph::RunnerOptions{});
  Nl2visEval eval(runner, scratch);
  const std::size_t total = args.limit == 0 ? cases->size() : std::min(args.limit, cases->size());
  Json lines = Json::array();
  for (std::size_t i = 0; i < total; ++i) {
    lines.push_back(eval.run_case((*cases)[i], i));
    if (!args.json && ((i + 1) % 25 == 0 || i + 1 == total)) std::cerr << "  .. " << i + 1 << "/" << total << " questions\n";
  }
  std::error_code ignored;
  std::filesystem::remove_all(scratch, ignored);
  Json summary = eval.summary();
  if (args.cases) summary["cases"] = lines;
  if (args.json) {
    std::cout << summary.dump(2) << "\n";
  } else {
    print_text(summary);
    if (args.cases) {
      for (const Json& line : lines) std::cout << line.dump() << "\n";
    }
  }
  return kExitOk;
}

}  // namespace

void add_eval_command(CLI::App& app, CliContext& ctx) {
  CLI::App* eval = app.add_subcommand("eval", "Measure a pipeline on a benchmark file");
  eval->require_subcommand(1);
  auto args = std::make_shared<EvalArgs>();
  CLI::App* nl2vis = eval->add_subcommand(
      "nl2vis", "Plan and run every question of an NL2VIS JSON Lines file (nvBench fields; tables at "
                "tables/<db_id>/<table>.csv beside it) and print exact, execution and per-component accuracy");
  nl2vis->add_option("FILE", args->file, "The .jsonl file")->required();
  nl2vis->add_flag("--json", args->json, "Print one JSON document");
  nl2vis->add_flag("--cases", args->cases, "Also print each question's predicted and target chart");
  nl2vis->add_option("--limit", args->limit, "Only the first N questions");
  nl2vis->callback([&ctx, args] {
    if (prepare_run(ctx)) ctx.exit_code = run_eval(ctx, *args);
  });
}

}  // namespace planfirst::cli
