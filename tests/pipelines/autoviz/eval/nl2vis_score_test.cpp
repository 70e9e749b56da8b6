#include "pipelines/autoviz/eval/nl2vis_score.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "pipelines/autoviz/eval/nl2vis_eval.hpp"
#include "pipelines/autoviz/plan.hpp"
#include "pipelines/autoviz/tools/tool_vega_lite.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::autoviz {
namespace {

Plan plan_of(const char* json) {
  core::Result<Plan> plan = Plan::from_json(core::Json::parse(json));
  EXPECT_TRUE(plan.has_value()) << plan.error().describe();
  return plan.value_or(Plan{});
}

std::string one_line(std::string record) {  // JSON Lines: a record per line
  std::replace(record.begin(), record.end(), '\n', ' ');
  return record;
}

Nl2visCase case_of(const std::string& record) {
  test_support::TempDir dir;
  const std::filesystem::path file = dir.path() / "cases.jsonl";
  std::ofstream(file) << one_line(record) << "\n";
  core::Result<std::vector<Nl2visCase>> cases = load_nl2vis_cases(file);
  EXPECT_TRUE(cases.has_value()) << cases.error().describe();
  return cases && !cases->empty() ? cases->front() : Nl2visCase{};
}

constexpr const char* kCountBySex =
    R"({"id": "c1", "question": "q", "table_csv": "tables/t.csv", "chart": "bar",
  "x": "Sex", "y": "*", "aggregate": "count", "distinct": false, "color": null, "bin": null,
  "sort": {"by": "y", "order": "desc"}, "limit": null, "filters": "rank = \"AsstProf\"", "having": null,
  "hardness": "Medium", "nvbench_chart": "bar",
  "expected": {"columns": ["x", "y"], "rows": [["M", 12], ["F", 3]], "zero_filled": false}})";

constexpr const char* kPlannedCountBySex = R"({"steps": [
  {"step_id": "filter_rows", "tool": "filter_rows", "params": {"column": "Rank", "op": "=", "value": "AsstProf"}, "rationale": "", "satisfies": []},
  {"step_id": "aggregate", "tool": "aggregate", "params": {"group_by": ["Sex"], "agg_func": "count", "metrics": ["*"]}, "rationale": "", "satisfies": []},
  {"step_id": "sort_limit", "tool": "sort_limit", "params": {"by": "count", "direction": "desc"}, "rationale": "", "satisfies": []},
  {"step_id": "plot_bar", "tool": "plot_bar", "params": {"x": "Sex", "y": "count"}, "rationale": "", "satisfies": []}]})";

TEST(Nl2visScore, APlanReadsAsTheChartItDraws) {
  const ChartSpec spec = chart_spec_of(plan_of(kPlannedCountBySex));

  EXPECT_EQ(spec.to_json(),
            core::Json::parse(R"({"chart": "bar", "x": "Sex", "y": "count", "aggregate": "count",
      "distinct": false, "color": null, "bin": null, "sort": {"by": "y", "order": "desc"}, "limit": null,
      "filters": [{"column": "Rank", "op": "=", "value": "AsstProf"}]})"));
}

TEST(Nl2visScore, EveryComponentOfAMatchingPlanScores) {
  const Nl2visCase target = case_of(kCountBySex);
  EXPECT_EQ(target.table_csv.filename(), "t.csv");

  const std::map<std::string, bool> scores =
      score_components(chart_spec_of(plan_of(kPlannedCountBySex)), target);

  for (const std::string& component : kNl2visComponents) EXPECT_TRUE(scores.at(component)) << component;
}

TEST(Nl2visScore, EachDifferenceFailsItsOwnComponent) {
  const Nl2visCase target = case_of(kCountBySex);
  ChartSpec spec = chart_spec_of(plan_of(kPlannedCountBySex));
  spec.chart = "pie";
  spec.aggregate = "sum";
  spec.sort->order = "asc";
  spec.filters.front().value = ParamValue{{std::string("Professor")}, false};

  const std::map<std::string, bool> scores = score_components(spec, target);

  EXPECT_FALSE(scores.at("chart"));
  EXPECT_FALSE(scores.at("y"));
  EXPECT_FALSE(scores.at("sort"));
  EXPECT_FALSE(scores.at("filter"));
  EXPECT_TRUE(scores.at("x"));
  EXPECT_TRUE(scores.at("limit"));
}

TEST(Nl2visScore, AnOrOfContainsMatchesAContainsAnyFilterInAnyOrder) {
  std::string record = kCountBySex;
  const std::string rank = R"("filters": "rank = \"AsstProf\"")";
  record.replace(record.find(rank), rank.size(),
                 R"("filters": "first_name LIKE '%D%' OR first_name LIKE '%S%'")");
  const Nl2visCase target = case_of(record);
  ChartSpec spec = chart_spec_of(plan_of(kPlannedCountBySex));

  spec.filters = {
      FilterAtom{"FIRST_NAME", "contains", ParamValue{{std::string("S"), std::string("D")}, true}}};
  EXPECT_TRUE(score_components(spec, target).at("filter"));
  spec.filters = {FilterAtom{"FIRST_NAME", "contains", ParamValue{{std::string("S")}, false}}};
  EXPECT_FALSE(score_components(spec, target).at("filter"));
}

TEST(Nl2visScore, DrawnRowsMatchAsAMultisetWithNormalizedCells) {
  Nl2visCase target = case_of(kCountBySex);
  const core::Json chart =
      core::Json::parse(R"({"data": {"values": [{"Sex": "F", "count": 3}, {"Sex": "M", "count": 12.00001}]},
      "encoding": {"x": {"field": "Sex"}, "y": {"field": "count"}}})");

  core::Result<core::Json> rows = drawn_rows(chart);

  ASSERT_TRUE(rows.has_value()) << rows.error().describe();
  EXPECT_TRUE(rows_match(*rows, target));
  EXPECT_FALSE(rows_match(core::Json::parse(R"([["F", 3]])"), target));
  EXPECT_FALSE(rows_match(core::Json::parse(R"([["F", 3], ["M", 12], ["X", 1]])"), target));
  target.expected_rows = core::Json::parse(R"([["Mon", 2], ["Tue", 0], ["2014-01-01", 5]])");
  EXPECT_FALSE(rows_match(core::Json::parse(R"([["1-Mon", 2], ["2014", 5]])"), target));
  target.zero_filled = true;
  EXPECT_TRUE(rows_match(core::Json::parse(R"([["1-Mon", 2], ["2014", 5]])"), target));
}

TEST(Nl2visScore, AChartWithoutInlineDataOrFieldsHasNoRows) {
  EXPECT_FALSE(drawn_rows(core::Json::parse(R"({"encoding": {"x": {"field": "a"}, "y": {"field": "b"}}})"))
                   .has_value());
  EXPECT_FALSE(drawn_rows(core::Json::parse(R"({"data": {"values": []}, "encoding": {"x": {"field": "a"}}})"))
                   .has_value());
}

TEST(Nl2visScore, EachParaphraseIsACaseWithTheSameTarget) {
  std::string record = kCountBySex;
  record.replace(record.find(R"("question": "q")"), 15,
                 R"("question": "q", "paraphrases": ["p one", "p two"])");
  const std::vector<Nl2visCase> cases = paraphrase_cases({case_of(record)});

  ASSERT_EQ(cases.size(), 2u);
  EXPECT_EQ(cases[0].id, "c1#1");
  EXPECT_EQ(cases[0].question, "p one");
  EXPECT_EQ(cases[1].id, "c1#2");
  EXPECT_EQ(cases[1].question, "p two");
  EXPECT_EQ(cases[1].target.to_json(), case_of(record).target.to_json());
  EXPECT_TRUE(cases[1].paraphrases.empty());
}

TEST(Nl2visScore, ABrokenFileNamesTheLineAndField) {
  test_support::TempDir dir;
  const std::filesystem::path file = dir.path() / "cases.jsonl";
  std::ofstream(file) << one_line(kCountBySex) << "\n\n{\"id\": \"c2\"}\n";

  core::Result<std::vector<Nl2visCase>> cases = load_nl2vis_cases(file);

  ASSERT_FALSE(cases.has_value());
  EXPECT_NE(cases.error().message.find("cases.jsonl:3"), std::string::npos) << cases.error().message;
  EXPECT_NE(cases.error().message.find("\"question\""), std::string::npos) << cases.error().message;
}

TEST(Nl2visScore, TheTallyCountsRatesOverallAndPerGroup) {
  Nl2visTally tally;
  std::map<std::string, bool> all_right, chart_wrong;
  for (const std::string& c : kNl2visComponents) all_right[c] = chart_wrong[c] = true;
  chart_wrong["chart"] = false;
  tally.add({"Easy"}, all_right, true);
  tally.add({"Hard"}, chart_wrong, true);

  const core::Json json = tally.to_json({"hardness"});

  EXPECT_EQ(json["overall"]["n"], 2);
  EXPECT_EQ(json["overall"]["exact_rate"], 0.5);
  EXPECT_EQ(json["overall"]["execution_rate"], 1.0);
  EXPECT_EQ(json["overall"]["components"]["chart"], 0.5);
  EXPECT_EQ(json["by_hardness"]["Hard"]["exact"], 0);
}

TEST(Nl2visScore, EscapedFieldsReadAsTheirColumns) {
  const core::Json chart = core::Json::parse(R"({"data": {"values": [{"a.b": "x", "c[0]": 2}]},
      "encoding": {"x": {"field": "a\\.b"}, "y": {"field": "c\\[0\\]"}}})");
  EXPECT_EQ(vega_lite_field("c[0]"), "c\\[0\\]");

  core::Result<core::Json> rows = drawn_rows(chart);

  ASSERT_TRUE(rows.has_value()) << rows.error().describe();
  EXPECT_EQ(*rows, core::Json::parse(R"([["x", 2]])"));
}

TEST(Nl2visScore, PlanningMetricsAreReadFromTheRunsStates) {
  PlanningMetrics metrics;
  metrics.add(core::Json::parse(R"({"plan": {"steps": [{"tool": "aggregate"}, {"tool": "plot_pie"},
      {"tool": "aggregate"}, {"tool": "top_k"}]},
      "coverage": {"lines": [{"covered": true}, {"covered": false}], "unjustified": ["plot_pie"]},
      "tools": [{"tool": "aggregate", "source": "template"}, {"tool": "top_k", "source": "retrieval"},
                {"tool": "plot_pie", "source": "discovery"}],
      "execution": {"steps": [{"repairs": []}, {"repairs": [{"param": "x"}]}]}})"));
  metrics.add(core::Json::parse(R"({"plan": {"steps": [{}]}, "coverage": {"lines": [{"covered": true}]},
      "tools": [], "execution": {"steps": [{"repairs": []}]}})"));
  metrics.add(core::Json::object());

  EXPECT_EQ(metrics.to_json(), core::Json::parse(R"({"runs_planned": 2, "runs_failed": 1,
      "requirement_coverage_rate": 0.6667, "unjustified_step_rate": 0.2, "tool_retrieval_miss_rate": 0.5,
      "plan_repair_rate": 0.5, "plan_tools": 3, "plan_tool_recall": 0.6667, "retrieval_recall": 0.5})"));
}

}  // namespace
}  // namespace planfirst::autoviz
