#include "core/number_text.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace planfirst::core {
namespace {

TEST(FormatNumber, RoundsToTwoDecimalsAndDropsTrailingZeros) {
  EXPECT_EQ(format_number(4432266.4812, 10000), "4,432,266.48");
  EXPECT_EQ(format_number(25.0, 10000), "25");
  EXPECT_EQ(format_number(10.5, 10000), "10.5");
  EXPECT_EQ(format_number(2.675, 10000), "2.67");  // the double below 2.675, rounded as it is
  EXPECT_EQ(format_number(-0.0, 10000), "0");
  EXPECT_EQ(format_number(-1234567.899, 1000), "-1,234,567.9");
}

TEST(FormatNumber, KeepsThreeSignificantDigitsBelowOne) {
  EXPECT_EQ(format_number(0.00123456, 10000), "0.00123");
  EXPECT_EQ(format_number(-0.5, 10000), "-0.5");
}

TEST(FormatNumber, GroupsDigitsOnlyFromTheGivenMagnitude) {
  EXPECT_EQ(format_number(2024.0, 10000), "2024");
  EXPECT_EQ(format_number(2024.0, 1000), "2,024");
  EXPECT_EQ(format_number(999.999, 1000), "1,000");  // grouped as rounded
}

TEST(FormatNumber, SpellsNanAndInfinities) {
  EXPECT_EQ(format_number(std::nan(""), 1000), "nan");
  EXPECT_EQ(format_number(-std::numeric_limits<double>::infinity(), 1000), "-inf");
}

TEST(FormatInteger, GroupsDigitsFromTheGivenMagnitude) {
  EXPECT_EQ(format_integer(7726, 1000), "7,726");
  EXPECT_EQ(format_integer(7726, 10000), "7726");
  EXPECT_EQ(format_integer(-127065, 10000), "-127,065");
  EXPECT_EQ(format_integer(std::numeric_limits<std::int64_t>::min(), 1000), "-9,223,372,036,854,775,808");
}

}  // namespace
}  // namespace planfirst::core
