#include "data/value.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

namespace planfirst::data {
namespace {

TEST(Value, KindFollowsTheConstructorArgument) {
  const Value null;
  const Value flag(true);
  const Value small(7);
  const Value big(std::numeric_limits<std::int64_t>::max());
  const Value ratio(0.25);
  const Value text("abc");

  EXPECT_EQ(null.kind(), Value::Kind::kNull);
  EXPECT_EQ(flag.kind(), Value::Kind::kBool);
  EXPECT_EQ(small.kind(), Value::Kind::kInt);
  EXPECT_EQ(big.as_int(), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(ratio.kind(), Value::Kind::kDouble);
  EXPECT_EQ(text.as_text(), "abc");
}

TEST(Value, ToStringGivesTheShortestRoundTripDouble) {
  const Value tenth(0.1);
  const Value huge(1e20);
  const Value whole(3.0);

  EXPECT_EQ(tenth.to_string(), "0.1");
  EXPECT_EQ(huge.to_string(), "1e+20");
  EXPECT_EQ(whole.to_string(), "3");
  EXPECT_EQ(Value().to_string(), "NULL");
  EXPECT_EQ(Value(false).to_string(), "false");
}

TEST(Value, EqualityComparesKindAndContent) {
  EXPECT_EQ(Value(1), Value(std::int64_t{1}));
  EXPECT_NE(Value(1), Value(1.0));
  EXPECT_NE(Value("1"), Value(1));
  EXPECT_EQ(Value(), Value(nullptr));
}

}  // namespace
}  // namespace planfirst::data
