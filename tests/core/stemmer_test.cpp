#include "core/stemmer.hpp"

#include <gtest/gtest.h>

#include <utility>

namespace planfirst::core {
namespace {

TEST(Stemmer, ReducesEnglishWordsToTheirSnowballStems) {
  Stemmer stemmer;

  EXPECT_EQ(stemmer.stem("running"), "run");
  EXPECT_EQ(stemmer.stem("revenues"), "revenu");
  EXPECT_EQ(stemmer.stem("categories"), "categori");
  EXPECT_EQ(stemmer.stem("generously"), "generous");
}

TEST(Stemmer, LeavesEmptyAndNonWordInputUsable) {
  Stemmer stemmer;

  EXPECT_EQ(stemmer.stem(""), "");
  EXPECT_EQ(stemmer.stem("2024"), "2024");
  EXPECT_EQ(stemmer.stem("größe"), "größe");
}

TEST(Stemmer, KeepsWorkingAfterAMove) {
  Stemmer original;
  Stemmer moved = std::move(original);

  EXPECT_EQ(moved.stem("connections"), "connect");
}

}  // namespace
}  // namespace planfirst::core
