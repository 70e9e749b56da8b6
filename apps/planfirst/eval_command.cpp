// planfirst eval nl2vis FILE.jsonl [--json] [--cases] [--limit N] [--paraphrases]: runs the autoviz
// graph on every benchmark question (tables at tables/<db_id>/<table>.csv beside FILE; with
// --paraphrases, on every other phrasing of the questions instead), scores the planned chart
// against the target component by component and the drawn rows against the target's rows, and
// prints the rates overall, for each half of the databases (split_by_database: a rule fitted to
// one half shows as a gap on the other), by hardness and by chart type, with seed 002's planning
// metrics. Every
// question is planned with the chart output wanted, as the benchmark's task is a visualization.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "graph/runner.hpp"
#include "pipelines/autoviz/autoviz_graph.hpp"
#include "pipelines/autoviz/eval/nl2vis_case.hpp"
#include "pipelines/autoviz/eval/nl2vis_eval.hpp"
#include "pipelines/autoviz/eval/nl2vis_score.hpp"
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
  bool paraphrases = false;
};

std::string percent(const Json& counts, const char* key) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1) << 100.0 * counts.value(key, 0.0) << "%";
  return out.str();
}

void print_row(const std::string& name, const Json& counts) {
  std::cout << std::left << std::setw(18) << name << std::right << std::setw(5) << counts.value("n", 0)
            << std::setw(9) << percent(counts, "exact_rate") << std::setw(9)
            << percent(counts, "execution_rate");
  for (const std::string& component : autoviz::kNl2visComponents) {
    std::cout << std::setw(9) << percent(counts["components"], component.c_str());
  }
  std::cout << "\n";
}

void print_text(const Json& summary) {
  std::cout << std::left << std::setw(18) << "" << std::right << std::setw(5) << "n" << std::setw(9)
            << "exact" << std::setw(9) << "exec";
  for (const std::string& component : autoviz::kNl2visComponents) std::cout << std::setw(9) << component;
  std::cout << "\n";
  print_row("overall", summary["overall"]);
  for (const char* kind : {"by_half", "by_hardness", "by_chart"}) {
    for (const auto& [name, counts] : summary[kind].items())
      print_row(std::string(kind) == "by_half" ? "  half " + name : "  " + name, counts);
  }
  const Json split = summary.value("split", Json::object());
  std::cout << "\nhalves: " << split.value("rule", "") << "\n";
  for (const char* half : {"A", "B"}) {
    const Json ids = split.value(half, Json::array());
    std::cout << "  " << half << " (" << ids.size() << " databases):";
    for (const Json& id : ids) std::cout << " " << id.get<std::string>();
    std::cout << "\n";
  }
  std::cout << "\nplanning (seed 002 metrics):\n";
  for (const auto& [name, value] : summary["planning"].items())
    std::cout << "  " << name << ": " << value.dump() << "\n";
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
    std::cerr << "planfirst eval nl2vis: cannot create a scratch folder under "
              << std::filesystem::temp_directory_path() << "\n";
    return kExitInputError;
  }
  graph::Runner runner(*compiled, graph::RunnerOptions{});
  autoviz::Nl2visEval eval(runner, scratch);
  const autoviz::DatabaseSplit split = autoviz::split_by_database(*cases);  // before --limit: stable halves
  if (args.limit != 0 && args.limit < cases->size()) cases->resize(args.limit);
  if (args.paraphrases) *cases = autoviz::paraphrase_cases(*cases);
  const std::size_t total = cases->size();
  Json lines = Json::array();
  for (std::size_t i = 0; i < total; ++i) {
    lines.push_back(eval.run_case((*cases)[i], i));
    if (!args.json && ((i + 1) % 25 == 0 || i + 1 == total))
      std::cerr << "  .. " << i + 1 << "/" << total << " questions\n";
  }
  std::error_code ignored;
  std::filesystem::remove_all(scratch, ignored);
  Json summary = eval.summary();
  summary["split"] = {
      {"rule", "by database: db_ids sorted, alternately A and B"}, {"A", split.a}, {"B", split.b}};
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
      "nl2vis",
      "Plan and run every question of an NL2VIS JSON Lines file (nvBench fields; tables at "
      "tables/<db_id>/<table>.csv beside it), each with a chart wanted, and print exact, execution and "
      "per-component accuracy");
  nl2vis->add_option("FILE", args->file, "The .jsonl file")->required();
  nl2vis->add_flag("--json", args->json, "Print one JSON document");
  nl2vis->add_flag("--cases", args->cases, "Also print each question's predicted and target chart");
  nl2vis->add_option("--limit", args->limit, "Only the first N questions");
  nl2vis->add_flag(
      "--paraphrases", args->paraphrases,
      "Score every paraphrase of the (first N) questions as its own case instead of the questions");
  nl2vis->callback([&ctx, args] {
    if (prepare_run(ctx)) ctx.exit_code = run_eval(ctx, *args);
  });
}

}  // namespace planfirst::cli
