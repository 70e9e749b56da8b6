#include "core/join.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string_view>
#include <vector>

namespace planfirst::core {
namespace {

TEST(Join, PutsTheSeparatorBetweenEachTwoItems) {
  EXPECT_EQ(join(std::vector<std::string>{"a", "b", "c"}), "a, b, c");
  EXPECT_EQ(join(std::vector<std::string_view>{"x", "y"}, " + "), "x + y");
  EXPECT_EQ(join(std::set<std::string>{"b", "a"}, "\n"), "a\nb");
  EXPECT_EQ(join(std::vector<std::string>{"only"}), "only");
  EXPECT_EQ(join(std::vector<std::string>{}), "");
}

}  // namespace
}  // namespace planfirst::core
