#include <fmt/format.h>
#include <gmock/gmock.h>

#include <algorithm>
#include <map>

#include "pipelines/autoviz/tool_fixture.hpp"

namespace planfirst::autoviz {
namespace {

using ::testing::HasSubstr;

class PlotTest : public ToolTest {
 protected:
  // The spec a successful plot returns, parsed; a failed plot fails the test.
  core::Json spec(const std::string& tool, const core::Json& params) {
    core::Result<ToolOutput> output = run(tool, params);
    EXPECT_TRUE(output.has_value()) << output.error().describe();
    if (!output) return {};
    EXPECT_TRUE(output->relation.empty());
    return core::Json::parse(output->chart);
  }
};

TEST_F(PlotTest, PlotLineDrawsOneLinePerColorWithItsDataInline) {
  load("date,region,revenue\n2024-01-01,North,10\n2024-02-01,North,12.5\n");

  const core::Json chart = spec("plot_line", {{"x", "date"}, {"y", "revenue"}, {"color", "region"}});

  EXPECT_EQ(chart, core::Json::parse(R"({
    "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
    "data": {"values": [{"date": "2024-01-01", "revenue": 10.0, "region": "North"},
                        {"date": "2024-02-01", "revenue": 12.5, "region": "North"}]},
    "mark": {"type": "line", "point": true},
    "encoding": {"x": {"field": "date", "type": "temporal"},
                 "y": {"field": "revenue", "type": "quantitative"},
                 "color": {"field": "region", "type": "nominal"}}})"));
  EXPECT_EQ(ctx_->relation, "sales");
}

// Rows of `regions` daily series ("date,region,revenue"), the first `days[i]` days of January 2024.
std::string daily_series(const std::vector<std::pair<std::string, int>>& regions) {
  std::string csv = "date,region,revenue\n";
  for (const auto& [region, days] : regions) {
    for (int day = 1; day <= days; ++day) csv += fmt::format("2024-01-{:02},{},{}\n", day, region, day);
  }
  return csv;
}

TEST_F(PlotTest, PlotLineMarksPointsOnlyWhileEverySeriesHasAtMost24) {
  load(daily_series({{"North", 24}, {"South", 3}}), "short");
  const core::Json marked = spec("plot_line", {{"x", "date"}, {"y", "revenue"}, {"color", "region"}});
  load(daily_series({{"North", 3}, {"South", 25}}), "long");
  const core::Json split = spec("plot_line", {{"x", "date"}, {"y", "revenue"}, {"color", "region"}});
  const core::Json together = spec("plot_line", {{"x", "date"}, {"y", "revenue"}});

  EXPECT_EQ(marked["mark"], core::Json::parse(R"({"type": "line", "point": true})"));
  EXPECT_EQ(split["mark"], core::Json::parse(R"({"type": "line", "point": false})"));
  EXPECT_EQ(together["mark"]["point"], false);  // one series of 28 points
}

TEST_F(PlotTest, PlotLineCountsASeriesPerColorAndFacet) {
  std::string csv = "date,region,product,revenue\n";
  for (const char* region : {"North", "South"}) {
    for (const char* product : {"A", "B"}) {
      for (int day = 1; day <= 20; ++day)
        csv += fmt::format("2024-01-{:02},{},{},{}\n", day, region, product, day);
    }
  }
  load(csv);  // 4 series of 20 points; 40 per region, 40 per product

  const core::Json both =
      spec("plot_line", {{"x", "date"}, {"y", "revenue"}, {"color", "product"}, {"facet", "region"}});
  const core::Json facet = spec("plot_line", {{"x", "date"}, {"y", "revenue"}, {"facet", "region"}});

  EXPECT_EQ(both["mark"]["point"], true);
  EXPECT_EQ(facet["mark"]["point"], false);
}

// The execute node starts the SVG render with the tool's text and the report renders the state's
// chart as its compact dump: the two must be the same text, or the chart is drawn twice.
TEST_F(PlotTest, AChartsTextIsTheCompactDumpOfItsSpec) {
  load(
      "date,region,revenue\n2024-01-01,Zürich \"Nord\",0.1\n2024-02-01,Zürich \"Nord\",-0.0\n"
      "2024-03-01,Süd,1e300\n2024-04-01,Süd,123456789.125\n");

  for (const char* tool : {"plot_line", "plot_bar"}) {
    core::Result<ToolOutput> output = run(tool, {{"x", "date"}, {"y", "revenue"}, {"color", "region"}});
    ASSERT_TRUE(output.has_value()) << output.error().describe();
    EXPECT_EQ(core::Json::parse(output->chart).dump(), output->chart) << tool;
  }
}

TEST_F(PlotTest, PlotLineRefusesATextMetric) {
  load(kSalesCsv);

  core::Result<ToolOutput> output = run("plot_line", {{"x", "date"}, {"y", "region"}});

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().where, "plot_line.y");
}

TEST_F(PlotTest, PlotBarGroupsOrStacksByColor) {
  load(kSalesCsv);

  const core::Json grouped = spec("plot_bar", {{"x", "region"}, {"y", "revenue"}, {"color", "product"}});
  const core::Json stacked =
      spec("plot_bar", {{"x", "region"}, {"y", "revenue"}, {"color", "product"}, {"mode", "stacked"}});

  EXPECT_EQ(grouped["mark"]["type"], "bar");
  EXPECT_EQ(grouped["encoding"]["xOffset"]["field"], "product");
  EXPECT_EQ(grouped["encoding"]["x"]["sort"], nullptr);
  EXPECT_FALSE(stacked["encoding"].contains("xOffset"));
  EXPECT_EQ(stacked["encoding"]["y"]["stack"], "zero");
  EXPECT_EQ(stacked["data"]["values"].size(), 5u);
}

TEST_F(PlotTest, PlotBarDrawsOtherMetricsBesideYAsBarsOfTheirOwn) {
  load(kSalesCsv);

  const core::Json chart = spec("plot_bar", {{"x", "region"}, {"y", "revenue"}, {"also", {"units"}}});
  core::Result<ToolOutput> both =
      run("plot_bar", {{"x", "region"}, {"y", "revenue"}, {"also", {"units"}}, {"color", "product"}});

  EXPECT_EQ(chart["transform"],
            core::Json::parse(R"([{"fold": ["revenue", "units"], "as": ["metric", "value"]}])"));
  EXPECT_EQ(chart["encoding"]["y"],
            core::Json::parse(R"({"field": "value", "type": "quantitative", "title": "revenue, units"})"));
  EXPECT_EQ(chart["encoding"]["xOffset"]["field"], "metric");
  EXPECT_EQ(chart["data"]["values"][0],
            core::Json::parse(R"({"region": "North", "revenue": 10.5, "units": 1})"));
  ASSERT_FALSE(both.has_value());
  EXPECT_EQ(both.error().where, "plot_bar.also");
}

TEST_F(PlotTest, PlotBarRefusesAnUnknownMode) {
  load(kSalesCsv);

  core::Result<ToolOutput> output = run("plot_bar", {{"x", "region"}, {"y", "revenue"}, {"mode", "3d"}});

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().where, "plot_bar.mode");
}

TEST_F(PlotTest, PlotScatterEncodesSize) {
  load(kSalesCsv);

  const core::Json chart = spec("plot_scatter", {{"x", "units"}, {"y", "revenue"}, {"size", "units"}});

  EXPECT_EQ(chart["mark"]["type"], "point");
  EXPECT_EQ(chart["encoding"]["size"]["type"], "quantitative");
  EXPECT_EQ(chart["data"]["values"][0], core::Json::parse(R"({"units": 1, "revenue": 10.5})"));
}

TEST_F(PlotTest, PlotHistogramBinsItsColumn) {
  load(kSalesCsv);

  const core::Json chart = spec("plot_histogram", {{"column", "revenue"}, {"bins", 4}});

  EXPECT_EQ(chart["encoding"]["x"],
            core::Json::parse(R"({"field": "revenue", "type": "quantitative", "bin": {"maxbins": 4}})"));
  EXPECT_EQ(chart["encoding"]["y"]["aggregate"], "count");
}

TEST_F(PlotTest, PlotPieTotalsEachCategory) {
  load(kSalesCsv);

  const core::Json chart = spec("plot_pie", {{"category", "region"}, {"value", "revenue"}});

  EXPECT_EQ(chart["mark"]["type"], "arc");
  EXPECT_EQ(
      chart["data"]["values"],
      core::Json::parse(R"([{"region": "North", "revenue": 90.5}, {"region": "South", "revenue": 60.0}])"));
}

TEST_F(PlotTest, PlotBoxplotPerCategory) {
  load(kSalesCsv);

  const core::Json chart = spec("plot_boxplot", {{"column", "revenue"}, {"group_by", "region"}});

  EXPECT_EQ(chart["mark"]["type"], "boxplot");
  EXPECT_EQ(chart["encoding"]["x"]["field"], "region");
  EXPECT_EQ(chart["encoding"]["y"]["field"], "revenue");
}

TEST_F(PlotTest, PlotHeatmapOfACorrelationMatrixKeepsItsOrder) {
  load("b,a\n1,2\n2,5\n3,6\n");
  ASSERT_TRUE(run("compute_correlations", core::Json::object()).has_value());

  const core::Json chart =
      spec("plot_heatmap", {{"x", "column_x"}, {"y", "column_y"}, {"value", "correlation"}});

  EXPECT_EQ(chart["mark"]["type"], "rect");
  EXPECT_EQ(chart["encoding"]["x"]["sort"], nullptr);
  EXPECT_EQ(chart["data"]["values"][0]["column_x"], "b");
  EXPECT_EQ(chart["encoding"]["color"]["field"], "correlation");
}

TEST_F(PlotTest, PlotFieldNamesEscapeVegaLitePaths) {
  load("\"a.b\",v\nx,1\n");

  const core::Json chart = spec("plot_bar", {{"x", "a.b"}, {"y", "v"}});

  EXPECT_EQ(chart["encoding"]["x"]["field"], "a\\.b");
}

TEST_F(PlotTest, PlotHeatmapNeedsAValue) {
  load(kSalesCsv);

  core::Result<ToolOutput> output = run("plot_heatmap", {{"x", "region"}, {"y", "product"}});

  ASSERT_FALSE(output.has_value());
  EXPECT_THAT(output.error().message, HasSubstr("param 'value': required"));
}

// `rows` points (x, y, kind) where every seventh repeats the one before it.
struct Point {
  double x;
  double y;
  std::string kind;
};

std::vector<Point> many_points(int rows) {
  std::vector<Point> points;
  for (int i = 0; i < rows; ++i) {
    const int n = i % 7 == 6 ? i - 1 : i;
    points.push_back({n * 0.5, static_cast<double>((n * 37) % 1001), n % 3 == 0 ? "a" : "b"});
  }
  return points;
}

std::string csv_of(const std::vector<Point>& points) {
  std::string csv = "x,y,kind\n";
  for (const Point& p : points) csv += fmt::format("{},{},{}\n", p.x, p.y, p.kind);
  return csv;
}

std::string key(double x, double y, const std::string& kind) {
  return fmt::format("{}|{}|{}", x, y, kind);
}

// How often each point occurs, by key().
std::map<std::string, int> counts_of(const std::vector<Point>& points) {
  std::map<std::string, int> counts;
  for (const Point& p : points) ++counts[key(p.x, p.y, p.kind)];
  return counts;
}

std::map<std::string, int> counts_of(const core::Json& values) {
  std::map<std::string, int> counts;
  for (const core::Json& v : values) ++counts[key(v["x"].get<double>(), v["y"].get<double>(), v["kind"])];
  return counts;
}

const core::Json kScatter = {{"x", "x"}, {"y", "y"}, {"color", "kind"}};

TEST_F(PlotTest, AScatterPastTheMarkLimitDrawsASampleOfItsRowsAndSaysSo) {
  const std::vector<Point> points = many_points(static_cast<int>(kMaxChartMarks) + 1234);
  load(csv_of(points));

  core::Result<ToolOutput> output = run("plot_scatter", kScatter);

  ASSERT_TRUE(output.has_value()) << output.error().describe();
  ASSERT_TRUE(output->sampled.has_value());
  EXPECT_EQ(output->sampled->shown, kMaxChartMarks);
  EXPECT_EQ(output->sampled->of, points.size());
  const core::Json chart = core::Json::parse(output->chart);
  ASSERT_EQ(chart["data"]["values"].size(), kMaxChartMarks);
  EXPECT_EQ(chart["title"]["text"], fmt::format("Showing 5,000 of {},{:03} points, sampled",
                                                points.size() / 1000, points.size() % 1000));
  const std::map<std::string, int> all = counts_of(points);
  for (const auto& [point, count] : counts_of(chart["data"]["values"])) {
    ASSERT_TRUE(all.contains(point)) << point;
    EXPECT_LE(count, all.at(point)) << point;  // never more copies than the data holds
  }
}

TEST_F(PlotTest, ASampledChartIsTheSameWhateverOrderItsRowsCameIn) {
  std::vector<Point> points = many_points(static_cast<int>(kMaxChartMarks) * 2 + 17);
  load(csv_of(points), "forward");
  const std::string first = run("plot_scatter", kScatter)->chart;
  const std::string again = run("plot_scatter", kScatter)->chart;
  std::reverse(points.begin(), points.end());
  load(csv_of(points), "reversed");

  const std::string reversed = run("plot_scatter", kScatter)->chart;

  EXPECT_EQ(core::Json::parse(first)["data"]["values"].size(), kMaxChartMarks);
  EXPECT_EQ(first, again);
  EXPECT_EQ(first, reversed);
}

TEST_F(PlotTest, AChartAtTheMarkLimitDrawsEveryRowWithoutATitle) {
  const std::vector<Point> points = many_points(static_cast<int>(kMaxChartMarks));
  load(csv_of(points));

  core::Result<ToolOutput> output = run("plot_scatter", kScatter);

  ASSERT_TRUE(output.has_value()) << output.error().describe();
  EXPECT_FALSE(output->sampled.has_value());
  const core::Json chart = core::Json::parse(output->chart);
  EXPECT_EQ(counts_of(chart["data"]["values"]), counts_of(points));
  EXPECT_FALSE(chart.contains("title"));
}

TEST_F(PlotTest, ALinePastTheMarkLimitIsSampledAndDrawnInTheOrderOfItsX) {
  const std::vector<Point> points = many_points(static_cast<int>(kMaxChartMarks) + 1);
  load(csv_of(points));

  core::Result<ToolOutput> output = run("plot_line", {{"x", "x"}, {"y", "y"}});

  ASSERT_TRUE(output.has_value()) << output.error().describe();
  ASSERT_TRUE(output->sampled.has_value());
  EXPECT_EQ(output->sampled->of, points.size());
  const core::Json values = core::Json::parse(output->chart)["data"]["values"];
  ASSERT_EQ(values.size(), kMaxChartMarks);
  for (std::size_t i = 1; i < values.size(); ++i)
    ASSERT_LE(values[i - 1]["x"].get<double>(), values[i]["x"].get<double>()) << i;
}

}  // namespace
}  // namespace planfirst::autoviz
