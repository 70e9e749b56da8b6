#include "contracts/json_extraction.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

namespace planfirst::contracts {
namespace {

using core::Json;

TEST(ExtractFirstJson, FindsTheObjectBetweenProse) {
  const std::string reply = "Sure! Here is the plan: {\"intent\": \"x\", \"track\": \"FAST\"} Let me know.";

  const ExtractedJson json = extract_first_json(reply);

  ASSERT_TRUE(json.has_value()) << json.error().message;
  EXPECT_EQ(*json, Json::parse(R"({"intent": "x", "track": "FAST"})"));
}

TEST(ExtractFirstJson, FindsTheObjectInsideAJsonFence) {
  const std::string reply = "The plan:\n```json\n{\n  \"request_type\": \"STATUS_METRIC\"\n}\n```\nDone.";

  const ExtractedJson json = extract_first_json(reply);

  ASSERT_TRUE(json.has_value()) << json.error().message;
  EXPECT_EQ((*json)["request_type"], "STATUS_METRIC");
}

TEST(ExtractFirstJson, IgnoresBracesAndQuotesInsideStrings) {
  const std::string reply =
      R"(Result: {"text": "a } closing brace, a { and a ] and \"quoted\" words", "n": 1} trailing })";

  const ExtractedJson json = extract_first_json(reply);

  ASSERT_TRUE(json.has_value()) << json.error().message;
  EXPECT_EQ((*json)["text"], "a } closing brace, a { and a ] and \"quoted\" words");
  EXPECT_EQ((*json)["n"], 1);
}

TEST(ExtractFirstJson, HonoursEscapedBackslashesBeforeQuotes) {
  const std::string reply = R"({"path": "C:\\temp\\", "unicode": "\u00e9\n"})";

  const ExtractedJson json = extract_first_json(reply);

  ASSERT_TRUE(json.has_value()) << json.error().message;
  EXPECT_EQ((*json)["path"], "C:\\temp\\");
  EXPECT_EQ((*json)["unicode"], "\xC3\xA9\n");
}

TEST(ExtractFirstJson, KeepsNestedObjectsAndArraysWhole) {
  const std::string reply = R"(x {"a": {"b": [1, {"c": [[]]}]}, "d": []} y)";

  const ExtractedJson json = extract_first_json(reply);

  ASSERT_TRUE(json.has_value()) << json.error().message;
  EXPECT_EQ(*json, Json::parse(R"({"a": {"b": [1, {"c": [[]]}]}, "d": []})"));
}

TEST(ExtractFirstJson, TheFirstOfTwoObjectsWins) {
  const std::string reply = R"({"first": true} and then {"second": true})";

  const ExtractedJson json = extract_first_json(reply);

  ASSERT_TRUE(json.has_value()) << json.error().message;
  EXPECT_EQ(*json, Json::parse(R"({"first": true})"));
}

TEST(ExtractFirstJson, ReturnsATopLevelArray) {
  const ExtractedJson json = extract_first_json("steps: [1, 2, 3].");

  ASSERT_TRUE(json.has_value()) << json.error().message;
  EXPECT_EQ(*json, Json::parse("[1, 2, 3]"));
}

TEST(ExtractFirstJson, ObjectsOnlySkipsCitationArrays) {
  ExtractOptions options;
  options.objects_only = true;

  const ExtractedJson json = extract_first_json("As shown in [1], the plan is {\"a\": 1}.", options);

  ASSERT_TRUE(json.has_value()) << json.error().message;
  EXPECT_EQ(*json, Json::parse(R"({"a": 1})"));
}

TEST(ExtractFirstJson, SkipsAUtf8ByteOrderMark) {
  const std::string reply = "\xEF\xBB\xBF{\"a\": 1}";

  const ExtractedJson json = extract_first_json(reply);

  ASSERT_TRUE(json.has_value()) << json.error().message;
  EXPECT_EQ(*json, Json::parse(R"({"a": 1})"));
}

TEST(ExtractFirstJson, SkipsProseBracketsThatCannotStartJson) {
  const std::string reply = "Fill in {placeholders} [as needed]: {\"a\": [true]}";

  const ExtractedJson json = extract_first_json(reply);

  ASSERT_TRUE(json.has_value()) << json.error().message;
  EXPECT_EQ(*json, Json::parse(R"({"a": [true]})"));
}

TEST(ExtractFirstJson, SkipsABalancedSpanThatDoesNotParseWhenAValidOneFollows) {
  const std::string reply = "Shape: {\"intent\": ...} Answer: {\"intent\": \"x\"}";

  const ExtractedJson json = extract_first_json(reply);

  ASSERT_TRUE(json.has_value()) << json.error().message;
  EXPECT_EQ(*json, Json::parse(R"({"intent": "x"})"));
}

TEST(ExtractFirstJson, ReportsTruncatedWithTheOffsetWhereTheValueStarts) {
  const std::string reply = "Here you go: {\"intent\": \"x\", \"sources\": [\"db\"";

  const ExtractedJson json = extract_first_json(reply);

  ASSERT_FALSE(json.has_value());
  EXPECT_EQ(json.error().kind, ExtractErrorKind::kTruncated);
  EXPECT_EQ(json.error().offset, 13u);
  EXPECT_NE(json.error().message.find("byte 13"), std::string::npos) << json.error().message;
}

TEST(ExtractFirstJson, ReportsTruncatedInsideAnUnclosedString) {
  const ExtractedJson json = extract_first_json("{\"intent\": \"a } b");

  ASSERT_FALSE(json.has_value());
  EXPECT_EQ(json.error().kind, ExtractErrorKind::kTruncated);
  EXPECT_EQ(json.error().offset, 0u);
}

TEST(ExtractFirstJson, ReportsTooLargeAboveTheConfiguredCap) {
  ExtractOptions options;
  options.max_bytes = 16;

  const ExtractedJson json =
      extract_first_json("ok {\"text\": \"this value is longer than sixteen bytes\"}", options);

  ASSERT_FALSE(json.has_value());
  EXPECT_EQ(json.error().kind, ExtractErrorKind::kTooLarge);
  EXPECT_EQ(json.error().offset, 3u);
}

TEST(ExtractFirstJson, ReportsTooLargeForNestingDeeperThanTheCap) {
  ExtractOptions options;
  options.max_depth = 4;

  const ExtractedJson json = extract_first_json("[[[[[1]]]]]", options);

  ASSERT_FALSE(json.has_value());
  EXPECT_EQ(json.error().kind, ExtractErrorKind::kTooLarge);
  EXPECT_NE(json.error().message.find("deeper"), std::string::npos) << json.error().message;
}

TEST(ExtractFirstJson, ReportsNoJsonForPlainProse) {
  const ExtractedJson json = extract_first_json("I cannot help with that request.");

  ASSERT_FALSE(json.has_value());
  EXPECT_EQ(json.error().kind, ExtractErrorKind::kNoJson);
  EXPECT_EQ(to_string(json.error().kind), "no_json");
}

TEST(ExtractFirstJson, ReportsNoJsonForEmptyText) {
  const ExtractedJson json = extract_first_json("");

  ASSERT_FALSE(json.has_value());
  EXPECT_EQ(json.error().kind, ExtractErrorKind::kNoJson);
}

TEST(ExtractFirstJson, ReportsInvalidWithTheParserMessageAndOffset) {
  const std::string reply = "Plan: {\"track\": FAST}";

  const ExtractedJson json = extract_first_json(reply);

  ASSERT_FALSE(json.has_value());
  EXPECT_EQ(json.error().kind, ExtractErrorKind::kInvalid);
  EXPECT_EQ(json.error().offset, 16u);  // where the parser gave up: the F of FAST
  EXPECT_NE(json.error().message.find("invalid literal"), std::string::npos) << json.error().message;
}

TEST(ExtractFirstJson, ReportsInvalidForAMismatchedCloser) {
  const ExtractedJson json = extract_first_json("{\"a\": [1, 2}");

  ASSERT_FALSE(json.has_value());
  EXPECT_EQ(json.error().kind, ExtractErrorKind::kInvalid);
}

TEST(ExtractFirstJson, ConvertsToAResultWhoseErrorNamesKindAndByte) {
  core::Result<Json> json = extract_first_json("{\"a\": ");

  ASSERT_FALSE(json.has_value());
  EXPECT_EQ(json.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(json.error().where, "byte 0");
  EXPECT_TRUE(json.error().message.starts_with("truncated: ")) << json.error().message;
}

TEST(ExtractFirstJson, ReadsNothingPastTheGivenView) {
  const std::string buffer = "{\"a\": 1}";
  const std::string_view cut(buffer.data(), buffer.size() - 1);  // the closing brace is outside

  const ExtractedJson json = extract_first_json(cut);

  ASSERT_FALSE(json.has_value());
  EXPECT_EQ(json.error().kind, ExtractErrorKind::kTruncated);
}

// The lenient reading the analyst plan uses (seed 000 §8): a trailing comma is repaired, not rejected.
TEST(RepairTrailingCommas, RemovesACommaBeforeAClosingBraceOrBracket) {
  const TrailingCommaRepair repair =
      repair_trailing_commas("Plan: {\"required_sources\": [\"db\", \"neo4j\",\n], \"track\": \"FAST\",\n}");

  EXPECT_EQ(repair.removed, 2u);
  EXPECT_EQ(repair.text, "Plan: {\"required_sources\": [\"db\", \"neo4j\"\n], \"track\": \"FAST\"\n}");
  ExtractedJson json = extract_first_json(repair.text);
  ASSERT_TRUE(json.has_value()) << json.error().message;
  EXPECT_EQ((*json)["required_sources"].size(), 2u);
}

TEST(RepairTrailingCommas, KeepsCommasInsideStringsAndBetweenItems) {
  const std::string text = R"({"intent": "a,}", "q": ["x, ]", "y\",]"], "n": [1, 2]})";

  const TrailingCommaRepair repair = repair_trailing_commas(text);

  EXPECT_EQ(repair.removed, 0u);
  EXPECT_EQ(repair.text, text);
}

}  // namespace
}  // namespace planfirst::contracts
