#include "core/ascii_case.hpp"

#include <gtest/gtest.h>

namespace planfirst::core {
namespace {

TEST(AsciiCase, ChangesOnlyAsciiLetters) {
  EXPECT_EQ(ascii_lower("Product_Category 2024"), "product_category 2024");
  EXPECT_EQ(ascii_upper("between x_1"), "BETWEEN X_1");
  EXPECT_EQ(ascii_lower("Ça VA"), "Ça va") << "UTF-8 bytes stay as they are";
}

TEST(AsciiCase, ComparesIgnoringLetterCaseOnly) {
  EXPECT_TRUE(iequals_ascii("Revenue", "rEVENUE"));
  EXPECT_FALSE(iequals_ascii("revenue", "revenues"));
  EXPECT_FALSE(iequals_ascii("a_b", "a-b"));
  EXPECT_TRUE(iequals_ascii("", ""));
}

}  // namespace
}  // namespace planfirst::core
