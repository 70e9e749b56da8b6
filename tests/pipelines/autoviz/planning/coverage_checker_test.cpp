#include "pipelines/autoviz/planning/coverage_checker.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/asset_store.hpp"
#include "pipelines/autoviz/autoviz_fixtures.hpp"
#include "pipelines/autoviz/plan.hpp"
#include "pipelines/autoviz/planning/capability_map.hpp"
#include "pipelines/autoviz/planning/tool_registry.hpp"
#include "pipelines/autoviz/requirements.hpp"
#include "pipelines/autoviz/understand/template_registry.hpp"

namespace planfirst::autoviz {
namespace {

using core::Json;
using testing::case_json;
using testing::loaded;

class CoverageCheckerTest : public ::testing::Test {
 protected:
  // The seed walkthrough's plan: the time_series_grouped template adapted by the seed's §5 changes,
  // then `extra` changes.
  Plan walkthrough_plan(const std::string& extra_changes = "[]") const {
    const Plan base = plan_from_template(*templates_.for_intent("time_series_investigation"));
    Json changes = case_json("seed_walkthrough_adaptation.json");
    for (const Json& change : Json::parse(extra_changes)) changes["changes"].push_back(change);
    return loaded(apply_adaptation(base, loaded(PlanAdaptation::from_json(changes))));
  }
  Requirements seed_requirements() const {
    return loaded(Requirements::from_json(case_json("seed_requirements.json")));
  }

  const core::AssetStore assets_;
  const CapabilityMap capabilities_ = loaded(CapabilityMap::load(assets_));
  const ToolRegistry tools_ = loaded(ToolRegistry::load(assets_));
  const TemplateRegistry templates_ = loaded(TemplateRegistry::load(assets_));
  const CoverageChecker checker_{capabilities_, tools_};
};

TEST_F(CoverageCheckerTest, TheSeedWalkthroughPlanPassesWithEveryCoverageLineOk) {
  const CoverageReport report = checker_.check(seed_requirements(), walkthrough_plan());

  EXPECT_TRUE(report.complete());
  EXPECT_EQ(report.retry_payload(), "");
  EXPECT_EQ(report.describe(),
            "metrics=revenue -> aggregate + plot_line + compute_summary_stats (OK)\n"
            "group_by=region -> aggregate (OK)\n"
            "group_by=product_category -> aggregate (OK)\n"
            "time=date -> parse_datetime + plot_line (OK)\n"
            "analysis=total -> aggregate (OK)\n"
            "analysis=compare -> aggregate (OK)\n"
            "analysis=trend -> plot_line (OK)\n"
            "outputs=chart -> plot_line (OK)\n"
            "outputs=table -> aggregate + compute_summary_stats (OK)");
}

TEST_F(CoverageCheckerTest, NamesTheGroupByThatNoStepSatisfies) {
  const Requirements requirements = loaded(Requirements::from_json(Json::parse(R"({"metrics": ["revenue"],
      "group_by": ["region", "product_category"], "time": {"column": null, "grain": "unknown"},
      "analysis": ["total"], "outputs": ["table"], "constraints": []})")));
  const Plan plan = loaded(Plan::from_json(Json::parse(R"({"steps": [{"step_id": "s1", "tool": "aggregate",
      "params": {"group_by": ["region"], "metrics": ["revenue"]}, "rationale": "",
      "satisfies": ["analysis:total", "outputs:table"]}]})")));

  const CoverageReport report = checker_.check(requirements, plan);

  EXPECT_EQ(report.retry_payload(), "Missing coverage: group_by=[product_category]");
  EXPECT_EQ(report.missing, std::vector<std::string>{"group_by=product_category"});
}

TEST_F(CoverageCheckerTest, APlanWithoutTheAggregateStepMissesBothGroupBysInTheSeedsWording) {
  const Plan plan =
      walkthrough_plan(R"([{"action": "remove", "step_id": "aggregate", "rationale": "", "satisfies": []}])");

  const CoverageReport report = checker_.check(seed_requirements(), plan);

  EXPECT_FALSE(report.complete());
  EXPECT_EQ(report.missing, (std::vector<std::string>{"group_by=region", "group_by=product_category",
                                                      "analysis=total", "analysis=compare"}));
  EXPECT_EQ(report.retry_payload(),
            "Missing coverage: group_by=[region, product_category], analysis=[total, compare]");
}

TEST_F(CoverageCheckerTest, AnAggregateThatGroupsByOtherColumnsDoesNotCoverTheGroupBy) {
  const Plan plan =
      walkthrough_plan(R"([{"action": "modify", "step_id": "aggregate", "params": {"group_by": ["date"]},
      "rationale": "", "satisfies": ["analysis:total"]}])");

  const CoverageReport report = checker_.check(seed_requirements(), plan);

  EXPECT_EQ(report.retry_payload(), "Missing coverage: group_by=[region, product_category]");
}

TEST_F(CoverageCheckerTest, AFilterOnEachGroupsCountIsCoveredOnlyByAFilterOfTheCount) {
  Requirements r = seed_requirements();
  r.constraints.push_back(
      Constraint{"filter", "count(*)", ">", ParamValue{{ParamScalar(std::int64_t{2})}, false}, "", 0});
  const std::string step = R"([{"action": "add", "step_id": "filter_rows", "tool": "filter_rows",
      "params": {"column": "COLUMN", "op": ">", "value": 2}, "rationale": "", "satisfies": ["constraints:filter"]}])";
  const auto filtering = [&](const std::string& column) {
    std::string changes = step;
    changes.replace(changes.find("COLUMN"), 6, column);
    return walkthrough_plan(changes);
  };

  const CoverageReport count = checker_.check(r, filtering("count"));
  const CoverageReport region = checker_.check(r, filtering("region"));

  EXPECT_TRUE(count.complete()) << count.describe();
  EXPECT_EQ(region.retry_payload(), "Missing coverage: constraints=[filter:count(*)]");
}

TEST_F(CoverageCheckerTest, NamesTheStepThatCitesNoRequirementTheUserMade) {
  const Plan plan = walkthrough_plan(R"([
      {"action": "add", "step_id": "detect_anomalies", "tool": "detect_anomalies", "params": {"column": "revenue"},
       "rationale": "", "satisfies": ["analysis:anomaly"]},
      {"action": "add", "step_id": "plot_histogram", "tool": "plot_histogram", "params": {"column": "revenue"},
       "rationale": "", "satisfies": []}])");

  const CoverageReport report = checker_.check(seed_requirements(), plan);

  EXPECT_TRUE(report.missing.empty());
  EXPECT_EQ(report.unjustified, (std::vector<std::string>{"detect_anomalies", "plot_histogram"}));
  EXPECT_EQ(report.retry_payload(), "Remove unjustified steps: detect_anomalies, plot_histogram");
}

TEST_F(CoverageCheckerTest, TimeNeedsTheParsingStepAsWellAsTheTimeAwareOne) {
  const Plan plan = walkthrough_plan(
      R"([{"action": "remove", "step_id": "parse_datetime", "rationale": "", "satisfies": []}])");

  const CoverageReport report = checker_.check(seed_requirements(), plan);

  EXPECT_EQ(report.missing, std::vector<std::string>{"time=date"});
  EXPECT_EQ(report.lines[3].requirement, "time=date");
  EXPECT_EQ(report.lines[3].steps, std::vector<std::string>{"plot_line"});
  EXPECT_FALSE(report.lines[3].covered);
}

TEST_F(CoverageCheckerTest, ConstraintsNeedAStepOnTheirColumn) {
  Requirements requirements = seed_requirements();
  requirements.constraints = loaded(Requirements::from_json(Json::parse(R"({"metrics": [], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": [], "constraints": [
      {"type": "filter", "column": "region", "op": "=", "value": "north"}, {"type": "limit", "n": 3}]})")))
                                 .constraints;
  const Plan plan = walkthrough_plan(R"([{"action": "add", "step_id": "filter", "tool": "filter_rows",
      "params": {"column": "region", "op": "=", "value": "north"}, "rationale": "", "satisfies": ["constraints:filter"]}])");

  const CoverageReport report = checker_.check(requirements, plan);

  EXPECT_EQ(report.retry_payload(), "Missing coverage: constraints=[limit:3]");
  EXPECT_TRUE(report.unjustified.empty());
}

TEST_F(CoverageCheckerTest, AStepWithAnUnknownToolIsNamed) {
  const Plan plan =
      walkthrough_plan(R"([{"action": "add", "step_id": "s9", "tool": "plot_sankey", "params": {},
      "rationale": "", "satisfies": ["outputs:chart"]}])");

  const CoverageReport report = checker_.check(seed_requirements(), plan);

  EXPECT_FALSE(report.complete());
  EXPECT_EQ(report.unknown_tools, std::vector<std::string>{"s9"});
  EXPECT_EQ(report.retry_payload(), "Replace steps whose tool is unknown: s9");
}

TEST_F(CoverageCheckerTest, TheSameInputGivesAByteIdenticalReport) {
  const Plan plan =
      walkthrough_plan(R"([{"action": "remove", "step_id": "aggregate", "rationale": "", "satisfies": []},
      {"action": "add", "step_id": "detect_anomalies", "tool": "detect_anomalies", "params": {"column": "revenue"},
       "rationale": "", "satisfies": []}])");
  const CoverageChecker other_checker(capabilities_, tools_);

  const CoverageReport first = checker_.check(seed_requirements(), plan);
  const CoverageReport second =
      other_checker.check(seed_requirements(), loaded(Plan::from_json(plan.to_json())));

  EXPECT_EQ(first.describe(), second.describe());
  EXPECT_EQ(first.retry_payload(), second.retry_payload());
  EXPECT_EQ(first.retry_payload(),
            "Missing coverage: group_by=[region, product_category], analysis=[total, compare]\n"
            "Remove unjustified steps: detect_anomalies");
}

TEST_F(CoverageCheckerTest, FromJsonReadsBackWhatToJsonWrote) {
  const Plan plan =
      walkthrough_plan(R"([{"action": "add", "step_id": "detect_anomalies", "tool": "detect_anomalies",
      "params": {"column": "revenue"}, "rationale": "", "satisfies": []}])");
  const CoverageReport report = checker_.check(seed_requirements(), plan);

  const CoverageReport back = loaded(CoverageReport::from_json(report.to_json()));

  EXPECT_EQ(back.to_json(), report.to_json());
  EXPECT_EQ(back.describe(), report.describe());
  EXPECT_EQ(
      CoverageReport::from_json(Json::parse(R"({"lines": [{"requirement": "metrics=revenue", "steps": [],
      "covered": "yes"}], "missing": [], "unjustified": [], "unknown_tools": [], "unmapped": []})"))
          .error()
          .where,
      "/lines/0/covered");
}

TEST(CoverageChecker, ALabelWithoutARuleIsCheckedThroughTheCoreSetAndReported) {
  const core::AssetStore builtin;
  testing::AssetOverrides overrides;
  overrides.write_without(CapabilityMap::kPath, "  analysis:summary: {any_of: [summary_stats]}\n");
  const CapabilityMap capabilities = loaded(CapabilityMap::load(overrides.store()));
  const ToolRegistry tools = loaded(ToolRegistry::load(builtin));
  const Requirements requirements =
      loaded(Requirements::from_json(Json::parse(R"({"metrics": [], "group_by": [],
      "time": {"column": null, "grain": "unknown"}, "analysis": ["summary"], "outputs": [], "constraints": []})")));
  const Plan plan = loaded(Plan::from_json(Json::parse(R"({"steps": [{"step_id": "bars", "tool": "plot_bar",
      "params": {"x": "a", "y": "b"}, "rationale": "", "satisfies": ["analysis:summary"]}]})")));

  const CoverageReport report = CoverageChecker(capabilities, tools).check(requirements, plan);

  EXPECT_TRUE(report.complete());
  EXPECT_EQ(report.unmapped, std::vector<std::string>{"analysis:summary"});
  EXPECT_EQ(report.describe(),
            "analysis=summary -> bars (OK)\nWarning: no capability rule for analysis:summary; the core set "
            "stood in");
}

}  // namespace
}  // namespace planfirst::autoviz
