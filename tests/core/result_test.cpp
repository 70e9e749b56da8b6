#include "core/result.hpp"

#include <gtest/gtest.h>

#include <string>

namespace planfirst::core {
namespace {

Result<int> parse_digit(char c) {
  if (c < '0' || c > '9') return invalid_argument(std::string("not a digit: ") + c, "input:1");
  return c - '0';
}

TEST(Result, HoldsTheValueOnSuccess) {
  Result<int> r = parse_digit('7');

  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(*r, 7);
}

TEST(Result, CarriesCodeMessageAndPlaceOnFailure) {
  Result<int> r = parse_digit('x');

  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(r.error().describe(), "input:1: not a digit: x");
}

TEST(Result, VoidResultIsOkByDefault) {
  Result<void> r = ok();
  Result<void> failed = not_found("no such table", "sales");

  EXPECT_TRUE(r.has_value());
  EXPECT_EQ(failed.error().code, ErrorCode::kNotFound);
}

}  // namespace
}  // namespace planfirst::core
