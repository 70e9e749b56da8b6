#include "core/stems.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace planfirst::core {
namespace {

using Words = std::vector<std::string>;

TEST(StemsOf, StemsEachTokenInOrder) {
  const Words stems = stems_of(Words{"totals", "by", "regions", "2024"});

  EXPECT_EQ(stems, (Words{"total", "by", "region", "2024"}));
}

TEST(StemsOfText, TokenizesThenStems) {
  Stemmer stemmer;

  const Words own = stems_of_text("Revenue totals, broken down by product_category!");
  const Words borrowed = stems_of_text("Revenue totals, broken down by product_category!", stemmer);

  EXPECT_EQ(own, (Words{"revenu", "total", "broken", "down", "by", "product", "categori"}));
  EXPECT_EQ(borrowed, own);
}

TEST(StemsOfText, IsEmptyForTextWithoutWords) {
  EXPECT_TRUE(stems_of_text("  ,;!? ").empty());
  EXPECT_TRUE(stems_of(Words{}).empty());
}

}  // namespace
}  // namespace planfirst::core
