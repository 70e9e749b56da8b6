#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "autoviz_fixtures.hpp"
#include "contracts/contract_registry.hpp"
#include "core/asset_store.hpp"
#include "pipelines/autoviz/plan.hpp"
#include "pipelines/autoviz/requirements.hpp"
#include "pipelines/autoviz/understand/template_registry.hpp"

namespace planfirst::autoviz {
namespace {

using core::Json;
using testing::case_json;
using testing::loaded;

std::string violations(const Json& value, const std::string& contract) {
  const contracts::ContractRegistry registry = loaded(contracts::ContractRegistry::load(core::AssetStore()));
  return loaded(registry.get(contract))->validate(value).describe();
}

TEST(Requirements, RoundTripsTheSeedExampleFieldForField) {
  const Json seed = case_json("seed_requirements.json");

  const Requirements requirements = loaded(Requirements::from_json(seed));

  EXPECT_EQ(requirements.metrics, std::vector<std::string>{"revenue"});
  EXPECT_EQ(requirements.group_by, (std::vector<std::string>{"region", "product_category"}));
  EXPECT_EQ(requirements.time.column, "date");
  EXPECT_EQ(requirements.time.grain, "unknown");
  EXPECT_EQ(requirements.analysis, (std::vector<std::string>{"total", "compare", "trend"}));
  EXPECT_EQ(requirements.outputs, (std::vector<std::string>{"chart", "table"}));
  EXPECT_TRUE(requirements.constraints.empty());
  EXPECT_EQ(requirements.to_json(), seed);
  EXPECT_EQ(violations(requirements.to_json(), "requirements"), violations(seed, "requirements"));
}

TEST(Requirements, RoundTripsEveryConstraintKindAndANullTimeColumn) {
  const Json json = Json::parse(R"({"metrics": ["sales"], "group_by": ["store"],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["ranking"], "outputs": ["chart"],
      "constraints": [{"type": "filter", "column": "year", "op": "between", "value": [2020, 2023]},
                      {"type": "filter", "column": "price", "op": ">", "value": 9.5},
                      {"type": "sort", "column": "sales", "direction": "desc"},
                      {"type": "limit", "n": 5}]})");

  const Requirements requirements = loaded(Requirements::from_json(json));

  ASSERT_EQ(requirements.constraints.size(), 4u);
  EXPECT_EQ(requirements.constraints[0].op, "between");
  EXPECT_TRUE(requirements.constraints[0].value.is_list);
  EXPECT_EQ(requirements.constraints[3].n, 5);
  EXPECT_EQ(requirements.time.column, std::nullopt);
  EXPECT_EQ(requirements.to_json().dump(), json.dump());
  EXPECT_EQ(violations(requirements.to_json(), "requirements"), "");
}

TEST(Requirements, NamesThePointerOfAMistypedOrUnknownField) {
  Json bad_grain = case_json("seed_requirements.json");
  bad_grain["time"]["grain"] = 5;
  Json extra = case_json("seed_requirements.json");
  extra["charts"] = Json::array();
  Json bad_limit = case_json("seed_requirements.json");
  bad_limit["constraints"] = Json::parse(R"([{"type": "limit", "n": 0}])");

  const core::Result<Requirements> grain = Requirements::from_json(bad_grain);
  const core::Result<Requirements> unknown = Requirements::from_json(extra);
  const core::Result<Requirements> limit = Requirements::from_json(bad_limit);

  ASSERT_FALSE(grain.has_value());
  EXPECT_EQ(grain.error().where, "/time/grain");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().where, "/charts");
  EXPECT_EQ(unknown.error().message, "unknown field 'charts'");
  ASSERT_FALSE(limit.has_value());
  EXPECT_EQ(limit.error().where, "/constraints/0/n");
}

TEST(PlanAdaptation, RoundTripsTheSeedWalkthroughChangesUnderTheContract) {
  const Json seed = case_json("seed_walkthrough_adaptation.json");

  const PlanAdaptation adaptation = loaded(PlanAdaptation::from_json(seed));

  ASSERT_EQ(adaptation.changes.size(), 4u);
  EXPECT_EQ(adaptation.changes[1].action, ChangeAction::kModify);
  EXPECT_EQ(adaptation.changes[1].tool, "aggregate");
  EXPECT_EQ(adaptation.changes[1].satisfies,
            (std::vector<std::string>{"analysis:total", "analysis:compare", "group_by", "time",
                                      "metrics:revenue"}));
  EXPECT_EQ(adaptation.to_json(), seed);
  EXPECT_EQ(violations(seed, "plan_adaptation"), "");
}

TEST(PlanAdaptation, RefusesAnUnknownAction) {
  const Json json =
      Json::parse(R"({"changes": [{"action": "rename", "step_id": "a", "rationale": "", "satisfies": []}]})");

  const core::Result<PlanAdaptation> adaptation = PlanAdaptation::from_json(json);

  ASSERT_FALSE(adaptation.has_value());
  EXPECT_EQ(adaptation.error().where, "/changes/0/action");
}

TEST(Plan, TheTemplatePlusTheSeedChangesIsTheWalkthroughPlan) {
  const TemplateRegistry templates = loaded(TemplateRegistry::load(core::AssetStore()));
  const Plan base = plan_from_template(*templates.for_intent("time_series_investigation"));
  const PlanAdaptation adaptation =
      loaded(PlanAdaptation::from_json(case_json("seed_walkthrough_adaptation.json")));

  const Plan plan = loaded(apply_adaptation(base, adaptation));

  ASSERT_EQ(plan.steps.size(), 4u);
  EXPECT_EQ(plan.steps[0].step_id, "parse_datetime");
  EXPECT_EQ(plan.steps[1].params.at("group_by").to_json(),
            Json::parse(R"(["date", "region", "product_category"])"));
  EXPECT_EQ(plan.steps[1].params.at("agg_func").to_json(), "sum");
  EXPECT_EQ(plan.steps[2].params.at("color").to_json(), "product_category");
  EXPECT_EQ(plan.steps[3].satisfies, std::vector<std::string>{"outputs:table"});
  EXPECT_EQ(loaded(Plan::from_json(plan.to_json())), plan);
}

TEST(Plan, TemplateStepIdsAreToolNamesMadeUnique) {
  PlanTemplate twice{"twice", "d", {{"plot_line", false}, {"plot_line", true}, {"aggregate", false}}};

  const Plan plan = plan_from_template(twice);

  ASSERT_EQ(plan.steps.size(), 3u);
  EXPECT_EQ(plan.steps[0].step_id, "plot_line");
  EXPECT_EQ(plan.steps[1].step_id, "plot_line_2");
  EXPECT_EQ(plan.steps[2].step_id, "aggregate");
}

TEST(Plan, AddRemoveAndModifyApplyInOrder) {
  const Plan base = loaded(Plan::from_json(Json::parse(R"({"steps": [
      {"step_id": "a", "tool": "aggregate", "params": {"metrics": ["x"], "agg_func": "sum"}, "rationale": "", "satisfies": []},
      {"step_id": "h", "tool": "plot_histogram", "params": {}, "rationale": "", "satisfies": []}]})")));
  const PlanAdaptation adaptation = loaded(PlanAdaptation::from_json(Json::parse(R"({"changes": [
      {"action": "remove", "step_id": "h", "rationale": "not asked for", "satisfies": []},
      {"action": "modify", "step_id": "a", "params": {"agg_func": "avg"}, "rationale": "mean", "satisfies": ["analysis:total"]},
      {"action": "add", "step_id": "p", "tool": "plot_bar", "params": {"x": "k", "y": "x"}, "rationale": "chart",
       "satisfies": ["outputs:chart"]}]})")));

  const Plan plan = loaded(apply_adaptation(base, adaptation));

  EXPECT_EQ(plan.to_json(), Json::parse(R"({"steps": [
      {"step_id": "a", "tool": "aggregate", "params": {"metrics": ["x"], "agg_func": "avg"}, "rationale": "mean",
       "satisfies": ["analysis:total"]},
      {"step_id": "p", "tool": "plot_bar", "params": {"x": "k", "y": "x"}, "rationale": "chart",
       "satisfies": ["outputs:chart"]}]})"));
}

TEST(Plan, ChangesToAbsentOrExistingStepsNameTheChange) {
  const Plan base = loaded(Plan::from_json(Json::parse(
      R"({"steps": [{"step_id": "a", "tool": "aggregate", "params": {}, "rationale": "", "satisfies": []}]})")));
  const PlanAdaptation remove_absent = loaded(PlanAdaptation::from_json(Json::parse(
      R"({"changes": [{"action": "remove", "step_id": "detect_anomalies", "rationale": "", "satisfies": []}]})")));
  const PlanAdaptation add_existing = loaded(PlanAdaptation::from_json(Json::parse(
      R"({"changes": [{"action": "modify", "step_id": "a", "rationale": "", "satisfies": []},
                      {"action": "add", "step_id": "a", "tool": "aggregate", "rationale": "", "satisfies": []}]})")));

  const core::Result<Plan> removed = apply_adaptation(base, remove_absent);
  const core::Result<Plan> added = apply_adaptation(base, add_existing);

  ASSERT_FALSE(removed.has_value());
  EXPECT_EQ(removed.error().where, "/changes/0");
  EXPECT_EQ(removed.error().message, "no step 'detect_anomalies' in the plan");
  ASSERT_FALSE(added.has_value());
  EXPECT_EQ(added.error().where, "/changes/1");
}

TEST(Plan, RefusesARepeatedStepIdAndANestedParam) {
  const core::Result<Plan> repeated = Plan::from_json(Json::parse(R"({"steps": [
      {"step_id": "a", "tool": "aggregate", "params": {}, "rationale": "", "satisfies": []},
      {"step_id": "a", "tool": "plot_bar", "params": {}, "rationale": "", "satisfies": []}]})"));
  const core::Result<Plan> nested = Plan::from_json(Json::parse(R"({"steps": [
      {"step_id": "a", "tool": "aggregate", "params": {"metrics": [["x"]]}, "rationale": "", "satisfies": []}]})"));

  ASSERT_FALSE(repeated.has_value());
  EXPECT_EQ(repeated.error().where, "/steps/1/step_id");
  ASSERT_FALSE(nested.has_value());
  EXPECT_EQ(nested.error().where, "/steps/0/params/metrics/0");
}

}  // namespace
}  // namespace planfirst::autoviz
