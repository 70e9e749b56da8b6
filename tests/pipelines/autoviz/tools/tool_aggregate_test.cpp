#include <gmock/gmock.h>

#include "pipelines/autoviz/tool_fixture.hpp"

namespace planfirst::autoviz {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST_F(ToolTest, AggregateSumsPerGroupOrderedByTheKeys) {
  load(kSalesCsv);

  core::Result<ToolOutput> output =
      run("aggregate",
          {{"group_by", {"region", "product"}}, {"agg_func", "sum"}, {"metrics", {"revenue", "units"}}});

  ASSERT_TRUE(output.has_value()) << output.error().describe();
  EXPECT_THAT(header_of(*output->table), ElementsAre("region", "product", "revenue", "units"));
  EXPECT_THAT(rows_of(*output->table),
              ElementsAre("North|A|60.5|6", "North|B|30|3", "South|A|40|NULL", "South|B|20|2"));
  EXPECT_EQ(ctx_->relation, output->relation);
}

TEST_F(ToolTest, AggregateCountsMediansAndTotals) {
  load(kSalesCsv);

  EXPECT_THAT(rows("aggregate", {{"agg_func", "count_distinct"}, {"metrics", {"product"}}}),
              ElementsAre("2"));
  load(kSalesCsv, "b");
  EXPECT_THAT(rows("aggregate", {{"group_by", {"region"}}, {"agg_func", "median"}, {"metrics", {"revenue"}}}),
              ElementsAre("North|30", "South|30"));
  load(kSalesCsv, "c");
  EXPECT_THAT(rows("aggregate", {{"group_by", {"region"}}, {"agg_func", "count"}, {"metrics", {"units"}}}),
              ElementsAre("North|3", "South|1"));
}

TEST_F(ToolTest, AggregateTakesTheSampleStandardDeviation) {
  load(kSalesCsv);

  // North: 10.5, 30, 50; South: 20, 40 (the figures Python's statistics.stdev gives).
  EXPECT_THAT(rows("aggregate", {{"group_by", {"region"}}, {"agg_func", "stddev"}, {"metrics", {"revenue"}}}),
              ElementsAre("North|19.750527419118036", "South|14.142135623730951"));
  load(kSalesCsv, "b");
  EXPECT_THAT(rows("aggregate", {{"group_by", {"product"}}, {"agg_func", "stddev"}, {"metrics", {"units"}}}),
              ElementsAre("A|2.8284271247461903", "B|0.7071067811865476"))
      << "the empty units of a row count in no group";
  load(kSalesCsv, "c");
  EXPECT_THAT(rows("aggregate", {{"group_by", {"date"}}, {"agg_func", "stddev"}, {"metrics", {"revenue"}}}),
              ::testing::Each(::testing::EndsWith("|NULL")))
      << "one value per date: no deviation";
}

TEST_F(ToolTest, AStandardDeviationOfLargeCloseValuesKeepsItsDigits) {
  load("id,amount\n1,1000000000.01\n2,1000000000.02\n3,1000000000.03\n");

  EXPECT_THAT(rows("aggregate", {{"agg_func", "stddev"}, {"metrics", {"amount"}}}),
              ElementsAre(::testing::StartsWith("0.0099999")));
}

TEST_F(ToolTest, AggregateTakesTheExtremesOfText) {
  load(kSalesCsv);

  EXPECT_THAT(
      rows("aggregate", {{"group_by", {"product"}}, {"agg_func", "max"}, {"metrics", {"region", "revenue"}}}),
      ElementsAre("A|South|50", "B|South|30"));
  load(kSalesCsv, "again");
  EXPECT_THAT(rows("aggregate", {{"agg_func", "min"}, {"metrics", {"date"}}}), ElementsAre("2024-01-05"));
}

TEST_F(ToolTest, AggregateRefusesToSumText) {
  load(kSalesCsv);

  core::Result<ToolOutput> output = run("aggregate", {{"metrics", {"region"}}});

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().where, "aggregate.metrics");
  EXPECT_THAT(output.error().message, HasSubstr("column 'region' is VARCHAR, not numeric"));
}

TEST_F(ToolTest, SegmentMetricComparesEachSegmentWithTheWhole) {
  load(kSalesCsv);

  EXPECT_THAT(
      rows("segment_metric", {{"segment_by", {"product"}}, {"metric", "revenue"}, {"agg_func", "avg"}}),
      ElementsAre("A|33.5|30.1|3.3999999999999986", "B|25|30.1|-5.100000000000001"));
}

TEST_F(ToolTest, SegmentMetricNeedsASegment) {
  load(kSalesCsv);

  core::Result<ToolOutput> output =
      run("segment_metric", {{"segment_by", std::vector<std::string>{}}, {"metric", "revenue"}});

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().where, "segment_metric.segment_by");
}

TEST_F(ToolTest, ComputeShareGivesPercentOfTotal) {
  load("region,revenue\nNorth,30\nSouth,10\nNorth,10\nWest,50\n");

  EXPECT_THAT(rows("compute_share", {{"metric", "revenue"}, {"group_by", {"region"}}}),
              ElementsAre("North|40|40", "South|10|10", "West|50|50"));
}

TEST_F(ToolTest, ComputeShareNamesAnUnknownGroup) {
  load(kSalesCsv);

  core::Result<ToolOutput> output = run("compute_share", {{"metric", "revenue"}, {"group_by", {"country"}}});

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().where, "compute_share.group_by");
}

TEST_F(ToolTest, AggregateCountsRowsWithTheStarMetric) {
  load(kSalesCsv);

  core::Result<ToolOutput> output =
      run("aggregate", {{"group_by", {"region"}}, {"agg_func", "count"}, {"metrics", {"*"}}});

  ASSERT_TRUE(output.has_value()) << output.error().describe();
  EXPECT_THAT(header_of(*output->table), ElementsAre("region", "count"));
  EXPECT_THAT(rows_of(*output->table), ElementsAre("North|3", "South|2"));
  load(kSalesCsv, "b");
  EXPECT_FALSE(run("aggregate", {{"agg_func", "sum"}, {"metrics", {"*"}}}).has_value())
      << "only a count takes *";
}

TEST_F(ToolTest, SumsOfDoublesAreExactWhateverOrderThreadsAddThemIn) {
  // Two million cents, across row groups DuckDB sums on several threads: 2000 cycles of 0.00 .. 9.99.
  ASSERT_TRUE(
      db_->exec("CREATE TABLE ledger AS SELECT CAST(i % 2 AS VARCHAR) AS side, "
                "CAST(i % 1000 AS DOUBLE) / 100 AS amount FROM range(2000000) AS r(i)"));
  const auto over_ledger = [&](const char* func) {
    ctx_->relation = "ledger";
    return rows("aggregate", {{"group_by", {"side"}}, {"agg_func", func}, {"metrics", {"amount"}}});
  };

  const std::vector<std::string> first = over_ledger("sum");
  const std::vector<std::string> second = over_ledger("sum");
  const std::vector<std::string> mean = over_ledger("avg");

  EXPECT_THAT(first, ElementsAre("0|4990000", "1|5e+06"));
  EXPECT_EQ(first, second);
  EXPECT_THAT(mean, ElementsAre("0|4.99", "1|5"));
}

}  // namespace
}  // namespace planfirst::autoviz
