#include "contracts/gbnf_grammar.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace planfirst::contracts {
namespace {

TEST(GbnfGrammar, ParsesAWellFormedGrammarAndListsItsRules) {
  const std::string text =
      "# a comment\nroot ::= greeting \" \" name\ngreeting ::= \"hello\" | \"hi\"\nname ::= [a-z]+\n";

  core::Result<GbnfGrammar> grammar = GbnfGrammar::parse(text);

  ASSERT_TRUE(grammar.has_value()) << grammar.error().describe();
  EXPECT_EQ(grammar->rule_names(), (std::vector<std::string>{"root", "greeting", "name"}));
}

TEST(GbnfGrammar, RejectsAReferenceToAnUndefinedRuleNamingItsLine) {
  core::Result<GbnfGrammar> grammar = GbnfGrammar::parse("root ::= a\na ::= b \"x\"\n");

  ASSERT_FALSE(grammar.has_value());
  EXPECT_NE(grammar.error().message.find("rule b is referenced but not defined"), std::string::npos);
  EXPECT_EQ(grammar.error().where, "line 2");
}

TEST(GbnfGrammar, RejectsAGrammarWithoutRoot) {
  core::Result<GbnfGrammar> grammar = GbnfGrammar::parse("start ::= \"x\"\n");

  ASSERT_FALSE(grammar.has_value());
  EXPECT_NE(grammar.error().message.find("no root rule"), std::string::npos);
}

TEST(GbnfGrammar, RejectsASyntaxErrorNamingItsLine) {
  core::Result<GbnfGrammar> grammar = GbnfGrammar::parse("root ::= \"x\"\nitem ::= (\"a\" | \"b\"\n");

  ASSERT_FALSE(grammar.has_value());
  EXPECT_EQ(grammar.error().where, "line 3");
}

TEST(GbnfGrammar, AcceptsOnlyTextThatMatchesRootWhole) {
  core::Result<GbnfGrammar> grammar = GbnfGrammar::parse("root ::= (\"hello\" | \"hi\") \" \" [a-z]+\n");
  ASSERT_TRUE(grammar.has_value()) << grammar.error().describe();

  EXPECT_TRUE(grammar->accepts("hello world"));
  EXPECT_TRUE(grammar->accepts("hi x"));
  EXPECT_FALSE(grammar->accepts("hello World"));
  EXPECT_FALSE(grammar->accepts("hello world!"));
  EXPECT_FALSE(grammar->accepts("hello "));
}

TEST(GbnfGrammar, HonoursBoundedRepetitions) {
  core::Result<GbnfGrammar> grammar = GbnfGrammar::parse("root ::= [0-9]{2,3} \"-\" [a-f]{2} \"x\"{0,}\n");
  ASSERT_TRUE(grammar.has_value()) << grammar.error().describe();

  EXPECT_TRUE(grammar->accepts("12-ab"));
  EXPECT_TRUE(grammar->accepts("123-abxxx"));
  EXPECT_FALSE(grammar->accepts("1-ab"));
  EXPECT_FALSE(grammar->accepts("1234-ab"));
  EXPECT_FALSE(grammar->accepts("12-abc"));
}

TEST(GbnfGrammar, MatchesNegatedClassesOnWholeUtf8CodePoints) {
  core::Result<GbnfGrammar> grammar = GbnfGrammar::parse(R"(root ::= "\"" [^"\\\x00-\x1F]* "\"")"
                                                         "\n");
  ASSERT_TRUE(grammar.has_value()) << grammar.error().describe();

  EXPECT_TRUE(grammar->accepts("\"caf\xC3\xA9 \xE2\x82\xAC\""));
  EXPECT_FALSE(grammar->accepts("\"a\"b\""));
  EXPECT_FALSE(grammar->accepts("\"tab\there\""));
}

TEST(GbnfGrammar, ARecursiveRuleMatchesNestedText) {
  core::Result<GbnfGrammar> grammar = GbnfGrammar::parse("root ::= \"(\" root? \")\"\n");
  ASSERT_TRUE(grammar.has_value()) << grammar.error().describe();

  EXPECT_TRUE(grammar->accepts("((()))"));
  EXPECT_FALSE(grammar->accepts("(()"));
}

}  // namespace
}  // namespace planfirst::contracts
