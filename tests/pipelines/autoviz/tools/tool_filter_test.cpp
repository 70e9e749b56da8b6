#include <gmock/gmock.h>

#include "pipelines/autoviz/tool_fixture.hpp"

namespace planfirst::autoviz {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST_F(ToolTest, FilterRowsBoundsDatesSpelledAsTextByTheirDay) {
  load("name,born\nAnn,\"May 26, 1986\"\nBo,\"August 16, 1982\"\nCy,\"January 22, 1987\"\n");

  EXPECT_THAT(rows("filter_rows", {{"column", "born"}, {"op", ">="}, {"value", "1986-01-01"}}),
              ElementsAre("Ann|May 26, 1986", "Cy|January 22, 1987"));
  EXPECT_THAT(rows("filter_rows", {{"column", "born"}, {"op", "="}, {"value", "May 26, 1986"}}),
              ElementsAre("Ann|May 26, 1986"))
      << "an equal value is compared as the text it is";
}

TEST_F(ToolTest, FilterRowsComparesWithABoundValue) {
  load(kSalesCsv);

  EXPECT_THAT(
      rows("filter_rows", {{"column", "revenue"}, {"op", ">="}, {"value", 30}}),
      ElementsAre("2024-02-03|North|B|3|30", "2024-02-17|South|A|NULL|40", "2024-03-09|North|A|5|50"));
}

TEST_F(ToolTest, FilterRowsKeepsAListOfValues) {
  load(kSalesCsv);

  EXPECT_THAT(rows("filter_rows", {{"column", "product"}, {"op", "in"}, {"value", {"B"}}}),
              ElementsAre("2024-01-20|South|B|2|20", "2024-02-03|North|B|3|30"));
}

TEST_F(ToolTest, FilterRowsExcludesAListAndComparesBelow) {
  load(kSalesCsv);

  EXPECT_THAT(rows("filter_rows", {{"column", "region"}, {"op", "not_in"}, {"value", {"North", "West"}}}),
              ElementsAre("2024-01-20|South|B|2|20", "2024-02-17|South|A|NULL|40"));
  EXPECT_THAT(rows("filter_rows", {{"column", "revenue"}, {"op", "<"}, {"value", 40}}),
              ElementsAre("2024-01-20|South|B|2|20"));
}

TEST_F(ToolTest, FilterRowsTakesADateRange) {
  load(kSalesCsv);

  EXPECT_THAT(
      rows("filter_rows", {{"column", "date"}, {"op", "between"}, {"value", {"2024-01-10", "2024-02-10"}}}),
      ElementsAre("2024-01-20|South|B|2|20", "2024-02-03|North|B|3|30"));
}

TEST_F(ToolTest, FilterRowsKeepsWhatLiesOutsideARange) {
  load(kSalesCsv);

  EXPECT_THAT(rows("filter_rows", {{"column", "revenue"}, {"op", "not_between"}, {"value", {20, 40}}}),
              ElementsAre("2024-01-05|North|A|1|10.5", "2024-03-09|North|A|5|50"));
}

TEST_F(ToolTest, FilterRowsMatchesTextAndNulls) {
  load(kSalesCsv);

  EXPECT_THAT(rows("filter_rows", {{"column", "region"}, {"op", "contains"}, {"value", "out"}}),
              ElementsAre("2024-01-20|South|B|2|20", "2024-02-17|South|A|NULL|40"));
  EXPECT_THAT(rows("filter_rows", {{"column", "units"}, {"op", "="}, {"value", nullptr}}),
              ElementsAre("2024-02-17|South|A|NULL|40"));
}

TEST_F(ToolTest, FilterRowsDropsTheRowsThatContainAText) {
  load(kSalesCsv);

  EXPECT_THAT(rows("filter_rows", {{"column", "region"}, {"op", "not_contains"}, {"value", "out"}}),
              ElementsAre("2024-01-05|North|A|1|10.5", "2024-02-03|North|B|3|30", "2024-03-09|North|A|5|50"));
}

TEST_F(ToolTest, FilterRowsContainsAnyOfAListWhateverTheCase) {
  load(kSalesCsv);

  EXPECT_THAT(rows("filter_rows", {{"column", "region"}, {"op", "contains"}, {"value", {"OUT", "x"}}}),
              ElementsAre("2024-01-20|South|B|2|20", "2024-02-17|South|A|NULL|40"));
  EXPECT_THAT(rows("filter_rows", {{"column", "region"}, {"op", "not_contains"}, {"value", {"N", "q"}}}),
              ElementsAre("2024-01-20|South|B|2|20", "2024-02-17|South|A|NULL|40"));
}

TEST_F(ToolTest, FilterRowsTreatsAQuoteInAValueAsData) {
  load(kSalesCsv);

  core::Result<ToolOutput> output =
      run("filter_rows", {{"column", "region"}, {"op", "="}, {"value", "x' OR 1=1 --"}});

  ASSERT_FALSE(output.has_value());
  EXPECT_THAT(output.error().message, HasSubstr("the result would be empty"));
  EXPECT_EQ(ctx_->relation, "sales");
}

TEST_F(ToolTest, AnEmptyFilterNamesItsValueAndTheColumnsRange) {
  load(kSalesCsv);

  core::Result<ToolOutput> dates =
      run("filter_rows", {{"column", "date"}, {"op", ">="}, {"value", "2031-01-01"}});
  core::Result<ToolOutput> numbers =
      run("filter_rows", {{"column", "revenue"}, {"op", ">"}, {"value", 1000}});
  core::Result<ToolOutput> text =
      run("filter_rows", {{"column", "region"}, {"op", "in"}, {"value", {"East", "West"}}});

  ASSERT_FALSE(dates.has_value());
  EXPECT_THAT(dates.error().message,
              HasSubstr("no row has date >= 2031-01-01 (date runs from 2024-01-05 to 2024-03-09)"));
  ASSERT_FALSE(numbers.has_value());
  EXPECT_THAT(numbers.error().message, HasSubstr("no row has revenue > 1000 (revenue runs from 10.5 to 50"));
  ASSERT_FALSE(text.has_value());
  EXPECT_THAT(text.error().message, HasSubstr("no row has region in East, West; the result would be empty"));
}

TEST_F(ToolTest, FilterRowsRepairsColumnCasingAndLogsIt) {
  load(kSalesCsv);

  EXPECT_EQ(rows("filter_rows", {{"column", "Region"}, {"op", "!="}, {"value", "North"}}).size(), 2u);
  ASSERT_EQ(ctx_->repairs.size(), 1u);
  EXPECT_EQ(ctx_->repairs[0].before, "Region");
  EXPECT_EQ(ctx_->repairs[0].after, "region");
  EXPECT_EQ(ctx_->repairs[0].param, "column");
}

TEST_F(ToolTest, FilterRowsListsTheColumnsForAnUnknownOne) {
  load(kSalesCsv);

  core::Result<ToolOutput> output = run("filter_rows", {{"column", "country"}, {"op", "="}, {"value", "FR"}});

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(
      output.error().message,
      "filter_rows: param 'column': unknown column 'country'; the table has: date, region, product, units, "
      "revenue");
}

}  // namespace
}  // namespace planfirst::autoviz
