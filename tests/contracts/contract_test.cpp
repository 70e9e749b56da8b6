#include "contracts/contract.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

namespace planfirst::contracts {
namespace {

using core::Json;

Contract compiled(const std::string& schema, std::vector<ContractRule> rules = {}) {
  core::Result<Contract> contract = Contract::compile("test", schema, std::move(rules));
  EXPECT_TRUE(contract.has_value()) << contract.error().describe();
  return std::move(*contract);
}

TEST(Contract, CompileRefusesTextThatIsNotJson) {
  core::Result<Contract> contract = Contract::compile("broken", "{\"type\": ");

  ASSERT_FALSE(contract.has_value());
  EXPECT_EQ(contract.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(contract.error().where, "contract broken");
}

TEST(Contract, CompileRefusesARemoteReference) {
  core::Result<Contract> contract =
      Contract::compile("remote", R"({"$ref": "http://example.com/schema.json"})");

  ASSERT_FALSE(contract.has_value());
  EXPECT_NE(contract.error().message.find("cannot compile"), std::string::npos);
}

TEST(Contract, ReportsEveryViolationWithPointerKeywordAndMessage) {
  const Contract contract = compiled(R"({"type": "object", "properties": {
      "kind": {"enum": ["a", "b"]}, "n": {"type": "integer", "maximum": 3}, "tags": {"type": "array", "maxItems": 1}},
      "required": ["kind", "n", "id"], "additionalProperties": false})");

  const ValidationReport report =
      contract.validate(Json::parse(R"({"kind": "c", "n": 7, "tags": [1, 2], "x": 1, "y": 2})"));

  EXPECT_EQ(report.describe(),
            "/kind [enum] \"c\" is not one of \"a\", \"b\"\n"
            "/n [maximum] 7 is above the maximum 3\n"
            "/tags [maxItems] has 2 items; at most 1 allowed\n"
            "/x [additionalProperties] property \"x\" is not allowed here; allowed: kind, n, tags\n"
            "/y [additionalProperties] property \"y\" is not allowed here; allowed: kind, n, tags\n"
            "/id [required] missing required property \"id\"\n");
}

TEST(Contract, EscapesPointerTokensPerRfc6901) {
  const Contract contract =
      compiled(R"({"properties": {"a/b": {"properties": {"c~d": {"type": "string"}}}}})");

  const ValidationReport report = contract.validate(Json::parse(R"({"a/b": {"c~d": 1}})"));

  ASSERT_EQ(report.violations().size(), 1u);
  EXPECT_EQ(report.violations()[0].pointer, "/a~1b/c~0d");
  EXPECT_EQ(report.violations()[0].message, "expected string, got integer");
}

TEST(Contract, NarrowsATaggedUnionToTheVariantTheValueNames) {
  const Contract contract = compiled(R"({"type": "array", "items": {"oneOf": [
      {"type": "object", "properties": {"type": {"const": "sort"}, "direction": {"enum": ["asc", "desc"]}},
       "required": ["type", "direction"], "additionalProperties": false},
      {"type": "object", "properties": {"type": {"const": "limit"}, "n": {"type": "integer"}},
       "required": ["type", "n"], "additionalProperties": false}]}})");

  const ValidationReport report =
      contract.validate(Json::parse(R"([{"type": "sort", "direction": "up"}, {"type": "top"}])"));

  EXPECT_EQ(report.describe(),
            "/0/direction [enum] \"up\" is not one of \"asc\", \"desc\"\n"
            "/1/type [oneOf] \"top\" is not one of the variants \"sort\", \"limit\"\n");
}

TEST(Contract, RuleViolationsCarryTheRuleNameAsKeyword) {
  const ContractRule rule{"even_n", "n is even", [](const Json& value, std::vector<Violation>& out) {
                            if (value.value("n", 0) % 2 != 0) out.push_back({"/n", "", "n must be even"});
                          }};
  const Contract contract = compiled(R"({"type": "object"})", {rule});

  const ValidationReport report = contract.validate(Json::parse(R"({"n": 3})"));

  ASSERT_EQ(report.violations().size(), 1u);
  EXPECT_EQ(report.violations()[0], (Violation{"/n", "even_n", "n must be even"}));
}

TEST(Contract, AValueDeeperThanTheLimitIsOneViolationNotACrash) {
  const Contract contract = compiled(R"({"type": "array", "uniqueItems": true})");
  Json deep = Json::array();
  for (std::size_t i = 0; i < kMaxValidatedDepth + 10; ++i) deep = Json::array({std::move(deep)});

  const ValidationReport report = contract.validate(Json::array({deep, deep}));

  ASSERT_EQ(report.violations().size(), 1u);
  EXPECT_EQ(report.violations()[0].keyword, "limits");
}

TEST(Contract, AnArrayLongerThanTheLimitIsOneViolation) {
  const Contract contract = compiled(R"({"type": "array", "uniqueItems": true})");
  const Json wide(std::vector<int>(kMaxValidatedArrayItems + 1, 7));

  const ValidationReport report = contract.validate(wide);

  ASSERT_EQ(report.violations().size(), 1u);
  EXPECT_NE(report.violations()[0].message.find("10001 items"), std::string::npos);
}

TEST(Contract, APatternIsMatchedOnALongStringWithoutDeepRecursion) {
  const Contract contract = compiled(R"({"type": "string", "pattern": "^[a-z][a-z0-9_]*$"})");

  const ValidationReport long_valid = contract.validate(Json(std::string(1'000'000, 'a')));
  const ValidationReport long_invalid = contract.validate(Json(std::string(1'000'000, 'a') + "!"));

  EXPECT_TRUE(long_valid.ok()) << long_valid.describe();
  EXPECT_FALSE(long_invalid.ok());
}

TEST(ValidationReport, ErrorNamesEveryViolationAndPointsAtTheFirst) {
  const ValidationReport report(
      {{"/a", "type", "expected string, got integer"}, {"", "required", "missing b"}});

  const core::Error error = report.error();

  EXPECT_EQ(error.code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(error.where, "/a");
  EXPECT_EQ(error.message,
            "2 contract violations: /a [type] expected string, got integer; / [required] missing b");
  EXPECT_FALSE(report.to_result().has_value());
}

}  // namespace
}  // namespace planfirst::contracts
