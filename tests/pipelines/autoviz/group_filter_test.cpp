#include "pipelines/autoviz/group_filter.hpp"

#include <gtest/gtest.h>

namespace planfirst::autoviz {
namespace {

TEST(GroupFilter, ReadsTheAggregateAFilterColumnSpells) {
  EXPECT_EQ(group_filter_column("count(*)"), (GroupFilterColumn{"count", "*"}));
  EXPECT_EQ(group_filter_column("avg(price)"), (GroupFilterColumn{"avg", "price"}));
  EXPECT_EQ(group_filter_column("sum(Total Sales)"), (GroupFilterColumn{"sum", "Total Sales"}));
}

TEST(GroupFilter, APlainColumnOrAMalformedSpellingIsNoAggregate) {
  for (const char* column : {"price", "count", "(price)", "avg()", "avg(price", "Avg(price)", "sum(*)", "avg price)"}) {
    EXPECT_EQ(group_filter_column(column), std::nullopt) << column;
  }
}

TEST(GroupFilter, SpellsAndNamesTheColumnTheAggregateWrites) {
  const GroupFilterColumn rows{"count", "*"};
  const GroupFilterColumn average{"avg", "price"};

  EXPECT_EQ(group_filter_spelling(rows), "count(*)");
  EXPECT_EQ(group_filter_spelling(average), "avg(price)");
  EXPECT_EQ(group_filter_output(rows), "count");
  EXPECT_EQ(group_filter_output(average), "price");
  EXPECT_EQ(group_filter_column(group_filter_spelling(average)), average);
}

}  // namespace
}  // namespace planfirst::autoviz
