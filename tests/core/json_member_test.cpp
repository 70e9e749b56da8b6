#include "core/json_member.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace planfirst::core {
namespace {

TEST(MemberOrNull, ReadsAMemberOfAnObject) {
  const Json state = Json::parse(R"({"plan": {"steps": [1, 2]}})");

  const Json& steps = member_or_null(member_or_null(state, "plan"), "steps");

  EXPECT_EQ(steps, Json::parse("[1, 2]"));
  EXPECT_EQ(&steps, &state["plan"]["steps"]);
}

TEST(MemberOrNull, IsNullForAMissingMemberOrANonObject) {
  const Json state = Json::parse(R"({"plan": null, "list": [1], "text": "x"})");

  EXPECT_TRUE(member_or_null(state, "execution").is_null());
  EXPECT_TRUE(member_or_null(member_or_null(state, "plan"), "steps").is_null());
  EXPECT_TRUE(member_or_null(state["list"], "steps").is_null());
  EXPECT_TRUE(member_or_null(state["text"], "steps").is_null());
}

TEST(MemberOrNull, AMemberHoldingNullReadsAsNull) {
  const Json state = Json::parse(R"({"error": null})");

  EXPECT_TRUE(member_or_null(state, "error").is_null());
}

}  // namespace
}  // namespace planfirst::core
