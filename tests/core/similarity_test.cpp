#include "core/similarity.hpp"

#include <gtest/gtest.h>

namespace planfirst::core {
namespace {

TEST(Jaro, MatchesPublishedValues) {
  EXPECT_NEAR(jaro("MARTHA", "MARHTA"), 0.9444, 1e-4);
  EXPECT_NEAR(jaro("DIXON", "DICKSONX"), 0.7667, 1e-4);
  EXPECT_NEAR(jaro("JELLYFISH", "SMELLYFISH"), 0.8963, 1e-4);
}

TEST(Jaro, TreatsEmptyStringsAsIdenticalOnlyToEachOther) {
  EXPECT_EQ(jaro("", ""), 1.0);
  EXPECT_EQ(jaro("abc", ""), 0.0);
  EXPECT_EQ(jaro("abc", "xyz"), 0.0);
}

TEST(JaroWinkler, MatchesPublishedValues) {
  EXPECT_NEAR(jaro_winkler("MARTHA", "MARHTA"), 0.9611, 1e-4);
  EXPECT_NEAR(jaro_winkler("DIXON", "DICKSONX"), 0.8133, 1e-4);
  EXPECT_NEAR(jaro_winkler("DWAYNE", "DUANE"), 0.84, 1e-4);
}

TEST(JaroWinkler, CountsAtMostFourPrefixBytes) {
  const double four = jaro_winkler("abcdxyz", "abcdzyx");
  const double six = jaro_winkler("abcdefxyz", "abcdefzyx");

  EXPECT_NEAR(four, jaro("abcdxyz", "abcdzyx") + 0.4 * (1 - jaro("abcdxyz", "abcdzyx")), 1e-12);
  EXPECT_NEAR(six, jaro("abcdefxyz", "abcdefzyx") + 0.4 * (1 - jaro("abcdefxyz", "abcdefzyx")), 1e-12);
}

TEST(JaroWinkler, IsOneForEqualStringsAndSymmetric) {
  EXPECT_EQ(jaro_winkler("revenue", "revenue"), 1.0);
  EXPECT_EQ(jaro_winkler("region", "regoin"), jaro_winkler("regoin", "region"));
}

TEST(ClosestName, NamesTheMostSimilarNameCaseAside) {
  const std::vector<std::string> columns = {"region", "Revenue", "revenue_share", "units"};

  EXPECT_EQ(closest_name("revnue", columns), "Revenue");
  EXPECT_EQ(closest_name("REGOIN", columns), "region");
  EXPECT_EQ(closest_name("weather", columns), std::nullopt) << "nothing close enough";
  EXPECT_EQ(closest_name("revenue", columns), std::nullopt) << "a name it holds needs no correction";
}

}  // namespace
}  // namespace planfirst::core
