#include <gmock/gmock.h>

#include "pipelines/autoviz/tool_fixture.hpp"

namespace planfirst::autoviz {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST_F(ToolTest, ParseDatetimeTurnsTextIntoDates) {
  load("day,n\n2024-03-01,1\n2024-03-02,2\n");
  ASSERT_TRUE(run("cast_types", {{"columns", {"day"}}, {"to_type", "string"}}).has_value());

  core::Result<ToolOutput> output = run("parse_datetime", {{"column", "day"}});

  ASSERT_TRUE(output.has_value()) << output.error().describe();
  EXPECT_EQ(output->table->column(0).type, data::ColumnType::kDate);
  EXPECT_THAT(rows_of(*output->table), ElementsAre("2024-03-01|1", "2024-03-02|2"));
}

TEST_F(ToolTest, ParseDatetimeReadsTheSpellingsTheProfileCallsDates) {
  load("day,n\n\"March 1, 1963\",1\n\"Aug 16, 1963\",2\n03/05/1964,3\n7 June 1965,4\n");

  EXPECT_THAT(rows("parse_datetime", {{"column", "day"}}),
              ElementsAre("1963-03-01|1", "1963-08-16|2", "1964-03-05|3", "1965-06-07|4"));
}

TEST_F(ToolTest, ParseDatetimeReadsAnExplicitFormat) {
  load("day,n\n01/03/2024 10:30,1\n02/03/2024 00:00,2\n");

  EXPECT_THAT(rows("parse_datetime", {{"column", "day"}, {"format", "%d/%m/%Y %H:%M"}}),
              ElementsAre("2024-03-01 10:30:00|1", "2024-03-02 00:00:00|2"));
}

TEST_F(ToolTest, ParseDatetimeReadsBareYearsAsTheirFirstDay) {
  load("open_date,n\n1831,1\n1844,2\n");

  core::Result<ToolOutput> output = run("parse_datetime", {{"column", "open_date"}});

  ASSERT_TRUE(output.has_value()) << output.error().describe();
  EXPECT_EQ(output->table->column(0).type, data::ColumnType::kDate);
  EXPECT_THAT(rows_of(*output->table), ElementsAre("1831-01-01|1", "1844-01-01|2"));
}

TEST_F(ToolTest, ParseDatetimeNamesAnIntegerThatIsNoYear) {
  load("day,n\n1831,1\n42,2\n");

  core::Result<ToolOutput> output = run("parse_datetime", {{"column", "day"}});

  ASSERT_FALSE(output.has_value());
  EXPECT_THAT(output.error().message,
              HasSubstr("1 value(s) of 'day' are not dates or timestamps, e.g. '42'"));
}

TEST_F(ToolTest, ParseDatetimeNamesAValueThatIsNoDate) {
  load("day,n\n2024-03-01,1\nsoon,2\n");

  core::Result<ToolOutput> output = run("parse_datetime", {{"column", "day"}});

  ASSERT_FALSE(output.has_value());
  EXPECT_THAT(output.error().message,
              HasSubstr("1 value(s) of 'day' are not dates or timestamps, e.g. 'soon'"));
}

TEST_F(ToolTest, ParseDatetimeLeavesADateColumnAsItIsWithoutCopyingTheTable) {
  load(kSalesCsv);  // "date" loads as DATE
  const std::string loaded = ctx_->relation;
  const int relations = ctx_->steps;

  core::Result<ToolOutput> output = run("parse_datetime", {{"column", "date"}});

  ASSERT_TRUE(output.has_value()) << output.error().describe();
  EXPECT_EQ(output->relation, loaded);
  EXPECT_EQ(ctx_->relation, loaded);
  EXPECT_EQ(ctx_->steps, relations);
  EXPECT_EQ(rows_of(*output->table)[0], "2024-01-05|North|A|1|10.5");
}

TEST_F(ToolTest, CastTypesCastsEveryNamedColumn) {
  load(kSalesCsv);

  core::Result<ToolOutput> output =
      run("cast_types", {{"columns", {"units", "revenue"}}, {"to_type", "string"}});

  ASSERT_TRUE(output.has_value()) << output.error().describe();
  EXPECT_EQ(output->table->column(3).type, data::ColumnType::kText);
  EXPECT_EQ(output->table->column(4).type, data::ColumnType::kText);
  EXPECT_EQ(rows_of(*output->table)[0], "2024-01-05|North|A|1|10.5");
}

TEST_F(ToolTest, CastTypesRefusesAnUnknownType) {
  load(kSalesCsv);

  core::Result<ToolOutput> output = run("cast_types", {{"columns", {"units"}}, {"to_type", "money"}});

  ASSERT_FALSE(output.has_value());
  EXPECT_EQ(output.error().where, "cast_types.to_type");
}

TEST_F(ToolTest, HandleMissingDropsRowsWithAGap) {
  load(kSalesCsv);

  EXPECT_THAT(rows("handle_missing", {{"strategy", "drop"}}),
              ElementsAre("2024-01-05|North|A|1|10.5", "2024-01-20|South|B|2|20", "2024-02-03|North|B|3|30",
                          "2024-03-09|North|A|5|50"));
}

TEST_F(ToolTest, HandleMissingFillsWithTheMedian) {
  load(kSalesCsv);

  std::vector<std::string> filled =
      rows("handle_missing", {{"columns", {"units"}}, {"strategy", "fill_median"}});

  ASSERT_EQ(filled.size(), 5u);
  EXPECT_EQ(filled[3], "2024-02-17|South|A|2.5|40");  // the median of 1, 2, 3 and 5
  EXPECT_EQ(filled[0], "2024-01-05|North|A|1|10.5");
}

TEST_F(ToolTest, HandleMissingFillsAGivenValueAndForward) {
  load(kSalesCsv);

  EXPECT_EQ(rows("handle_missing", {{"columns", {"units"}}, {"strategy", "fill_value"}, {"value", 0}})[3],
            "2024-02-17|South|A|0|40");
  load(kSalesCsv, "again");
  EXPECT_EQ(rows("handle_missing", {{"columns", {"units"}}, {"strategy", "forward_fill"}})[3],
            "2024-02-17|South|A|3|40");
}

TEST_F(ToolTest, HandleMissingFillsWithTheMostFrequentValue) {
  load("k,v\nx,1\n,2\ny,3\ny,4\nx,5\n");

  EXPECT_THAT(rows("handle_missing", {{"columns", {"k"}}, {"strategy", "fill_mode"}}),
              ElementsAre("x|1", "x|2", "y|3", "y|4", "x|5"));  // a tie: the smaller value wins
}

TEST_F(ToolTest, HandleMissingRefusesTheMeanOfText) {
  load(kSalesCsv);

  core::Result<ToolOutput> output =
      run("handle_missing", {{"columns", {"region"}}, {"strategy", "fill_mean"}});

  ASSERT_FALSE(output.has_value());
  EXPECT_THAT(output.error().message, HasSubstr("not numeric"));
}

}  // namespace
}  // namespace planfirst::autoviz
