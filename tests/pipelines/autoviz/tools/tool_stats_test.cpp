#include <gmock/gmock.h>

#include "pipelines/autoviz/tool_fixture.hpp"

namespace planfirst::autoviz {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST_F(ToolTest, ComputeSummaryStatsDescribesEachNumericColumn) {
  load(kSalesCsv);

  core::Result<ToolOutput> output = run("compute_summary_stats", core::Json::object());

  ASSERT_TRUE(output.has_value()) << output.error().describe();
  EXPECT_THAT(header_of(*output->table),
              ElementsAre("column", "count", "mean", "std", "min", "max", "median", "sum"));
  EXPECT_THAT(rows_of(*output->table), ElementsAre("units|4|2.75|1.707825127659933|1|5|2.5|11",
                                                   "revenue|5|30.1|15.654072952429985|10.5|50|30|150.5"));
}

TEST_F(ToolTest, ComputeSummaryStatsPerGroupWithChosenStats) {
  load(kSalesCsv);

  EXPECT_THAT(rows("compute_summary_stats",
                   {{"columns", {"revenue"}}, {"group_by", {"region"}}, {"stats", {"count", "sum"}}}),
              ElementsAre("North|revenue|3|90.5", "South|revenue|2|60"));
}

TEST_F(ToolTest, ComputeSummaryStatsRefusesAnUnknownStat) {
  load(kSalesCsv);

  core::Result<ToolOutput> output = run("compute_summary_stats", {{"stats", {"mode"}}});

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().where, "compute_summary_stats.stats");
}

TEST_F(ToolTest, ComputeValueCountsPutsTheMostFrequentFirst) {
  load(kSalesCsv);

  EXPECT_THAT(rows("compute_value_counts", {{"column", "region"}, {"normalize", true}}),
              ElementsAre("North|3|0.6", "South|2|0.4"));
  load(kSalesCsv, "again");
  EXPECT_THAT(rows("compute_value_counts", {{"column", "product"}, {"limit", 1}}), ElementsAre("A|3"));
}

TEST_F(ToolTest, ComputeValueCountsNamesAnUnknownColumn) {
  load(kSalesCsv);

  core::Result<ToolOutput> output = run("compute_value_counts", {{"column", "city"}});

  ASSERT_FALSE(output.has_value());
  EXPECT_THAT(output.error().message, HasSubstr("unknown column 'city'"));
}

TEST_F(ToolTest, ComputePercentilesInterpolates) {
  load(kSalesCsv);

  EXPECT_THAT(rows("compute_percentiles", {{"column", "revenue"}, {"percentiles", {0, 25, 50, 100}}}),
              ElementsAre("0|10.5", "25|20", "50|30", "100|50"));
}

TEST_F(ToolTest, ComputePercentilesRefusesAPercentileAbove100) {
  load(kSalesCsv);

  core::Result<ToolOutput> output =
      run("compute_percentiles", {{"column", "revenue"}, {"percentiles", {150}}});

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().where, "compute_percentiles.percentiles");
}

TEST_F(ToolTest, ComputeCorrelationsGivesTheFullMatrix) {
  load("a,b,c\n1,2,9\n2,4,7\n3,6,8\n4,8,1\n");

  EXPECT_THAT(rows("compute_correlations", {{"columns", {"a", "b"}}}),
              ElementsAre("a|a|1", "a|b|1", "b|a|1", "b|b|1"));
}

TEST_F(ToolTest, ComputeCorrelationsBySpearmanRanks) {
  load("a,c\n1,9\n2,7\n3,8\n4,1\n");

  EXPECT_THAT(rows("compute_correlations", {{"method", "spearman"}}),
              ElementsAre("a|a|1", "a|c|-0.8", "c|a|-0.8", "c|c|1"));
}

TEST_F(ToolTest, ComputeCorrelationsBothGivesEachPairOnceWithItsN) {
  // c is missing on one row: that pair's coefficients and n use the three rows holding both
  load("a,b,c\n1,2,9\n2,4,7\n3,6,8\n4,9,\n");

  EXPECT_THAT(rows("compute_correlations", {{"method", "both"}}),
              ElementsAre("a|b|0.9943767127|1|4", "a|c|-0.5|-0.5|3", "b|c|-0.5|-0.5|3"));
}

TEST_F(ToolTest, ComputeCorrelationsNeedsTwoColumns) {
  load(kSalesCsv);

  core::Result<ToolOutput> output = run("compute_correlations", {{"columns", {"revenue"}}});

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().where, "compute_correlations.columns");
}

TEST_F(ToolTest, ComputeDistributionsListsEveryBin) {
  load("v\n0\n1\n2\n9\n10\n");

  EXPECT_THAT(rows("compute_distributions", {{"bins", 5}}),
              ElementsAre("v|0|2|2", "v|2|4|1", "v|4|6|0", "v|6|8|0", "v|8|10|2"));
}

TEST_F(ToolTest, ComputeDistributionsRefusesZeroBins) {
  load(kSalesCsv);

  core::Result<ToolOutput> output = run("compute_distributions", {{"bins", 0}});

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().where, "compute_distributions.bins");
}

}  // namespace
}  // namespace planfirst::autoviz
