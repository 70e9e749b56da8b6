#include "core/tokenizer.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace planfirst::core {
namespace {

using Tokens = std::vector<std::string>;

TEST(Tokenize, LowerCasesAndSplitsOnPunctuationKeepingDigits) {
  const Tokens tokens = tokenize("Revenue by Region, Q3-2024 (net)!");

  EXPECT_EQ(tokens, (Tokens{"revenue", "by", "region", "q3", "2024", "net"}));
}

TEST(Tokenize, SplitsSnakeCaseUnlessUnderscoresAreKept) {
  const Tokens split = tokenize("order_id total_amount");
  const Tokens kept = tokenize("order_id total_amount", {.keep_underscores = true});

  EXPECT_EQ(split, (Tokens{"order", "id", "total", "amount"}));
  EXPECT_EQ(kept, (Tokens{"order_id", "total_amount"}));
}

TEST(Tokenize, SplitsCamelCaseOnlyWhenAsked) {
  const Tokens whole = tokenize("orderId HTTPServer");
  const Tokens split = tokenize("orderId HTTPServer utf8Name", {.split_camel_case = true});

  EXPECT_EQ(whole, (Tokens{"orderid", "httpserver"}));
  EXPECT_EQ(split, (Tokens{"order", "id", "http", "server", "utf8", "name"}));
}

TEST(SentenceEnds, GivesEachTokenTheEndOfItsSentence) {
  using Ends = std::vector<std::size_t>;

  EXPECT_EQ(sentence_ends("Sort by height. Show a chart!"), (Ends{3, 3, 3, 6, 6, 6}));
  EXPECT_EQ(sentence_ends("units; price? ok"), (Ends{1, 2, 3}));
  EXPECT_EQ(sentence_ends("one sentence without an end"), (Ends{5, 5, 5, 5, 5}));
  EXPECT_EQ(sentence_ends(""), Ends{});
}

TEST(SentenceEnds, APeriodInsideANumberOrAfterALetterOrAShortFormEndsNoSentence) {
  using Ends = std::vector<std::size_t>;

  EXPECT_EQ(sentence_ends("Ph.D. students in the U.S. earn 1.5 times more."), (Ends(12, 12)));
  EXPECT_EQ(sentence_ends("sorted by avg. cost, the no. of units"), (Ends(8, 8)));
  EXPECT_EQ(sentence_ends("order by height. show a chart"), (Ends{3, 3, 3, 6, 6, 6}))
      << "a lower-case sentence still starts";
  EXPECT_EQ(sentence_ends("orderId. HTTPServer", {.split_camel_case = true}), (Ends{2, 2, 4, 4}));
}

TEST(Tokenize, KeepsUtf8BytesInsideTokens) {
  const Tokens tokens = tokenize("Umsatz für Größe—Köln");

  EXPECT_EQ(tokens, (Tokens{"umsatz", "für", "größe—köln"}));
}

TEST(Tokenize, SurvivesStrayHighBytesAndEmptyInput) {
  const std::string bytes{'\xff', 'a', '\0', '\x80', 'B'};

  const Tokens tokens = tokenize(bytes);

  EXPECT_EQ(tokens, (Tokens{"\xff"
                            "a",
                            "\x80"
                            "b"}));
  EXPECT_TRUE(tokenize("").empty());
}

}  // namespace
}  // namespace planfirst::core
