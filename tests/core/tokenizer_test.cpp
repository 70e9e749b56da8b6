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
