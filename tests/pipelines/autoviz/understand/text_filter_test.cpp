#include "pipelines/autoviz/understand/text_filter.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/tokenizer.hpp"

namespace planfirst::autoviz {
namespace {

TextFilterPhrases phrases() {
  return {phrases_of({"contain", "contains", "include"}),
          phrases_of({"the letter", "the letters"}),
          phrases_of({"not", "without"}),
          phrases_of({"in", "their", "the"}),
          phrases_of({"have", "with"}),
          phrases_of({"their", "its"})};
}

// The filters of `question` with the column "address" at `address` and "name" at `name` (token
// positions), as "column op value" lines.
std::vector<std::string> filters(std::string_view question, std::size_t address, std::size_t name) {
  const std::vector<std::string> tokens = core::tokenize(question);
  std::vector<ColumnSpan> columns = {{address, address + 1, "address"}, {name, name + 1, "name"}};
  std::vector<std::string> out;
  for (const Constraint& c : find_text_filters(question, tokens, stems_of(tokens), columns, phrases())) {
    out.push_back(c.column + " " + c.op + " " + std::get<std::string>(c.value.items.front()));
  }
  return out;
}

TEST(TextFilter, AColumnThatContainsAValueSpelledAsAsked) {
  EXPECT_EQ(filters("customers whose address contains TN", 2, 99),
            std::vector<std::string>{"address contains TN"});
  EXPECT_EQ(filters("staff whose name does not contain the letter M", 99, 2),
            std::vector<std::string>{"name not_contains M"});
}

TEST(TextFilter, TheLetterInTheirColumn) {
  EXPECT_EQ(filters("customers with the letter a in their name", 99, 7),
            std::vector<std::string>{"name contains a"});
  EXPECT_EQ(filters("staff without the letter Q in their name", 99, 7),
            std::vector<std::string>{"name not_contains Q"});
}

TEST(TextFilter, AWordTheyHaveInTheirColumn) {
  EXPECT_EQ(filters("customers who have TN in their address", 6, 99),
            std::vector<std::string>{"address contains TN"});
  EXPECT_EQ(filters("customers who have name in their address", 6, 3), std::vector<std::string>{})
      << "a word that names a column is no value";
  EXPECT_EQ(filters("customers who have TN address", 4, 99), std::vector<std::string>{})
      << "\"in\" is required";
  EXPECT_EQ(filters("orders with revenue in the West region", 99, 99), std::vector<std::string>{})
      << "no column after";
  EXPECT_EQ(filters("orders with discounts in the address West", 5, 99), std::vector<std::string>{})
      << "no owner: the column names where, not what holds it";
}

TEST(TextFilter, EitherOfTwoLettersIsOneFilterWithAList) {
  const std::vector<std::string> tokens = core::tokenize("staff who have the letters D or S in their name");
  const std::vector<Constraint> found =
      find_text_filters("staff who have the letters D or S in their name", tokens, stems_of(tokens),
                        {{10, 11, "name"}}, phrases());

  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].op, "contains");
  EXPECT_EQ(found[0].value.to_json(), core::Json::parse(R"(["D", "S"])"));
  EXPECT_TRUE(filters("the total revenue by region", 99, 99).empty());
}

TEST(ColumnEndingBefore, PicksTheNearestColumnWithinReach) {
  const std::vector<ColumnSpan> columns = {{0, 1, "name"}, {2, 4, "home_city"}, {7, 8, "address"}};

  EXPECT_EQ(column_ending_before(5, 3, columns)->column, "home_city");
  EXPECT_EQ(column_ending_before(4, 3, columns)->column, "home_city");
  EXPECT_EQ(column_ending_before(3, 3, columns)->column, "name");
  EXPECT_EQ(column_ending_before(8, 3, columns)->column, "address");
  EXPECT_EQ(column_ending_before(12, 3, columns), nullptr);
  EXPECT_EQ(column_ending_before(12, 5, columns)->column, "address");
  EXPECT_EQ(column_ending_before(0, 3, columns), nullptr);
}

TEST(IsWordByte, IsTrueForAsciiLettersAndDigitsOnly) {
  EXPECT_TRUE(is_word_byte('a'));
  EXPECT_TRUE(is_word_byte('Z'));
  EXPECT_TRUE(is_word_byte('7'));
  EXPECT_FALSE(is_word_byte(' '));
  EXPECT_FALSE(is_word_byte('\''));
  EXPECT_FALSE(is_word_byte('_'));
  EXPECT_FALSE(is_word_byte('\xE2'));
}

}  // namespace
}  // namespace planfirst::autoviz
