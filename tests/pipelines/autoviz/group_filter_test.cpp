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
  for (const char* column :
       {"price", "count", "(price)", "avg()", "avg(price", "Avg(price)", "sum(*)", "avg price)"}) {
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

TEST(GroupFilter, OnlyAFilterNamingNoColumnOfTheDataKeepsGroups) {
  data::SchemaProfile profile;
  for (const char* name : {"price", "max(price)"}) {  // the second is a column spelled like an aggregate
    data::ColumnProfile column;
    column.name = name;
    profile.columns.push_back(column);
  }
  const auto filter = [](const std::string& column) { return Constraint{"filter", column, ">", {}, "", 0}; };

  EXPECT_EQ(group_filter_of(filter("avg(price)"), profile), (GroupFilterColumn{"avg", "price"}));
  EXPECT_EQ(group_filter_of(filter("count(*)"), profile), (GroupFilterColumn{"count", "*"}));
  EXPECT_EQ(group_filter_of(filter("price"), profile), std::nullopt);
  EXPECT_EQ(group_filter_of(filter("max(price)"), profile), std::nullopt) << "the data's own column";
  EXPECT_EQ(group_filter_of(Constraint{"sort", "avg(price)", "", {}, "desc", 0}, profile), std::nullopt);
}

}  // namespace
}  // namespace planfirst::autoviz
