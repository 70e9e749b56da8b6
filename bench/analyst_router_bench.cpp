// The analyst router (seed 000 §5) on the held-out fifth of assets/analyst/router_questions.tsv:
// accuracy of the rules alone, the fastText model alone and the combined router, overall and per
// request type, printed before the benchmarks; then the latency of routing one question with each.
// The model is trained in a temporary folder (deterministic: one thread, seed 1).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/asset_store.hpp"
#include "core/file_text.hpp"
#include "pipelines/analyst/labeled_questions.hpp"
#include "pipelines/analyst/project_scope.hpp"
#include "pipelines/analyst/question_router.hpp"
#include "pipelines/analyst/router_model.hpp"
#include "pipelines/analyst/router_rules.hpp"

namespace {

using namespace planfirst::analyst;

struct RouterParts {
  LabeledQuestions questions;
  RouterRules rules;
  RouterModel model;
  ProjectScope scope;
};

const RouterParts& parts() {
  static const RouterParts loaded = [] {
    const planfirst::core::AssetStore assets;
    LabeledQuestions questions = *LabeledQuestions::load(assets);
    RouterRules rules = *RouterRules::load(assets);
    RouterModel model = *RouterModel::train_or_load(questions, {});
    ProjectScope scope = *ProjectScope::load(assets, questions);
    return RouterParts{std::move(questions), std::move(rules), std::move(model), std::move(scope)};
  }();
  return loaded;
}

struct Tally {
  int right = 0;
  int total = 0;
  double percent() const { return total == 0 ? 0.0 : 100.0 * right / total; }
};

// Accuracy of rules, model and router on `questions`, overall and per type.
void print_accuracy(const char* title, const std::vector<LabeledQuestion>& questions) {
  const RouterParts& p = parts();
  const QuestionRouter router(p.rules, p.model, &p.scope);
  std::map<RequestType, Tally> rules_by_type, model_by_type, combined_by_type;
  Tally rules, model, combined;
  int fast = 0;
  int out_of_scope = 0;
  for (const LabeledQuestion& q : questions) {
    const RouteDecision decision =
        router.route(q.question);  // carries the rules' and the model's own answers
    const bool r = decision.rules_type == q.type;
    const bool m = decision.model.type == q.type;
    const bool c = decision.request_type == q.type;
    fast += decision.track == Track::kFast ? 1 : 0;
    out_of_scope += decision.out_of_scope ? 1 : 0;
    for (auto [tally, by_type, ok] : {std::tuple{&rules, &rules_by_type, r},
                                      {&model, &model_by_type, m},
                                      {&combined, &combined_by_type, c}}) {
      tally->right += ok ? 1 : 0;
      ++tally->total;
      (*by_type)[q.type].right += ok ? 1 : 0;
      ++(*by_type)[q.type].total;
    }
  }
  std::printf("%s\n", title);
  std::printf("  %-16s %7s %7s %9s %3s\n", "request type", "rules", "model", "combined", "n");
  for (RequestType type : kAllRequestTypes) {
    std::printf("  %-16s %6.1f%% %6.1f%% %8.1f%% %3d\n", std::string(to_string(type)).c_str(),
                rules_by_type[type].percent(), model_by_type[type].percent(),
                combined_by_type[type].percent(), combined_by_type[type].total);
  }
  std::printf("  %-16s %6.1f%% %6.1f%% %8.1f%% %3d\n", "all", rules.percent(), model.percent(),
              combined.percent(), combined.total);
  std::printf("  FAST track chosen for %d of %d questions; %d routed out of scope\n\n", fast, combined.total,
              out_of_scope);
  std::fflush(stdout);
}

void BM_RouteRulesOnly(benchmark::State& state) {
  const RouterParts& p = parts();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(p.rules.score(p.questions.held_out[i++ % p.questions.held_out.size()].question));
  }
}
BENCHMARK(BM_RouteRulesOnly);

void BM_RouteModelOnly(benchmark::State& state) {
  const RouterParts& p = parts();
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        p.model.predict(p.questions.held_out[i++ % p.questions.held_out.size()].question));
  }
}
BENCHMARK(BM_RouteModelOnly);

void BM_RouteCombined(benchmark::State& state) {
  const RouterParts& p = parts();
  const QuestionRouter router(p.rules, p.model, &p.scope);
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(router.route(p.questions.held_out[i++ % p.questions.held_out.size()].question));
  }
}
BENCHMARK(BM_RouteCombined);

void BM_TrainRouterModel(benchmark::State& state) {
  const RouterParts& p = parts();
  for (auto _ : state) benchmark::DoNotOptimize(RouterModel::train_or_load(p.questions, {}));
}
BENCHMARK(BM_TrainRouterModel)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

int main(int argc, char** argv) {
  const RouterParts& p = parts();
  const std::string held_out =
      "analyst router accuracy on the held-out set (" + std::to_string(p.questions.held_out.size()) + " of " +
      std::to_string(p.questions.held_out.size() + p.questions.train.size()) + " questions: every " +
      std::to_string(kHeldOutEvery) + "th line; the model trained on the rest)";
  print_accuracy(held_out.c_str(), p.questions.held_out);
  // Questions written after the rules and never used to write them or to train: the rules' phrases
  // were written with the whole labeled set in view, so their held-out figure is optimistic.
  const std::filesystem::path fresh_path =
      std::filesystem::path(PLANFIRST_SOURCE_DIR) / "bench/data/router_fresh_questions.tsv";
  const planfirst::core::Result<std::string> fresh_text = planfirst::core::read_file_text(fresh_path);
  if (fresh_text) {
    if (auto fresh = LabeledQuestions::parse(*fresh_text, fresh_path.string()); fresh) {
      std::vector<LabeledQuestion> all = fresh->train;
      all.insert(all.end(), fresh->held_out.begin(), fresh->held_out.end());
      print_accuracy(("analyst router accuracy on " + std::to_string(all.size()) +
                      " fresh questions (bench/data/router_fresh_questions.tsv, unseen by rules and model)")
                         .c_str(),
                     all);
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
