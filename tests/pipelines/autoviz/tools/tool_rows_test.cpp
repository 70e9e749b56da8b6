#include <gmock/gmock.h>

#include "pipelines/autoviz/tool_fixture.hpp"

namespace planfirst::autoviz {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST_F(ToolTest, SortLimitKeepsTheTopKWithTiesInInputOrder) {
  load("name,score\na,2\nb,3\nc,\nd,3\ne,1\n");

  EXPECT_THAT(rows("sort_limit", {{"by", "score"}, {"limit", 3}}), ElementsAre("b|3", "d|3", "a|2"));
  load("name,score\na,2\nb,3\nc,\nd,3\ne,1\n", "again");
  EXPECT_THAT(rows("sort_limit", {{"by", "score"}, {"direction", "asc"}}),
              ElementsAre("e|1", "a|2", "b|3", "d|3", "c|NULL"));
}

TEST_F(ToolTest, SortLimitRefusesAZeroLimit) {
  load(kSalesCsv);

  core::Result<ToolOutput> output = run("sort_limit", {{"by", "revenue"}, {"limit", 0}});

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().where, "sort_limit.limit");
}

TEST_F(ToolTest, DetectAnomaliesByZScore) {
  load("v\n10\n10\n10\n10\n50\n");

  EXPECT_THAT(rows("detect_anomalies", {{"column", "v"}, {"threshold", 1.5}}),
              ElementsAre("10|-0.4472135954999579|false", "10|-0.4472135954999579|false",
                          "10|-0.4472135954999579|false", "10|-0.4472135954999579|false",
                          "50|1.7888543819998317|true"));
}

TEST_F(ToolTest, DetectAnomaliesByInterquartileRangeAlongTime) {
  load("day,v\n2024-01-04,100\n2024-01-01,1\n2024-01-03,3\n2024-01-02,2\n2024-01-05,4\n");

  EXPECT_THAT(rows("detect_anomalies", {{"column", "v"}, {"method", "iqr"}, {"date_column", "day"}}),
              ElementsAre("2024-01-01|1|-1|7|false", "2024-01-02|2|-1|7|false", "2024-01-03|3|-1|7|false",
                          "2024-01-04|100|-1|7|true", "2024-01-05|4|-1|7|false"));
}

TEST_F(ToolTest, DetectAnomaliesRefusesANegativeThreshold) {
  load(kSalesCsv);

  core::Result<ToolOutput> output = run("detect_anomalies", {{"column", "revenue"}, {"threshold", -1}});

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().where, "detect_anomalies.threshold");
}

TEST_F(ToolTest, SaveTableWritesCsvAndMarkdown) {
  load("name,amount\n\"Smith, J\",1.5\nA|B,\n");

  core::Result<ToolOutput> output = run("save_table", {{"name", "../top items"}});

  ASSERT_TRUE(output.has_value()) << output.error().describe();
  ASSERT_EQ(output->files.size(), 2u);
  EXPECT_EQ(output->files[0], dir_ / "out" / "___top_items.csv");
  std::ifstream csv(output->files[0]);
  std::ifstream md(output->files[1]);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(csv), {}), "name,amount\n\"Smith, J\",1.5\nA|B,\n");
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(md), {}),
            "| name | amount |\n| --- | ---: |\n| Smith, J | 1.5 |\n| A\\|B |  |\n");
}

TEST_F(ToolTest, SaveTableFilesEveryRowAndKeepsAPreviewWithTheirCount) {
  std::string csv = "item,amount\n";
  for (int i = 0; i < 7; ++i) csv += "i" + std::to_string(i) + "," + std::to_string(i) + "\n";
  load(csv);
  ctx_->preview_rows = 3;

  core::Result<ToolOutput> output = run("save_table", {{"name", "items"}});

  ASSERT_TRUE(output.has_value()) << output.error().describe();
  EXPECT_EQ(rows_of(*output->table), (std::vector<std::string>{"i0|0", "i1|1", "i2|2"}));
  EXPECT_TRUE(output->truncated);
  EXPECT_EQ(output->row_count, std::optional<std::size_t>(7));
  std::ifstream file(output->files[0]);
  std::string text(std::istreambuf_iterator<char>(file), {});
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 8) << text;
}

TEST_F(ToolTest, SaveTableNamesAnUnknownColumn) {
  load(kSalesCsv);

  core::Result<ToolOutput> output = run("save_table", {{"columns", {"profit"}}});

  ASSERT_FALSE(output.has_value());
  EXPECT_THAT(output.error().message, HasSubstr("unknown column 'profit'"));
}

}  // namespace
}  // namespace planfirst::autoviz
