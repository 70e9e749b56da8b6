// RunArtifacts over a hand-built run: an aggregate table, a line chart and a save_table step.
#include "pipelines/autoviz/run_artifacts.hpp"

#include <gmock/gmock.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

#include "core/file_text.hpp"
#include "pipelines/autoviz/svg_renderer.hpp"

namespace planfirst::autoviz {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kLineChart = R"({"$schema": "https://vega.github.io/schema/vega-lite/v5.json",
  "data": {"values": [{"month": "2024-01", "revenue": 10, "region": "North"},
                      {"month": "2024-02", "revenue": 15, "region": "North"},
                      {"month": "2024-01", "revenue": 7, "region": "South"},
                      {"month": "2024-02", "revenue": 3, "region": "South"}]},
  "mark": "line",
  "encoding": {"x": {"field": "month", "type": "ordinal"}, "y": {"field": "revenue", "type": "quantitative"},
               "color": {"field": "region", "type": "nominal"}}})";

data::QueryResult revenue_table() {
  return data::QueryResult({data::Column{"region", data::ColumnType::kText, "VARCHAR", {"North", "South, East"}},
                            data::Column{"revenue", data::ColumnType::kDouble, "DOUBLE", {25.0, 10.5}}});
}

RunRecord sample_run(const fs::path& dir) {
  RunRecord run;
  run.question = "revenue by region <script>alert(1)</script>";
  run.dataset = "examples/sales.csv";
  run.requirements = *Requirements::from_json(nlohmann::json::parse(R"({"metrics": ["revenue"],
      "group_by": ["region"], "time": {"column": "month", "grain": "month"}, "analysis": ["total", "trend"],
      "outputs": ["chart", "table"], "constraints": []})"));
  run.considered_tools = R"([{"tool": "aggregate", "score": 0.9, "sources": ["capability"]},
                             {"tool": "plot_line", "score": 0.7, "sources": ["retrieval"]}])";
  run.plan.steps = {PlanStep{"aggregate_1", "aggregate", {}, "totals", {"analysis:total", "group_by"}},
                    PlanStep{"plot_line_1", "plot_line", {}, "trend", {"analysis:trend", "outputs:chart"}},
                    PlanStep{"save_table_1", "save_table", {}, "table", {"outputs:table"}}};
  run.coverage.lines = {CoverageLine{"metrics=revenue", {"aggregate_1"}, true},
                        CoverageLine{"group_by=region", {"aggregate_1"}, true}};
  StepRecord aggregate{"aggregate_1", "aggregate", {"analysis:total", "group_by"}, StepStatus::kOk, {}, {}, {}};
  aggregate.output.table = revenue_table();
  aggregate.output.sql = "SELECT region, sum(revenue) AS revenue FROM sales GROUP BY region";
  aggregate.repairs = {ToolRepair{"aggregate", "metrics", "Revenue", "revenue", "column-name casing"}};
  StepRecord plot{"plot_line_1", "plot_line", {"analysis:trend", "outputs:chart"}, StepStatus::kOk, {}, {}, {}};
  plot.output.chart = kLineChart;
  StepRecord save{"save_table_1", "save_table", {"outputs:table"}, StepStatus::kOk, {}, {}, {}};
  save.output.table = revenue_table();
  save.output.files = {dir / "revenue.csv"};
  run.steps = {aggregate, plot, save};
  return run;
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

class RunArtifactsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("planfirst_run_artifacts_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<fs::path> write_with(const SvgRenderer& renderer, const fs::path& dir) {
    const RunArtifacts writer(renderer, assets_);
    core::Result<std::vector<fs::path>> written = writer.write(dir, sample_run(dir));
    EXPECT_TRUE(written.has_value()) << written.error().describe();
    return written ? *written : std::vector<fs::path>{};
  }

  static SvgRenderer installed_renderer() {
    return SvgRenderer(SvgRendererOptions::installed_in(PLANFIRST_SOURCE_DIR));
  }
  static SvgRenderer missing_renderer() {
    SvgRendererOptions options;
    options.script = "/nonexistent/vega-lite/bin/vl2svg";
    return SvgRenderer(options);
  }

  core::AssetStore assets_;
  fs::path dir_;
};

TEST_F(RunArtifactsTest, WritesEveryFileAndReturnsTheirPaths) {
  const SvgRenderer renderer = installed_renderer();

  const std::vector<fs::path> written = write_with(renderer, dir_);

  std::vector<std::string> names;
  for (const fs::path& path : written) names.push_back(path.filename().string());
  if (renderer.available()) {
    EXPECT_THAT(names, ElementsAre("aggregate_1.csv", "aggregate_1.md", "plot_line_1.vl.json", "plot_line_1.svg",
                                   "plan.json", "report.md", "report.html"));
  } else {
    EXPECT_THAT(names, ElementsAre("aggregate_1.csv", "aggregate_1.md", "plot_line_1.vl.json", "plan.json",
                                   "report.md", "report.html"));
  }
  for (const fs::path& path : written) EXPECT_TRUE(fs::is_regular_file(path)) << path;
  EXPECT_EQ(read(dir_ / "aggregate_1.csv"), "region,revenue\nNorth,25\n\"South, East\",10.5\n");
  EXPECT_EQ(nlohmann::json::parse(read(dir_ / "plot_line_1.vl.json")), nlohmann::json::parse(kLineChart));
  EXPECT_FALSE(fs::exists(dir_ / "save_table_1.csv"));  // the step wrote its own file
}

TEST_F(RunArtifactsTest, PlanJsonRoundTripsTheRequirementsAndKeepsRepairsWithTheirStep) {
  const std::string text = (write_with(missing_renderer(), dir_), read(dir_ / "plan.json"));

  const nlohmann::json plan = nlohmann::json::parse(text);
  const RunRecord expected = sample_run(dir_);
  EXPECT_EQ(*Requirements::from_json(plan.at("requirements")), expected.requirements);
  EXPECT_EQ(*Plan::from_json(plan.at("plan")), expected.plan);
  EXPECT_EQ(plan.at("considered_tools").size(), 2u);
  EXPECT_EQ(plan.at("coverage").at("complete"), true);
  EXPECT_EQ(plan.at("repairs"), nlohmann::json::parse(R"([{"step_id": "aggregate_1", "tool": "aggregate",
      "param": "metrics", "before": "Revenue", "after": "revenue", "reason": "column-name casing"}])"));
  EXPECT_EQ(plan.at("steps").at(0).at("table"),
            nlohmann::json::parse(R"({"columns": [{"name": "region", "type": "text"},
                {"name": "revenue", "type": "double"}], "rows": 2, "truncated": false})"));
  EXPECT_EQ(plan.at("steps").at(2).at("files"), nlohmann::json::array({"revenue.csv"}));
  EXPECT_THAT(text, Not(HasSubstr("South, East")));  // no table rows
}

TEST_F(RunArtifactsTest, PlanJsonIsByteIdenticalAcrossRuns) {
  write_with(missing_renderer(), dir_ / "a");
  write_with(missing_renderer(), dir_ / "b");

  EXPECT_EQ(read(dir_ / "a" / "plan.json"), read(dir_ / "b" / "plan.json"));
  EXPECT_EQ(read(dir_ / "a" / "report.md"), read(dir_ / "b" / "report.md"));
}

TEST_F(RunArtifactsTest, ReportMarkdownNamesEveryStepTheCoverageVerdictAndTheRepairs) {
  write_with(installed_renderer(), dir_);

  const std::string report = read(dir_ / "report.md");

  for (const char* step : {"aggregate_1: aggregate", "plot_line_1: plot_line", "save_table_1: save_table"}) {
    EXPECT_THAT(report, HasSubstr(step));
  }
  EXPECT_THAT(report, HasSubstr("Satisfies: analysis:trend, outputs:chart"));
  EXPECT_THAT(report, HasSubstr("Coverage: complete"));
  EXPECT_THAT(report, HasSubstr("group_by=region -> aggregate_1 (OK)"));
  EXPECT_THAT(report, HasSubstr("- aggregate (score 0.9; capability)"));
  EXPECT_THAT(report, HasSubstr("- time: month (grain month)"));
  EXPECT_THAT(report, HasSubstr("| North | 25 |"));
  EXPECT_THAT(report, HasSubstr("metrics: `Revenue` -> `revenue` (column-name casing)"));
  EXPECT_THAT(report, HasSubstr("&lt;script>"));
  EXPECT_THAT(report, Not(HasSubstr("<script>")));
}

TEST_F(RunArtifactsTest, ReportHtmlIsSelfContainedAndEscapesTheQuestion) {
  const SvgRenderer renderer = installed_renderer();
  write_with(renderer, dir_);

  const std::string html = read(dir_ / "report.html");

  EXPECT_THAT(html, HasSubstr("revenue by region &lt;script&gt;alert(1)&lt;/script&gt;"));
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, HasSubstr("<td>South, East</td>"));
  EXPECT_THAT(html, HasSubstr("Files: revenue.csv"));
  EXPECT_THAT(html, HasSubstr("<li>metrics: `Revenue` -&gt; `revenue` (column-name casing)</li>"));
  EXPECT_THAT(html, HasSubstr("<p class=\"verdict complete\">Coverage: complete</p>"));
  EXPECT_THAT(html, HasSubstr("<style>"));
  EXPECT_THAT(without_namespaces(html), Not(HasSubstr("http")));
  if (renderer.available()) {
    EXPECT_THAT(html, HasSubstr("<svg"));
  } else {
    EXPECT_THAT(html, HasSubstr("SVG skipped: "));
  }
}

TEST_F(RunArtifactsTest, AnUnavailableRendererLeavesANoticeInsteadOfFailing) {
  const SvgRenderer renderer = missing_renderer();

  write_with(renderer, dir_);

  EXPECT_FALSE(renderer.available());
  EXPECT_FALSE(fs::exists(dir_ / "plot_line_1.svg"));
  const std::string notice =
      "SVG skipped: vl2svg not found at /nonexistent/vega-lite/bin/vl2svg (scripts/bootstrap installs it)";
  EXPECT_THAT(read(dir_ / "report.md"), HasSubstr(notice));
  EXPECT_THAT(read(dir_ / "report.html"), HasSubstr(notice));
  EXPECT_EQ(nlohmann::json::parse(read(dir_ / "plan.json")).at("notices"),
            nlohmann::json::array({"plot_line_1: " + notice}));
}

TEST_F(RunArtifactsTest, AFileThatCannotBeWrittenIsNamed) {
  fs::create_directories(dir_ / "plan.json");  // a folder where the file goes
  const SvgRenderer renderer = missing_renderer();
  const RunArtifacts writer(renderer, assets_);

  core::Result<std::vector<fs::path>> written = writer.write(dir_, sample_run(dir_));

  ASSERT_FALSE(written.has_value());
  EXPECT_EQ(written.error().where, (dir_ / "plan.json").string());
}

TEST_F(RunArtifactsTest, ConsideredToolsThatAreNotAJsonArrayAreRefused) {
  RunRecord run = sample_run(dir_);
  run.considered_tools = R"({"tool": "aggregate"})";
  const SvgRenderer renderer = missing_renderer();

  core::Result<std::vector<fs::path>> written = RunArtifacts(renderer, assets_).write(dir_, run);

  ASSERT_FALSE(written.has_value());
  EXPECT_EQ(written.error().where, "considered_tools");
}

class SvgRendererTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Exercise the bootstrap's install; it never fails for want of node.
    ASSERT_EQ(std::system(("\"" + std::string(PLANFIRST_SOURCE_DIR) + "/scripts/bootstrap\" >/dev/null 2>&1").c_str()), 0);
  }
};

TEST_F(SvgRendererTest, RendersALineChartWithOneLinePerRegion) {
  const SvgRenderer renderer(SvgRendererOptions::installed_in(PLANFIRST_SOURCE_DIR));
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

TEST_F(SvgRendererTest, NamesVl2svgsErrorForAnInvalidSpec) {
  const SvgRenderer renderer(SvgRendererOptions::installed_in(PLANFIRST_SOURCE_DIR));
  if (!renderer.available()) GTEST_SKIP() << "vl2svg unavailable: " << renderer.unavailable_reason();

  core::Result<std::string> svg = renderer.render("{not json");

  ASSERT_FALSE(svg.has_value());
  EXPECT_EQ(svg.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_THAT(svg.error().message, HasSubstr("vl2svg failed: "));
  EXPECT_THAT(svg.error().message, HasSubstr("JSON"));
}

TEST(SvgRenderer, KillsARenderPastItsTimeout) {
  const fs::path script = fs::temp_directory_path() / ("planfirst_sleeper_" + std::to_string(::getpid()) + ".js");
  std::ofstream(script) << "setTimeout(() => {}, 60000);\n";
  SvgRendererOptions options;
  options.script = script;
  options.timeout = std::chrono::milliseconds(300);
  const SvgRenderer renderer(options);
  if (!renderer.available()) GTEST_SKIP() << "node unavailable: " << renderer.unavailable_reason();

  core::Result<std::string> svg = renderer.render("{}");

  fs::remove(script);
  ASSERT_FALSE(svg.has_value());
  EXPECT_EQ(svg.error().code, core::ErrorCode::kUnavailable);
  EXPECT_THAT(svg.error().message, HasSubstr("killed"));
}

TEST(SvgRenderer, IsUnavailableWhenNodeIsMissing) {
  SvgRendererOptions options = SvgRendererOptions::installed_in(PLANFIRST_SOURCE_DIR);
  options.node = "/nonexistent/node";

  const SvgRenderer renderer(options);

  EXPECT_FALSE(renderer.available());
  EXPECT_EQ(renderer.unavailable_reason(), "node not found at /nonexistent/node");
  EXPECT_EQ(renderer.render("{}").error().code, core::ErrorCode::kFailedPrecondition);
}

}  // namespace
}  // namespace planfirst::autoviz
