// RunArtifacts over a hand-built state after execute: an aggregate table, a line chart and a
// save_table step; and SvgRenderer on the vega that scripts/bootstrap installs, checked against a
// fresh vl2svg (tests that need them skip without node or vega), and on small stand-in servers.
#include "pipelines/autoviz/report/run_artifacts.hpp"

#include <gmock/gmock.h>
#include <signal.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>

#include "core/asset_store.hpp"
#include "core/file_text.hpp"
#include "pipelines/autoviz/report/svg_renderer.hpp"
#include "support/unix_socket.hpp"

namespace planfirst::autoviz {
namespace {

namespace fs = std::filesystem;
using test_support::accepts_connections;
using test_support::disappears_within;
using test_support::holds_within;
using test_support::leave_stale_socket;
using test_support::listening_pid;
using test_support::socket_identity;
using test_support::stops_accepting_within;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using Json = nlohmann::json;

constexpr const char* kLineChart = R"({"$schema": "https://vega.github.io/schema/vega-lite/v5.json",
  "data": {"values": [{"month": "2024-01", "revenue": 10, "region": "North"},
                      {"month": "2024-02", "revenue": 15, "region": "North"},
                      {"month": "2024-01", "revenue": 7, "region": "South"},
                      {"month": "2024-02", "revenue": 3, "region": "South"}]},
  "mark": "line",
  "encoding": {"x": {"field": "month", "type": "ordinal"}, "y": {"field": "revenue", "type": "quantitative"},
               "color": {"field": "region", "type": "nominal"}}})";

constexpr const char* kColumns = R"([{"name": "region", "type": "text", "sql_type": "VARCHAR"},
                                     {"name": "revenue", "type": "double", "sql_type": "DOUBLE"}])";
constexpr const char* kRows =
    R"([{"region": "North", "revenue": 25.0}, {"region": "South, East", "revenue": 10.5}])";

// The autoviz state after execute, as the graph holds it; save_table wrote `dir`/revenue.csv.
Json sample_state(const fs::path& dir) {
  Json state = Json::parse(R"({"question": "revenue by region <script>alert(1)</script>",
      "dataset": "examples/sales.csv", "table": "sales",
      "requirements": {"metrics": ["revenue"], "group_by": ["region"], "time": {"column": "month", "grain": "month"},
                       "analysis": ["total", "trend"], "outputs": ["chart", "table"], "constraints": []},
      "tools": [{"tool": "aggregate", "source": "template", "score": 0.9, "query": "q"},
                {"tool": "plot_line", "source": "retrieval", "score": 0.7, "query": "q"}],
      "plan": {"steps": [
        {"step_id": "aggregate_1", "tool": "aggregate", "params": {}, "rationale": "totals", "satisfies": ["analysis:total", "group_by:region"]},
        {"step_id": "plot_line_1", "tool": "plot_line", "params": {}, "rationale": "trend", "satisfies": ["analysis:trend", "outputs:chart"]},
        {"step_id": "save_table_1", "tool": "save_table", "params": {}, "rationale": "table", "satisfies": ["outputs:table"]}]},
      "coverage": {"complete": true, "lines": [
        {"requirement": "metrics=revenue", "steps": ["aggregate_1"], "covered": true},
        {"requirement": "group_by=region", "steps": ["aggregate_1"], "covered": true}],
        "missing": [], "unjustified": [], "unknown_tools": [], "unmapped": [], "retry_payload": ""},
      "outcome": "executed"})");
  const Json repair = {{"step_id", "aggregate_1"}, {"tool", "aggregate"}, {"param", "metrics"},
                       {"before", "Revenue"},      {"after", "revenue"},  {"reason", "column-name casing"},
                       {"kind", "column_casing"}};
  Json aggregate = {{"step_id", "aggregate_1"},
                    {"tool", "aggregate"},
                    {"status", "repaired"},
                    {"params", {{"metrics", {"revenue"}}}},
                    {"input", "sales"},
                    {"repairs", {repair}},
                    {"relation", "aggregate_1"},
                    {"sql", "SELECT region, sum(revenue) AS revenue FROM sales GROUP BY region"},
                    {"table", Json::parse(kRows)},
                    {"columns", Json::parse(kColumns)},
                    {"truncated", false},
                    {"files", Json::array()}};
  Json plot = {{"step_id", "plot_line_1"},
               {"tool", "plot_line"},
               {"status", "ok"},
               {"params", Json::object()},
               {"input", "aggregate_1"},
               {"repairs", Json::array()},
               {"relation", ""},
               {"sql", ""},
               {"chart", Json::parse(kLineChart)},
               {"files", Json::array()}};
  Json save = {{"step_id", "save_table_1"},
               {"tool", "save_table"},
               {"status", "ok"},
               {"params", Json::object()},
               {"input", "aggregate_1"},
               {"repairs", Json::array()},
               {"relation", ""},
               {"sql", ""},
               {"table", Json::parse(kRows)},
               {"columns", Json::parse(kColumns)},
               {"truncated", false},
               {"files", {(dir / "revenue.csv").string()}}};
  state["execution"] = {
      {"steps", {aggregate, plot, save}}, {"replan", Json::array()}, {"ok", true}, {"repair_count", 1}};
  return state;
}

std::string read(const fs::path& path) {
  core::Result<std::string> text = core::read_file_text(path);
  EXPECT_TRUE(text.has_value()) << path;
  return text ? *text : std::string();
}

// The text with XML namespace declarations removed, so what remains names no resource.
std::string without_namespaces(const std::string& text) {
  return std::regex_replace(text, std::regex(R"(xmlns(:\w+)?="http://www\.w3\.org/[^"]*")"), "");
}

SvgRenderer installed_renderer() {
  return SvgRenderer(SvgRendererOptions::installed());
}

SvgRenderer missing_renderer() {
  SvgRendererOptions options = SvgRendererOptions::installed();
  options.modules = "/nonexistent/node_modules";
  return SvgRenderer(options);
}

TEST(SvgRendererOptions, TheInstalledServerIsTheCompiledInScriptWrittenOnceUnderItsHash) {
  const std::string script = *core::AssetStore().read("autoviz/vl_render_server.js");

  const SvgRendererOptions first = SvgRendererOptions::installed();
  const SvgRendererOptions second = SvgRendererOptions::installed();

  EXPECT_EQ(first.script, second.script);
  EXPECT_THAT(first.script.filename().string(), ::testing::MatchesRegex("vl_render_server-[0-9a-f]+\\.js"));
  const core::Result<std::string> written = core::read_file_text(first.script);
  ASSERT_TRUE(written.has_value()) << written.error().describe();
  EXPECT_EQ(*written, script);
  EXPECT_EQ(fs::status(first.script.parent_path()).permissions() & fs::perms::group_all, fs::perms::none);
}

class RunArtifactsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("planfirst_run_artifacts_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  RunArtifacts writer(SvgRenderer renderer) const {
    core::Result<ReportTemplates> templates = ReportTemplates::load(core::AssetStore());
    EXPECT_TRUE(templates.has_value()) << templates.error().describe();
    return RunArtifacts(std::move(renderer), templates ? std::move(*templates) : ReportTemplates{});
  }

  RunFiles write_with(SvgRenderer renderer, const fs::path& dir) const {
    core::Result<RunFiles> written = writer(std::move(renderer)).write(dir, sample_state(dir));
    EXPECT_TRUE(written.has_value()) << written.error().describe();
    return written ? *written : RunFiles{};
  }

  fs::path dir_;
};

TEST_F(RunArtifactsTest, WritesEveryFileAndReturnsTheRunsFiles) {
  const bool svg = installed_renderer().available();

  const RunFiles run = write_with(installed_renderer(), dir_);

  std::vector<std::string> names;
  for (const fs::path& path : run.files) names.push_back(path.filename().string());
  if (svg) {
    EXPECT_THAT(names, ElementsAre("revenue.csv", "plot_line_1.vl.json", "plot_line_1.svg", "plan.json",
                                   "report.md", "report.html"));
  } else {
    EXPECT_THAT(names,
                ElementsAre("revenue.csv", "plot_line_1.vl.json", "plan.json", "report.md", "report.html"));
  }
  for (std::size_t i = 1; i < run.files.size(); ++i)
    EXPECT_TRUE(fs::is_regular_file(run.files[i])) << run.files[i];
  EXPECT_EQ(Json::parse(read(dir_ / "plot_line_1.vl.json")), Json::parse(kLineChart));
  EXPECT_FALSE(fs::exists(dir_ / "aggregate_1.csv"));   // save_table_1 saved its relation
  EXPECT_FALSE(fs::exists(dir_ / "save_table_1.csv"));  // the step wrote its own file
}

TEST_F(RunArtifactsTest, AWholeTableNoStepSavedIsWrittenAsCsvAndMarkdown) {
  Json state = sample_state(dir_);
  state["execution"]["steps"].erase(2);

  ASSERT_TRUE(writer(missing_renderer()).write(dir_, state).has_value());

  EXPECT_EQ(read(dir_ / "aggregate_1.csv"), "region,revenue\nNorth,25\n\"South, East\",10.5\n");
  EXPECT_THAT(read(dir_ / "aggregate_1.md"), HasSubstr("| North | 25 |"));
  EXPECT_EQ(Json::parse(read(dir_ / "plan.json"))["execution"]["steps"][0]["table_files"],
            Json::array({"aggregate_1.csv", "aggregate_1.md"}));
}

TEST_F(RunArtifactsTest, PlanJsonKeepsRepairsWithTheirProvenanceAndLeavesRowsOut) {
  write_with(missing_renderer(), dir_);

  const std::string text = read(dir_ / "plan.json");

  const Json plan = Json::parse(text);
  const Json state = sample_state(dir_);
  EXPECT_EQ(plan.at("requirements"), state["requirements"]);
  EXPECT_EQ(plan.at("plan"), state["plan"]);
  EXPECT_EQ(plan.at("tools").size(), 2u);
  EXPECT_EQ(plan.at("coverage").at("complete"), true);
  EXPECT_EQ(plan.at("repairs"),
            Json::parse(R"([{"step_id": "aggregate_1", "tool": "aggregate", "param": "metrics",
      "before": "Revenue", "after": "revenue", "reason": "column-name casing", "kind": "column_casing"}])"));
  const Json& aggregate = plan.at("execution").at("steps").at(0);
  EXPECT_EQ(aggregate.at("repairs"), plan.at("repairs"));
  EXPECT_EQ(aggregate.at("rows"), 2);
  EXPECT_EQ(aggregate.at("columns"), Json::parse(kColumns));
  EXPECT_EQ(aggregate.at("table_files"), Json::array({"revenue.csv"}));  // saved by save_table_1
  EXPECT_EQ(plan.at("execution").at("steps").at(1).at("chart_file"), "plot_line_1.vl.json");
  EXPECT_EQ(plan.at("execution").at("steps").at(2).at("files"), Json::array({"revenue.csv"}));
  EXPECT_THAT(text, Not(HasSubstr("South, East")));  // no table rows
  EXPECT_THAT(text, Not(HasSubstr("\"mark\"")));     // no chart spec
}

TEST_F(RunArtifactsTest, PlanJsonAndReportsAreByteIdenticalAcrossRuns) {
  write_with(missing_renderer(), dir_ / "a");
  write_with(missing_renderer(), dir_ / "b");

  for (const char* file : {"plan.json", "report.md", "report.html"}) {
    // The state names each folder's own revenue.csv, by a path relative to the folder.
    EXPECT_EQ(read(dir_ / "a" / file), read(dir_ / "b" / file)) << file;
  }
}

TEST_F(RunArtifactsTest, AChartStartedDuringExecutionGivesTheSameFilesAsOneRenderedAtTheEnd) {
  if (!installed_renderer().available()) GTEST_SKIP() << "SVG renderer unavailable";
  write_with(installed_renderer(), dir_ / "a");
  const RunArtifacts started = writer(installed_renderer());
  started.prepare();
  started.start_chart(Json::parse(kLineChart).dump());  // as the execute node gives it: the tool's text

  ASSERT_TRUE(started.write(dir_ / "b", sample_state(dir_ / "b")).has_value());

  for (const char* file : {"plot_line_1.svg", "plan.json", "report.md", "report.html"}) {
    EXPECT_EQ(read(dir_ / "a" / file), read(dir_ / "b" / file)) << file;
  }
}

TEST_F(RunArtifactsTest, ReportMarkdownNamesEveryStepTheVerdictsAndTheRepairs) {
  write_with(installed_renderer(), dir_);

  const std::string report = read(dir_ / "report.md");

  for (const char* step :
       {"aggregate_1: aggregate (repaired)", "plot_line_1: plot_line (ok)", "save_table_1: save_table"}) {
    EXPECT_THAT(report, HasSubstr(step));
  }
  EXPECT_THAT(report, HasSubstr("Dataset: `examples/sales.csv` (table sales)"));
  EXPECT_THAT(report, HasSubstr("Satisfies: analysis:trend, outputs:chart"));
  EXPECT_THAT(report, HasSubstr("Coverage: complete"));
  EXPECT_THAT(report, HasSubstr("group_by=region -> aggregate_1 (OK)"));
  EXPECT_THAT(report, HasSubstr("Execution: every step ran; 1 safe repair changed the plan's params."));
  EXPECT_THAT(report, HasSubstr("- aggregate (template, score 0.900)"));
  EXPECT_THAT(report, HasSubstr("- time: month (grain month)"));
  EXPECT_THAT(report, HasSubstr("| North | 25.0 |"));  // beside 10.5: the same decimals
  EXPECT_THAT(report, HasSubstr("metrics: `Revenue` -> `revenue` (column-name casing)"));
  EXPECT_THAT(report, HasSubstr("&lt;script>"));
  EXPECT_THAT(report, Not(HasSubstr("<script>")));
}

TEST_F(RunArtifactsTest, ReportsShowTheFirstRowsOfALongTableAndNameItsFiles) {
  Json state = sample_state(dir_);
  Json rows = Json::array();
  for (int i = 0; i < 30; ++i) rows.push_back({{"region", "r" + std::to_string(i)}, {"revenue", i}});
  state["execution"]["steps"][0]["table"] = rows;

  ASSERT_TRUE(writer(missing_renderer()).write(dir_, state).has_value());

  const std::string report = read(dir_ / "report.md");
  EXPECT_THAT(report, HasSubstr("| r19 |"));
  EXPECT_THAT(report, Not(HasSubstr("| r20 |")));
  EXPECT_THAT(report, HasSubstr("Showing 20 of 30 rows; files: revenue.csv."));
}

TEST_F(RunArtifactsTest, AStepThatCountedItsRowsIsReportedWithTheirNumber) {
  Json state = sample_state(dir_);
  Json& saved = state["execution"]["steps"][2];
  Json rows = Json::array();
  for (int i = 0; i < 25; ++i) rows.push_back({{"region", "r" + std::to_string(i)}, {"revenue", i}});
  saved["table"] = rows;
  saved["columns"] = state["execution"]["steps"][0]["columns"];
  saved["truncated"] = true;
  saved["row_count"] = 1440;

  ASSERT_TRUE(writer(missing_renderer()).write(dir_, state).has_value());

  EXPECT_THAT(read(dir_ / "report.md"), HasSubstr("Showing 20 of 1440 rows; files: revenue.csv"));
  EXPECT_THAT(read(dir_ / "report.md"), Not(HasSubstr("holds more than")));
  EXPECT_EQ(Json::parse(read(dir_ / "plan.json"))["execution"]["steps"][2]["rows"], 1440);
}

TEST_F(RunArtifactsTest, ATruncatedTableIsShownButNotFiledAsComplete) {
  Json state = sample_state(dir_);
  state["execution"]["steps"].erase(2);
  state["execution"]["steps"][0]["truncated"] = true;

  ASSERT_TRUE(writer(missing_renderer()).write(dir_, state).has_value());

  EXPECT_FALSE(fs::exists(dir_ / "aggregate_1.csv"));
  EXPECT_THAT(read(dir_ / "report.md"), HasSubstr("2 rows; the step's relation holds more than the 2 kept."));
}

// The state after execute with aggregate_1's table 30 rows long and no save_table step.
Json long_table_state(const fs::path& dir) {
  Json state = sample_state(dir);
  state["execution"]["steps"].erase(2);
  Json rows = Json::array();
  for (int i = 0; i < 30; ++i) rows.push_back({{"region", "r" + std::to_string(i)}, {"revenue", i}});
  state["execution"]["steps"][0]["table"] = rows;
  return state;
}

TEST_F(RunArtifactsTest, OutputsFiledDuringExecutionLeaveReferencesAndTheSameFilesAsAWholeState) {
  const Json whole = long_table_state(dir_ / "a");
  ASSERT_TRUE(writer(missing_renderer()).write(dir_ / "a", whole).has_value());
  Json kept = long_table_state(dir_ / "b");

  core::Result<std::vector<fs::path>> filed = file_outputs(dir_ / "b", kept["execution"]);

  ASSERT_TRUE(filed.has_value()) << filed.error().describe();
  EXPECT_THAT(*filed, ElementsAre(dir_ / "b" / "aggregate_1.csv", dir_ / "b" / "aggregate_1.md",
                                  dir_ / "b" / "plot_line_1.vl.json"));
  const Json& plot = kept["execution"]["steps"][1];
  EXPECT_FALSE(plot.contains("chart"));
  EXPECT_EQ(plot["chart_file"], "plot_line_1.vl.json");
  EXPECT_EQ(plot["chart_points"], 4);
  const Json& step = kept["execution"]["steps"][0];
  EXPECT_EQ(step["table"].size(), kReportRows);
  EXPECT_EQ(step["table"], Json(std::vector<Json>(whole["execution"]["steps"][0]["table"].begin(),
                                                  whole["execution"]["steps"][0]["table"].begin() + 20)));
  EXPECT_EQ(step["row_count"], 30);
  EXPECT_EQ(step["table_files"], Json::array({"aggregate_1.csv", "aggregate_1.md"}));
  ASSERT_TRUE(writer(missing_renderer()).write(dir_ / "b", kept).has_value());
  for (const char* file : {"aggregate_1.csv", "aggregate_1.md", "plot_line_1.vl.json", "plan.json",
                           "report.md", "report.html"}) {
    EXPECT_EQ(read(dir_ / "a" / file), read(dir_ / "b" / file)) << file;
  }
  EXPECT_THAT(read(dir_ / "b" / "report.md"), HasSubstr("Showing 20 of 30 rows; files: aggregate_1.csv"));
  EXPECT_THAT(read(dir_ / "b" / ".planfirst-run.json"), HasSubstr("\"aggregate_1.csv\""));
}

TEST_F(RunArtifactsTest, ATableKeptOnlyAsAPreviewIsNeverFiledAsIfWhole) {
  Json state = long_table_state(dir_);

  keep_table_previews(state["execution"]);

  EXPECT_EQ(state["execution"]["steps"][0]["table"].size(), kReportRows);
  ASSERT_TRUE(writer(missing_renderer()).write(dir_, state).has_value());
  EXPECT_FALSE(fs::exists(dir_ / "aggregate_1.csv"));
  EXPECT_THAT(read(dir_ / "report.md"), HasSubstr("Showing 20 of 30 rows."));
}

TEST_F(RunArtifactsTest, TheFolderRecordListsEveryFileTheRunWrote) {
  const RunFiles run = write_with(missing_renderer(), dir_);

  const Json record = Json::parse(read(dir_ / ".planfirst-run.json"));

  std::vector<std::string> listed;
  for (const Json& file : record["files"]) listed.push_back(file["path"].get<std::string>());
  EXPECT_THAT(listed, ElementsAre("plot_line_1.vl.json", "plan.json", "report.md", "report.html"))
      << "revenue.csv is named by the state but was never written here";
  EXPECT_EQ(record["question"], "revenue by region <script>alert(1)</script>");
  EXPECT_EQ(run.files.size(), 5u);
}

TEST_F(RunArtifactsTest, ATableCellThatIsNotAScalarIsNamedByItsStatePointer) {
  Json state = sample_state(dir_);
  state["execution"]["steps"][0]["table"][1]["revenue"] = Json::array({1});

  core::Result<RunFiles> written = writer(missing_renderer()).write(dir_, state);

  ASSERT_FALSE(written.has_value());
  EXPECT_EQ(written.error().where, "/execution/steps/0/table/1/revenue");
}

TEST_F(RunArtifactsTest, ReportHtmlIsSelfContainedWithTheChartInlineAndEscapesTheQuestion) {
  const bool svg = installed_renderer().available();
  write_with(installed_renderer(), dir_);

  const std::string html = read(dir_ / "report.html");

  EXPECT_THAT(html, HasSubstr("revenue by region &lt;script&gt;alert(1)&lt;/script&gt;"));
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, HasSubstr("<td>South, East</td>"));
  EXPECT_THAT(html, HasSubstr("Files: revenue.csv"));
  EXPECT_THAT(html, HasSubstr("<li>metrics: `Revenue` -&gt; `revenue` (column-name casing)</li>"));
  EXPECT_THAT(html, HasSubstr("<p class=\"verdict complete\">Coverage: complete</p>"));
  EXPECT_THAT(html, HasSubstr("<style>"));
  if (svg) {
    EXPECT_THAT(html, HasSubstr("<figure><svg"));
    EXPECT_THAT(without_namespaces(html), Not(HasSubstr("http")));
  } else {
    EXPECT_THAT(html, HasSubstr("SVG skipped: "));
    EXPECT_THAT(html, HasSubstr("&quot;mark&quot;: &quot;line&quot;"));  // the spec instead
  }
}

TEST_F(RunArtifactsTest, AnUnavailableRendererLeavesANoticeAndTheSpecInsteadOfFailing) {
  const RunFiles run = write_with(missing_renderer(), dir_);

  EXPECT_FALSE(fs::exists(dir_ / "plot_line_1.svg"));
  const std::string notice =
      "SVG skipped: vega-lite not found in /nonexistent/node_modules (scripts/bootstrap installs it)";
  EXPECT_THAT(run.notices, ElementsAre("plot_line_1: " + notice));
  EXPECT_THAT(read(dir_ / "report.md"), HasSubstr(notice));
  const std::string html = read(dir_ / "report.html");
  EXPECT_THAT(html, HasSubstr(notice));
  EXPECT_THAT(html, HasSubstr("<summary>Vega-Lite spec (plot_line_1.vl.json)</summary>"));
  EXPECT_EQ(Json::parse(read(dir_ / "plan.json")).at("notices"), Json::array({"plot_line_1: " + notice}));
}

TEST_F(RunArtifactsTest, AStepSentBackToPlanningIsReportedWithWhatItRefused) {
  Json state = sample_state(dir_);
  Json& aggregate = state["execution"]["steps"][0];
  aggregate["status"] = "failed";
  aggregate["error"] =
      "/steps/0/params/metrics/0: step 'aggregate_1' (aggregate): column 'profit' is not in the data";
  for (const char* key : {"table", "columns", "truncated", "files", "relation", "sql"}) aggregate.erase(key);
  state["execution"]["steps"][1] = {
      {"step_id", "plot_line_1"}, {"tool", "plot_line"}, {"status", "skipped"},
      {"params", Json::object()}, {"input", ""},         {"repairs", Json::array()}};
  state["execution"]["replan"] =
      Json::parse(R"([{"step_id": "aggregate_1", "tool": "aggregate", "param": "metrics",
      "pointer": "/steps/0/params/metrics/0", "value": "profit", "change": "metric", "available": ["region"],
      "reason": "column 'profit' is not in the data"}])");
  state["execution"]["ok"] = false;

  ASSERT_TRUE(writer(missing_renderer()).write(dir_, state).has_value());

  const std::string report = read(dir_ / "report.md");
  EXPECT_THAT(report,
              HasSubstr("Execution: stopped at step 'aggregate_1' (aggregate): /steps/0/params/metrics/0: "));
  EXPECT_THAT(report,
              HasSubstr("- aggregate_1.metrics = profit (metric): column 'profit' is not in the data"));
  EXPECT_THAT(report, HasSubstr("plot_line_1: plot_line (skipped)"));
  EXPECT_THAT(read(dir_ / "report.html"), HasSubstr("<ul class=\"replan\">"));
}

TEST_F(RunArtifactsTest, AFileThatCannotBeWrittenIsNamed) {
  fs::create_directories(dir_ / "plan.json");  // a folder where the file goes

  core::Result<RunFiles> written = writer(missing_renderer()).write(dir_, sample_state(dir_));

  ASSERT_FALSE(written.has_value());
  EXPECT_EQ(written.error().where, (dir_ / "plan.json").string());
}

TEST_F(RunArtifactsTest, AStateWithoutRequirementsIsRefusedByPointer) {
  Json state = sample_state(dir_);
  state["requirements"]["metrics"] = "revenue";

  core::Result<RunFiles> written = writer(missing_renderer()).write(dir_, state);

  ASSERT_FALSE(written.has_value());
  EXPECT_EQ(written.error().where, "/requirements/metrics");
  EXPECT_FALSE(fs::exists(dir_));
}

TEST(SvgRenderer, RendersALineChartWithOneLinePerRegion) {
  const SvgRenderer renderer = installed_renderer();
  if (!renderer.available()) GTEST_SKIP() << "vl2svg unavailable: " << renderer.unavailable_reason();

  core::Result<std::string> svg = renderer.render(kLineChart);

  ASSERT_TRUE(svg.has_value()) << svg.error().describe();
  EXPECT_THAT(*svg, HasSubstr("<svg"));
  const std::string line = "aria-roledescription=\"line mark\"";
  std::size_t lines = 0;
  for (std::size_t at = svg->find(line); at != std::string::npos; at = svg->find(line, at + 1)) ++lines;
  EXPECT_EQ(lines, 2u);
  EXPECT_THAT(*svg, HasSubstr(">North<"));
  EXPECT_THAT(*svg, HasSubstr(">South<"));
  EXPECT_THAT(without_namespaces(*svg), Not(HasSubstr("http")));
}

constexpr const char* kBarChart = R"({"data": {"values": [{"region": "North", "revenue": 25},
                                                           {"region": "South", "revenue": 10.5}]},
  "mark": "bar", "encoding": {"x": {"field": "region", "type": "nominal"},
                              "y": {"field": "revenue", "type": "quantitative"}}})";

// A clipped heatmap: its SVG numbers a clip path and a legend gradient.
constexpr const char* kHeatmap = R"({"data": {"values": [{"region": "North", "month": "Jan", "revenue": 25},
                                                        {"region": "South", "month": "Feb", "revenue": 10.5}]},
  "mark": {"type": "rect", "clip": true}, "encoding": {"x": {"field": "month", "type": "nominal"},
  "y": {"field": "region", "type": "nominal"}, "color": {"field": "revenue", "type": "quantitative"}}})";

// What a fresh `node vl2svg` prints for `spec`.
std::string fresh_vl2svg(const std::string& spec, const fs::path& dir) {
  fs::create_directories(dir);
  std::ofstream(dir / "spec.json") << spec;
  const fs::path vl2svg = SvgRendererOptions::installed().modules / "vega-lite" / "bin" / "vl2svg";
  const std::string command = "node '" + vl2svg.string() + "' '" + (dir / "spec.json").string() + "' > '" +
                              (dir / "fresh.svg").string() + "'";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  return read(dir / "fresh.svg");
}

TEST_F(RunArtifactsTest, TheResidentChildRendersEachSpecAsAFreshVl2svgDoes) {
  const SvgRenderer resident = installed_renderer();
  if (!resident.available()) GTEST_SKIP() << "SVG renderer unavailable: " << resident.unavailable_reason();
  const std::vector<std::string> specs = {kHeatmap, kLineChart, kBarChart, kHeatmap, kLineChart};

  resident.warm_up();
  std::vector<std::string> svgs;
  for (const std::string& spec : specs) {
    core::Result<std::string> svg = resident.render(spec);
    ASSERT_TRUE(svg.has_value()) << svg.error().describe();
    svgs.push_back(*svg);
  }

  EXPECT_EQ(svgs[0], fresh_vl2svg(kHeatmap, dir_ / "heatmap"));
  EXPECT_EQ(svgs[1], fresh_vl2svg(kLineChart, dir_ / "line"));
  EXPECT_EQ(svgs[2], fresh_vl2svg(kBarChart, dir_ / "bar"));
  // A later render numbers its clip path and gradient from the start again, as a fresh process does.
  EXPECT_THAT(svgs[3], HasSubstr("url(#clip1)"));
  EXPECT_THAT(svgs[3], HasSubstr("url(#gradient_0)"));
  EXPECT_EQ(svgs[3], svgs[0]);
  EXPECT_EQ(svgs[4], svgs[1]);
}

// A runtime folder for a test's shared server, not yet made; removed by the caller.
fs::path runtime_folder(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("planfirst_runtime_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

// Whether the shared server on `socket` removed it (its idle exit) within 20 s.
bool exits_when_idle(const fs::path& socket) {
  return disappears_within(socket, std::chrono::seconds(20));
}

SvgRendererOptions shared_options(const fs::path& runtime_dir) {
  SvgRendererOptions options = SvgRendererOptions::installed();
  options.keep_alive = std::chrono::seconds(2);
  options.runtime_dir = runtime_dir;
  return options;
}

TEST_F(RunArtifactsTest, ASharedServerServesTheNextRendererAndExitsWhenIdle) {
  const fs::path runtime = runtime_folder("shared");
  const SvgRendererOptions options = shared_options(runtime);
  std::optional<SvgRenderer> first(std::in_place, options);
  if (!first->available()) GTEST_SKIP() << "SVG renderer unavailable: " << first->unavailable_reason();
  const fs::path socket = first->shared_socket();
  ASSERT_FALSE(socket.empty());
  EXPECT_EQ(socket.parent_path(), runtime);
  EXPECT_EQ(fs::status(runtime).permissions() & fs::perms::all, fs::perms::owner_all);

  core::Result<std::string> by_first = first->render(kHeatmap);
  first.reset();  // as a CLI process ends
  const auto served_first = socket_identity(socket);
  core::Result<std::string> by_second = SvgRenderer(options).render(kHeatmap);
  const auto served_second = socket_identity(socket);

  ASSERT_TRUE(by_first.has_value()) << by_first.error().describe();
  ASSERT_TRUE(by_second.has_value()) << by_second.error().describe();
  ASSERT_TRUE(served_first.has_value()) << "the server did not outlive the renderer that started it";
  EXPECT_EQ(served_second, served_first) << "a new server bound the socket again";
  EXPECT_EQ(*by_first, fresh_vl2svg(kHeatmap, dir_ / "heatmap"));
  EXPECT_EQ(*by_second, *by_first);
  EXPECT_TRUE(exits_when_idle(socket));
  fs::remove_all(runtime);
}

TEST(SvgRenderer, AStaleSocketFileIsReplacedByANewServer) {
  const fs::path runtime = runtime_folder("stale");
  const SvgRenderer renderer(shared_options(runtime));
  if (!renderer.available()) GTEST_SKIP() << "SVG renderer unavailable: " << renderer.unavailable_reason();
  const fs::path socket = renderer.shared_socket();
  ASSERT_TRUE(leave_stale_socket(socket)) << std::strerror(errno);  // a server that died without removing it
  const auto stale = socket_identity(socket);

  core::Result<std::string> svg = renderer.render(kBarChart);

  ASSERT_TRUE(svg.has_value()) << svg.error().describe();
  EXPECT_THAT(*svg, HasSubstr("<svg"));
  const auto replaced = socket_identity(socket);
  ASSERT_TRUE(replaced.has_value()) << "no server listens where the stale socket was";
  EXPECT_NE(replaced, stale);
  EXPECT_TRUE(accepts_connections(socket));
  EXPECT_TRUE(exits_when_idle(socket));
  fs::remove_all(runtime);
}

// The CPU time `pid` has used (user and system), from /proc; nullopt when it is gone.
std::optional<double> cpu_seconds(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line) || line.rfind(')') == std::string::npos) return std::nullopt;
  std::istringstream fields(line.substr(line.rfind(')') + 2));  // after "pid (name) "
  std::string field;
  for (int i = 3; i < 14; ++i) fields >> field;  // state .. cmajflt: fields 3-13
  double user = 0, system = 0;
  if (!(fields >> user >> system)) return std::nullopt;
  return (user + system) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

// A fresh server's first renders of a chart run 2-4x slower until node has compiled vega's hot
// paths: after its first answer, the server renders a chart of its own in idle time, a bounded
// number of times.
TEST(SvgRenderer, ASharedServerWarmsUpInIdleTimeAfterItsFirstAnswerAndThenRests) {
  const fs::path runtime = runtime_folder("warm");
  SvgRendererOptions options = shared_options(runtime);
  options.keep_alive = std::chrono::seconds(30);
  const SvgRenderer renderer(options);
  if (!renderer.available()) GTEST_SKIP() << "SVG renderer unavailable: " << renderer.unavailable_reason();
  ASSERT_TRUE(renderer.render(kBarChart).has_value());
  const std::optional<pid_t> server = listening_pid(renderer.shared_socket());
  ASSERT_TRUE(server.has_value());
  const std::optional<double> answered = cpu_seconds(*server);
  ASSERT_TRUE(answered.has_value());

  std::optional<double> now = answered;  // no frame is sent: its CPU time grows only by itself
  (void)holds_within([&] { return !(now = cpu_seconds(*server)) || *now - *answered >= 0.05; },
                     std::chrono::seconds(10));
  bool rests = false;  // a second without renders (ticks are 10 ms)
  for (int i = 0; i < 30 && now && !rests; ++i) {
    const double before = *now;
    std::this_thread::sleep_for(std::chrono::seconds(1));
    now = cpu_seconds(*server);
    rests = now && *now - before < 0.03;
  }

  ASSERT_TRUE(now.has_value()) << "the server exited";
  EXPECT_GT(*now - *answered, 0.05) << "no renders in idle time after the first answer";
  EXPECT_TRUE(rests) << "still rendering after 30 s";
  core::Result<std::string> svg = renderer.render(kHeatmap);
  ASSERT_TRUE(svg.has_value()) << svg.error().describe();
  EXPECT_EQ(*svg, fresh_vl2svg(kHeatmap, runtime / "heatmap"));
  ::kill(*server, SIGKILL);
  fs::remove_all(runtime);
}

// As when two servers replace the same stale file at once: the one whose file the other replaced
// can get no new client, so it exits instead of idling for its keep-alive.
TEST(SvgRenderer, ASharedServerWhoseSocketFileWasReplacedExits) {
  const fs::path runtime = runtime_folder("replaced");
  SvgRendererOptions options = shared_options(runtime);
  options.keep_alive = std::chrono::seconds(60);  // far past the wait below
  const SvgRenderer renderer(options);
  if (!renderer.available()) GTEST_SKIP() << "SVG renderer unavailable: " << renderer.unavailable_reason();
  const fs::path socket = renderer.shared_socket();
  ASSERT_TRUE(renderer.render(kBarChart).has_value());
  const std::optional<pid_t> server = listening_pid(socket);
  ASSERT_TRUE(server.has_value());

  fs::remove(socket);
  ASSERT_TRUE(leave_stale_socket(socket)) << std::strerror(errno);
  const bool running =  // it looks every second
      !holds_within([&] { return ::kill(*server, 0) != 0; }, std::chrono::seconds(5));

  EXPECT_FALSE(running) << "the server out of reach still runs";
  EXPECT_TRUE(fs::exists(socket)) << "the server removed a socket file that was not its own";
  if (running) ::kill(*server, SIGKILL);
  fs::remove_all(runtime);
}

TEST(SvgRenderer, ASharedServerGoneSinceTheLastRenderIsStartedAgain) {
  const fs::path runtime = runtime_folder("restart");
  const SvgRenderer renderer(shared_options(runtime));
  if (!renderer.available()) GTEST_SKIP() << "SVG renderer unavailable: " << renderer.unavailable_reason();
  const fs::path socket = renderer.shared_socket();
  ASSERT_TRUE(renderer.render(kBarChart).has_value());
  const std::optional<pid_t> first = listening_pid(socket);
  ASSERT_TRUE(first.has_value());
  ::kill(*first, SIGKILL);  // gone without removing its socket
  (void)stops_accepting_within(socket, std::chrono::seconds(2));

  core::Result<std::string> svg = renderer.render(kHeatmap);
  const std::optional<pid_t> second = listening_pid(socket);

  ASSERT_TRUE(svg.has_value()) << svg.error().describe();
  EXPECT_THAT(*svg, HasSubstr("<svg"));
  ASSERT_TRUE(second.has_value()) << "the render did not start a shared server again";
  EXPECT_NE(*second, *first);
  EXPECT_TRUE(exits_when_idle(socket));
  fs::remove_all(runtime);
}

// A renderer given `runtime` shares no server and still renders in its own child.
void expect_unshared_renderer_renders(const fs::path& runtime) {
  const SvgRenderer renderer(shared_options(runtime));
  if (!renderer.available()) GTEST_SKIP() << "SVG renderer unavailable: " << renderer.unavailable_reason();

  core::Result<std::string> svg = renderer.render(kBarChart);

  EXPECT_TRUE(renderer.shared_socket().empty());
  ASSERT_TRUE(svg.has_value()) << svg.error().describe();
}

TEST(SvgRenderer, ARuntimeFolderOthersCanReadIsNotSharedAndRendersStillWork) {
  const fs::path runtime = runtime_folder("open");
  fs::create_directories(runtime);
  fs::permissions(runtime, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                               fs::perms::others_read | fs::perms::others_exec);

  expect_unshared_renderer_renders(runtime);

  EXPECT_TRUE(fs::is_empty(runtime));
  fs::remove_all(runtime);
}

TEST(SvgRenderer, TwoRenderersStartingAtOnceShareTheOneServerThatWins) {
  const fs::path runtime = runtime_folder("race");
  const SvgRendererOptions options = shared_options(runtime);
  const SvgRenderer first(options), second(options);
  if (!first.available()) GTEST_SKIP() << "SVG renderer unavailable: " << first.unavailable_reason();

  core::Result<std::string> by_first = core::internal_error("not run");
  std::thread racing([&] { by_first = first.render(kBarChart); });
  core::Result<std::string> by_second = second.render(kBarChart);
  racing.join();

  ASSERT_TRUE(by_first.has_value()) << by_first.error().describe();
  ASSERT_TRUE(by_second.has_value()) << by_second.error().describe();
  EXPECT_EQ(*by_first, *by_second);
  std::vector<fs::path> files;
  for (const fs::directory_entry& entry : fs::directory_iterator(runtime)) files.push_back(entry.path());
  EXPECT_THAT(files, ElementsAre(first.shared_socket()));
  EXPECT_TRUE(exits_when_idle(first.shared_socket()));
  fs::remove_all(runtime);
}

TEST(SvgRenderer, ARuntimeFolderTooDeepForASocketNameIsNotShared) {
  const fs::path runtime = runtime_folder("deep") / std::string(100, 'd');
  fs::create_directories(runtime.parent_path());  // the folder itself can be made; a socket in it cannot

  expect_unshared_renderer_renders(runtime);

  fs::remove_all(runtime.parent_path());
}

// A folder that stands in for node_modules: empty vega and vega-lite folders.
fs::path stand_in_modules() {
  const fs::path modules = fs::temp_directory_path() / ("planfirst_modules_" + std::to_string(::getpid()));
  fs::create_directories(modules / "vega");
  fs::create_directories(modules / "vega-lite");
  return modules;
}

// A render server that counts its starts and its frames in `log` and answers each frame with an SVG
// naming its length, then exits after `frames` frames (never, when 0).
fs::path counting_server(const fs::path& log, int frames = 0) {
  const fs::path script =
      fs::temp_directory_path() / ("planfirst_counter_" + std::to_string(::getpid()) + ".js");
  std::ofstream(script)
      << "const fs = require('fs'); const log = " << Json(log.string()).dump() << ";\n"
      << "fs.appendFileSync(log, 'start\\n'); let buf = ''; let served = 0;\n"
      << "process.stdin.setEncoding('latin1');\n"
      << "process.stdin.on('data', (c) => { buf += c; for (;;) {\n"
      << "  const nl = buf.indexOf('\\n'); if (nl < 0) return;\n"
      << "  const n = Number(buf.slice(0, nl)); if (buf.length < nl + 1 + n) return;\n"
      << "  buf = buf.slice(nl + 1 + n); fs.appendFileSync(log, 'run\\n');\n"
      << "  const svg = '<svg>' + n + '</svg>'; process.stdout.write('ok ' + svg.length + '\\n' + svg);\n"
      << "  if (++served === " << frames << ") process.exit(0); } });\n";
  return script;
}

SvgRendererOptions stand_in_options(const fs::path& script) {
  SvgRendererOptions options;
  options.script = script;
  options.modules = stand_in_modules();
  return options;
}

// `script` shared from `runtime`, with a 1.5 s timeout per render.
SvgRendererOptions shared_stand_in_options(const fs::path& script, const fs::path& runtime) {
  SvgRendererOptions options = stand_in_options(script);
  options.keep_alive = std::chrono::seconds(60);
  options.runtime_dir = runtime;
  options.timeout = std::chrono::milliseconds(1500);
  return options;
}

// A shared server that starts each spec (says "started") and never finishes it.
TEST(SvgRenderer, ASharedRenderPastItsTimeoutKillsTheSharedServer) {
  const fs::path runtime = runtime_folder("stuck");
  const fs::path script =
      fs::temp_directory_path() / ("planfirst_stuck_" + std::to_string(::getpid()) + ".js");
  std::ofstream(script)
      << "const at = process.argv.indexOf('--listen');\n"
      << "require('net').createServer((c) => c.once('data', () => c.write('started 0\\n')))\n"
      << "  .listen(process.argv[at + 1]);\n";
  const SvgRendererOptions options = shared_stand_in_options(script, runtime);
  const SvgRenderer renderer(options);
  if (!renderer.available()) GTEST_SKIP() << "node unavailable: " << renderer.unavailable_reason();

  core::Result<std::string> svg = renderer.render("{}");

  ASSERT_FALSE(svg.has_value());
  EXPECT_EQ(svg.error().code, core::ErrorCode::kUnavailable);
  EXPECT_THAT(svg.error().message, HasSubstr("the shared renderer was killed"));
  // SIGKILL lands at once; the socket closes as it dies
  EXPECT_TRUE(stops_accepting_within(renderer.shared_socket(), std::chrono::seconds(2)))
      << "the stuck server still listens";
  fs::remove(script);
  fs::remove_all(options.modules);
  fs::remove_all(runtime);
}

struct QueuedRender {
  core::Result<std::string> svg;
  bool server_runs = false;  // the shared server still takes connections 2 s after the render
};

// Renders "{}" with a shared stand-in server that never answers, whose connections `handler` (JS)
// takes; the renderer's own child answers "<svg>2</svg>". nullopt when node is unavailable.
std::optional<QueuedRender> render_behind_silent_server(const std::string& name, const std::string& handler) {
  const fs::path runtime = runtime_folder(name);
  const fs::path log =
      fs::temp_directory_path() / ("planfirst_" + name + "_" + std::to_string(::getpid()) + ".log");
  fs::remove(log);
  const fs::path script = counting_server(log);  // serves stdin: the renderer's own child
  std::ofstream(script, std::ios::app) << "const at = process.argv.indexOf('--listen');\n"
                                       << "if (at > 0) require('net').createServer(" << handler << ")"
                                       << ".listen(process.argv[at + 1]);\n";
  const SvgRendererOptions options = shared_stand_in_options(script, runtime);
  const SvgRenderer renderer(options);
  std::optional<QueuedRender> outcome;
  std::optional<pid_t> server;
  if (renderer.available()) {
    renderer.warm_up();  // the shared server
    const bool started =
        holds_within([&] { return (server = listening_pid(renderer.shared_socket())).has_value(); },
                     std::chrono::seconds(5));
    EXPECT_TRUE(started) << "no shared server started";
    if (server) {
      core::Result<std::string> svg = renderer.render("{}");
      const bool runs = !stops_accepting_within(renderer.shared_socket(), std::chrono::seconds(2));
      outcome = QueuedRender{std::move(svg), runs};
    }
  }
  if (server) ::kill(*server, SIGKILL);
  fs::remove(script);
  fs::remove(log);
  fs::remove_all(options.modules);
  fs::remove_all(runtime);
  return outcome;
}

// A shared server busy with other processes' charts reads this one but never starts it: after the
// timeout the renderer renders in its own child and leaves the server running for the others.
TEST(SvgRenderer, ASpecQueuedPastItsTimeoutRendersInItsOwnChildAndLeavesTheSharedServerRunning) {
  const std::optional<QueuedRender> queued =
      render_behind_silent_server("busy", "(c) => c.on('data', () => {})");
  if (!queued) GTEST_SKIP() << "node unavailable";

  ASSERT_TRUE(queued->svg.has_value()) << queued->svg.error().describe();
  EXPECT_EQ(*queued->svg, "<svg>2</svg>");
  EXPECT_TRUE(queued->server_runs) << "the busy server was killed";
}

// A shared server stuck in one render does not even read the specs sent since: after the timeout
// the renderer kills it (the next chart starts a new one) and renders in its own child.
TEST(SvgRenderer, AServerThatHasNotReadTheSpecInTheTimeoutIsStuckAndKilled) {
  const std::optional<QueuedRender> queued = render_behind_silent_server(
      "unread", "() => { const end = Date.now() + 60000; while (Date.now() < end); }");
  if (!queued) GTEST_SKIP() << "node unavailable";

  ASSERT_TRUE(queued->svg.has_value()) << queued->svg.error().describe();
  EXPECT_EQ(*queued->svg, "<svg>2</svg>");
  EXPECT_FALSE(queued->server_runs) << "the stuck server still runs";
}

TEST(SvgRenderer, RenderTakesTheStartedRenderOfTheSameSpec) {
  const fs::path log =
      fs::temp_directory_path() / ("planfirst_counter_" + std::to_string(::getpid()) + ".log");
  fs::remove(log);
  const SvgRendererOptions options = stand_in_options(counting_server(log));
  std::optional<SvgRenderer> renderer(std::in_place, options);
  if (!renderer->available()) GTEST_SKIP() << "node unavailable: " << renderer->unavailable_reason();

  renderer->start("{\"a\": 1}");
  renderer->start("{\"a\": 1}");  // already started: nothing more
  core::Result<std::string> taken = renderer->render("{\"a\": 1}");
  core::Result<std::string> other = renderer->render("{}");
  renderer->start("{\"never\": \"asked for\"}");
  renderer.reset();  // waits for the render nobody asked for

  ASSERT_TRUE(taken.has_value()) << taken.error().describe();
  EXPECT_EQ(*taken, "<svg>8</svg>");
  EXPECT_EQ(*other, "<svg>2</svg>");
  EXPECT_EQ(read(log), "start\nrun\nrun\nrun\n") << "one child serves every render";
  fs::remove(options.script);
  fs::remove_all(options.modules);
  fs::remove(log);
}

TEST(SvgRenderer, AChildThatDiedBetweenRendersIsStartedAgain) {
  const fs::path log = fs::temp_directory_path() / ("planfirst_dying_" + std::to_string(::getpid()) + ".log");
  fs::remove(log);
  const SvgRendererOptions options = stand_in_options(counting_server(log, 1));
  const SvgRenderer renderer(options);
  if (!renderer.available()) GTEST_SKIP() << "node unavailable: " << renderer.unavailable_reason();

  core::Result<std::string> first = renderer.render("{}");
  core::Result<std::string> second = renderer.render("{\"b\": 2}");

  ASSERT_TRUE(first.has_value()) << first.error().describe();
  ASSERT_TRUE(second.has_value()) << second.error().describe();
  EXPECT_EQ(*second, "<svg>8</svg>");
  EXPECT_EQ(read(log), "start\nrun\nstart\nrun\n");
  fs::remove(options.script);
  fs::remove_all(options.modules);
  fs::remove(log);
}

// What a renderer on a stand-in server running `js` gives for "{}"; nullopt when node is missing.
std::optional<core::Result<std::string>> render_on_stand_in(const std::string& name, const std::string& js,
                                                            std::chrono::milliseconds timeout) {
  const fs::path script =
      fs::temp_directory_path() / ("planfirst_" + name + "_" + std::to_string(::getpid()) + ".js");
  std::ofstream(script) << js;
  SvgRendererOptions options = stand_in_options(script);
  options.timeout = timeout;
  std::optional<core::Result<std::string>> svg;
  if (const SvgRenderer renderer(options); renderer.available()) svg = renderer.render("{}");
  fs::remove(script);
  fs::remove_all(options.modules);
  return svg;
}

TEST(SvgRenderer, AReplyThatIsNotAFrameOrClaimsAHugeLengthIsAnErrorNotAWait) {
  const std::vector<std::pair<std::string, std::string>> replies = {
      // what the server writes, what the error quotes
      {"<svg>no frame</svg>\\n", "<svg>no frame"},
      {"ok 99999999999\\n<svg>", "ok 99999999999"}};
  for (const auto& [reply, quoted] : replies) {
    const std::optional<core::Result<std::string>> svg = render_on_stand_in(
        "garbage", "process.stdin.on('data', () => process.stdout.write('" + reply + "'));\n",
        std::chrono::milliseconds(20000));
    if (!svg) GTEST_SKIP() << "node unavailable";

    ASSERT_FALSE(svg->has_value()) << reply;
    EXPECT_EQ(svg->error().code, core::ErrorCode::kUnavailable) << reply;
    EXPECT_THAT(svg->error().message, HasSubstr("something other than a frame: " + quoted));
  }
}

TEST_F(RunArtifactsTest, AChartStartedDuringExecutionIsTheRenderTheReportUses) {
  const fs::path log = dir_ / "runs.log";
  const SvgRendererOptions options = stand_in_options(counting_server(log));
  SvgRenderer counting(options);
  if (!counting.available()) GTEST_SKIP() << "node unavailable: " << counting.unavailable_reason();
  const RunArtifacts started = writer(std::move(counting));
  started.prepare();
  started.start_chart(Json::parse(kLineChart).dump());  // as the execute node gives it: the tool's text

  ASSERT_TRUE(started.write(dir_ / "out", sample_state(dir_ / "out")).has_value());

  EXPECT_EQ(read(log), "start\nrun\n")
      << "write() rendered the chart again instead of taking the started render";
  fs::remove(options.script);
  fs::remove_all(options.modules);
}

TEST(SvgRenderer, NamesVegasErrorForAnInvalidSpecAndRendersTheNextOne) {
  const SvgRenderer renderer = installed_renderer();
  if (!renderer.available()) GTEST_SKIP() << "SVG renderer unavailable: " << renderer.unavailable_reason();

  core::Result<std::string> svg = renderer.render("{not json");

  ASSERT_FALSE(svg.has_value());
  EXPECT_EQ(svg.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_THAT(svg.error().message, HasSubstr("SVG render failed: "));
  EXPECT_THAT(svg.error().message, HasSubstr("JSON"));
  EXPECT_TRUE(renderer.render(kBarChart).has_value()) << "the child survives a rejected spec";
}

TEST(SvgRenderer, KillsARenderPastItsTimeout) {
  const std::optional<core::Result<std::string>> svg =
      render_on_stand_in("sleeper", "setTimeout(() => {}, 60000);\n", std::chrono::milliseconds(300));
  if (!svg) GTEST_SKIP() << "node unavailable";

  ASSERT_FALSE(svg->has_value());
  EXPECT_EQ(svg->error().code, core::ErrorCode::kUnavailable);
  EXPECT_THAT(svg->error().message, HasSubstr("killed"));
}

TEST(SvgRenderer, IsUnavailableWhenNodeIsMissing) {
  SvgRendererOptions options = SvgRendererOptions::installed();
  options.node = "/nonexistent/node";

  const SvgRenderer renderer(options);

  EXPECT_FALSE(renderer.available());
  EXPECT_EQ(renderer.unavailable_reason(), "node not found at /nonexistent/node");
  EXPECT_EQ(renderer.render("{}").error().code, core::ErrorCode::kFailedPrecondition);
}

TEST(SvgRenderer, IsUnavailableWhenVegaIsMissing) {
  const SvgRenderer renderer = missing_renderer();

  if (renderer.unavailable_reason().starts_with("node not found")) GTEST_SKIP() << "node unavailable";
  EXPECT_EQ(renderer.unavailable_reason(),
            "vega-lite not found in /nonexistent/node_modules (scripts/bootstrap installs it)");
}

}  // namespace
}  // namespace planfirst::autoviz
