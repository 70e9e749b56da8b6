// LlmPlanAdapter against the scripted server: the seed's changes applied to the template are used; a
// plan that misses coverage is re-asked with the coverage payload; one that keeps missing it, or keeps
// failing the contract, leaves the plan to the rules. faults() names each problem by pointer.
#include "pipelines/autoviz/planning/llm_plan_adapter.hpp"

#include <gtest/gtest.h>

#include "pipelines/autoviz/llm_strategy_fixture.hpp"
#include "pipelines/autoviz/planning/coverage_checker.hpp"
#include "pipelines/autoviz/tools/step_executor.hpp"
#include "pipelines/autoviz/tools/tool_library.hpp"

namespace planfirst::autoviz {
namespace {

using core::Json;
using testing::case_json;
using testing::kWalkthroughQuestion;
using testing::loaded;

// The seed's §4 changes with `change` (a JSON object) replacing the one at `index`.
Json seed_changes_with(std::size_t index, const char* change) {
  Json adaptation = case_json("seed_walkthrough_adaptation.json");
  adaptation["changes"][index] = Json::parse(change);
  return adaptation;
}

// The chart removed: trend and chart lose their step.
const Json kNoChart = seed_changes_with(
    2, R"({"action": "remove", "step_id": "plot_line", "rationale": "not needed", "satisfies": []})");

class LlmPlanAdapterTest : public testing::LlmStrategyTest {
 protected:
  AdaptedPlan adapt(std::string_view feedback = "") const {
    return loaded(adapter_.adapt(request(feedback)));
  }
  PlanRequest request(std::string_view feedback = "") const {
    return PlanRequest{kWalkthroughQuestion,
                       requirements_,
                       profile_,
                       *templates_.find("time_series_grouped"),
                       allowed_,
                       feedback};
  }
  Plan seed_plan() const {
    return loaded(
        apply_adaptation(plan_from_template(*templates_.find("time_series_grouped")),
                         loaded(PlanAdaptation::from_json(case_json("seed_walkthrough_adaptation.json")))));
  }

  const Requirements requirements_ = loaded(Requirements::from_json(case_json("seed_requirements.json")));
  const std::vector<std::string> allowed_ = {"parse_datetime",        "aggregate",      "plot_line",
                                             "compute_summary_stats", "segment_metric", "plot_bar",
                                             "time_bucket",           "save_table"};
  const StepExecutor executor_ = loaded(StepExecutor::create(tools_, ToolLibrary::builtin()));
  const LlmPlanAdapter adapter_{stage_, tools_, capabilities_, executor_, rule_adapter_};
};

TEST_F(LlmPlanAdapterTest, AppliesTheModelsChangesToTheTemplatePlan) {
  script({case_json("seed_walkthrough_adaptation.json").dump()});

  const AdaptedPlan adapted = adapt();

  EXPECT_EQ(adapted.plan, seed_plan());
  ASSERT_TRUE(adapted.adaptation.has_value());
  EXPECT_EQ(adapted.adaptation->to_json(), case_json("seed_walkthrough_adaptation.json"));
  EXPECT_EQ(adapted.strategy.strategy, "llm");
  EXPECT_EQ(adapted.strategy.attempts, 1);
  EXPECT_TRUE(CoverageChecker(capabilities_, tools_).check(requirements_, adapted.plan).complete());
  const std::string prompt = user_message(0);
  EXPECT_NE(
      prompt.find(R"({"params":{},"rationale":"","satisfies":[],"step_id":"plot_line","tool":"plot_line"})"),
      std::string::npos)
      << prompt;
  EXPECT_NE(prompt.find("- segment_metric: "), std::string::npos) << prompt;
  EXPECT_EQ(prompt.find("- detect_anomalies: "), std::string::npos) << "only candidate tools are listed";
}

TEST_F(LlmPlanAdapterTest, ReasksWithTheCoveragePayloadWhenThePlanMissesARequirement) {
  script({kNoChart.dump(), case_json("seed_walkthrough_adaptation.json").dump()});

  const AdaptedPlan adapted = adapt();

  EXPECT_EQ(adapted.plan, seed_plan());
  EXPECT_EQ(adapted.strategy.attempts, 2);
  ASSERT_EQ(chat_requests(), 2u);
  EXPECT_NE(user_message(1).find("[coverage] Missing coverage: "), std::string::npos) << user_message(1);
  EXPECT_NE(user_message(1).find("analysis=[trend]"), std::string::npos) << user_message(1);
}

TEST_F(LlmPlanAdapterTest, FallsBackToTheRulesWhenThePlanKeepsFailingCoverage) {
  script({kNoChart.dump(), kNoChart.dump(), kNoChart.dump()});

  const AdaptedPlan adapted = adapt();

  const AdaptedPlan rules = loaded(rule_adapter_.adapt(request()));
  EXPECT_EQ(adapted.plan, rules.plan);
  EXPECT_FALSE(adapted.adaptation.has_value());
  EXPECT_EQ(adapted.strategy.strategy, "rules");
  EXPECT_EQ(adapted.strategy.attempts, 3);
  EXPECT_NE(adapted.strategy.fallback.find("contract plan_adaptation: rejected after 3 attempts"),
            std::string::npos)
      << adapted.strategy.fallback;
  EXPECT_NE(adapted.strategy.fallback.find("Missing coverage"), std::string::npos)
      << adapted.strategy.fallback;
  EXPECT_TRUE(CoverageChecker(capabilities_, tools_).check(requirements_, adapted.plan).complete());
}

TEST_F(LlmPlanAdapterTest, FallsBackToTheRulesWhenTheReplyKeepsBreakingTheContract) {
  script({R"({"changes": [{"action": "replace", "step_id": "aggregate", "rationale": "", "satisfies": []}]})",
          R"({"steps": []})", "I would aggregate revenue by region."});

  const AdaptedPlan adapted = adapt();

  EXPECT_EQ(adapted.plan, loaded(rule_adapter_.adapt(request())).plan);
  EXPECT_EQ(adapted.strategy.strategy, "rules");
  EXPECT_EQ(adapted.strategy.attempts, 3);
}

TEST_F(LlmPlanAdapterTest, SendsTheGraphsCoverageFeedbackInThePrompt) {
  script({case_json("seed_walkthrough_adaptation.json").dump()});

  (void)adapt("Missing coverage: group_by=[region]");

  EXPECT_NE(user_message(0).find("Missing coverage: group_by=[region]"), std::string::npos)
      << user_message(0);
}

TEST_F(LlmPlanAdapterTest, ThePromptsExampleIsTheSeedWalkthroughAndPassesTheGate) {
  const std::vector<std::string> examples = loaded(prompts_.get(LlmPlanAdapter::kPrompt))->examples();
  ASSERT_EQ(examples.size(), 1u);
  const PlanAdaptation adaptation = loaded(PlanAdaptation::from_json(Json::parse(examples[0])));

  const Plan plan =
      loaded(apply_adaptation(plan_from_template(*templates_.find("time_series_grouped")), adaptation));

  EXPECT_EQ(adaptation.to_json(), case_json("seed_walkthrough_adaptation.json"));
  EXPECT_TRUE(adapter_.faults(request(), adaptation, plan).empty());
}

TEST_F(LlmPlanAdapterTest, NamesParamsExecutionWouldRefuseAtTheChangesPointer) {
  const PlanAdaptation adaptation = loaded(PlanAdaptation::from_json(seed_changes_with(
      1,
      R"({"action": "modify", "step_id": "aggregate", "params": {"group_by": ["date", "region", "product_category"],
           "agg_func": "total", "metrics": ["revenue"]}, "rationale": "", "satisfies": ["analysis:total",
           "analysis:compare", "group_by", "time", "metrics:revenue"]})")));
  const Plan plan =
      loaded(apply_adaptation(plan_from_template(*templates_.find("time_series_grouped")), adaptation));

  const std::vector<contracts::Violation> faults = adapter_.faults(request(), adaptation, plan);

  ASSERT_EQ(faults.size(), 1u);
  EXPECT_EQ(faults[0].pointer, "/changes/1/params/agg_func");
  EXPECT_EQ(faults[0].keyword, "params");
  EXPECT_NE(faults[0].message.find("step 'aggregate' (aggregate): params do not match the tool's schema: "
                                   "/steps/1/params/agg_func [enum]"),
            std::string::npos)
      << faults[0].message;
}

TEST_F(LlmPlanAdapterTest, NamesAToolOutsideTheCandidatesAndAChartBeforeTheAggregation) {
  Json changes = case_json("seed_walkthrough_adaptation.json");
  changes["changes"][1] =
      Json::parse(R"({"action": "remove", "step_id": "aggregate", "rationale": "", "satisfies": []})");
  changes["changes"].push_back(Json::parse(R"({"action": "add", "step_id": "totals", "tool": "aggregate",
      "params": {"group_by": ["date", "region", "product_category"], "agg_func": "sum", "metrics": ["revenue"]},
      "rationale": "", "satisfies": ["analysis:total", "analysis:compare", "group_by", "time", "metrics:revenue"]})"));
  changes["changes"].push_back(
      Json::parse(R"({"action": "add", "step_id": "spikes", "tool": "detect_anomalies",
      "params": {"column": "revenue"}, "rationale": "", "satisfies": ["metrics:revenue"]})"));
  const PlanAdaptation adaptation = loaded(PlanAdaptation::from_json(changes));
  const Plan plan =
      loaded(apply_adaptation(plan_from_template(*templates_.find("time_series_grouped")), adaptation));

  const std::vector<contracts::Violation> faults = adapter_.faults(request(), adaptation, plan);

  ASSERT_EQ(faults.size(), 2u) << faults[0].describe();
  EXPECT_EQ(faults[0].pointer, "/changes/5/tool");
  EXPECT_EQ(faults[0].keyword, "candidate_tools");
  EXPECT_EQ(faults[1].keyword, "order");
  EXPECT_NE(faults[1].message.find("step 'plot_line' draws a chart before step 'totals' aggregates"),
            std::string::npos)
      << faults[1].message;
}

}  // namespace
}  // namespace planfirst::autoviz
