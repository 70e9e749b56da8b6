#include "sources/field_counts.hpp"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace planfirst::sources {
namespace {

EvidenceItem item_with(std::vector<std::pair<std::string, std::string>> fields) {
  EvidenceItem item;
  item.fields = std::move(fields);
  return item;
}

TEST(FieldValue, ReadsTheFirstFieldOfTheName) {
  const EvidenceItem item = item_with({{"state", "open"}, {"author", "maya"}, {"state", "closed"}});

  EXPECT_EQ(field_value(item, "state"), "open");
  EXPECT_EQ(field_value(item.fields, "author"), "maya");
}

TEST(FieldValue, AnAbsentFieldReadsAsTheFallbackAndAnEmptyOneAsEmpty) {
  const EvidenceItem item = item_with({{"unit", ""}});

  EXPECT_EQ(field_value(item, "metric"), "");
  EXPECT_EQ(field_value(item, "metric", "velocity"), "velocity");
  EXPECT_EQ(field_value(item, "unit", "points"), "");
}

TEST(CountByFields, CountsEachGroupUnderItsValuesSorted) {
  const std::vector<EvidenceItem> items = {item_with({{"state", "open"}}), item_with({{"state", "closed"}}),
                                           item_with({{"state", "open"}}), item_with({})};

  const std::vector<FieldCount> counts = count_by_fields(items, {"state"});

  ASSERT_EQ(counts.size(), 3u);
  EXPECT_EQ(counts[0].values, (std::vector<std::string>{""}));
  EXPECT_EQ(counts[0].count, 1u);
  EXPECT_EQ(counts[1].values, (std::vector<std::string>{"closed"}));
  EXPECT_EQ(counts[2].values, (std::vector<std::string>{"open"}));
  EXPECT_EQ(counts[2].count, 2u);
}

}  // namespace
}  // namespace planfirst::sources
