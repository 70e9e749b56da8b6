#include "pipelines/autoviz/understand/quoted_value.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/tokenizer.hpp"

namespace planfirst::autoviz {
namespace {

TEST(QuotedValue, QuotesOpenAfterASpaceAndCloseBeforeOne) {
  EXPECT_EQ(quoted_texts("players whose occupation is not \"Researcher\", as a pie"),
            std::vector<std::string>{"Researcher"});
  EXPECT_EQ(quoted_texts("the dog's age by 'Good Customer' status"),
            std::vector<std::string>{"Good Customer"});
  EXPECT_TRUE(quoted_texts("the minister's name and the dog's age").empty());
}

// The filters of `question` with one column, `column`, named at token `at`.
std::vector<Constraint> filters(std::string_view question, std::size_t at, const std::string& column) {
  const std::vector<std::string> tokens = core::tokenize(question);
  return find_quoted_filters(question, tokens, stems_of(tokens), {{at, at + 1, column}},
                             stems_of({"not", "without"}));
}

TEST(QuotedValue, AQuotedValueFiltersTheColumnBeforeIt) {
  const std::vector<Constraint> negated =
      filters("players whose occupation is not \"Researcher\"", 2, "Occupation");
  const std::vector<Constraint> after =
      filters("customers classified as 'Good Customer' status", 6, "status");

  ASSERT_EQ(negated.size(), 1u);
  EXPECT_EQ(negated[0].column, "Occupation");
  EXPECT_EQ(negated[0].op, "!=");
  EXPECT_EQ(negated[0].value.to_json(), "Researcher");
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(after[0].op, "=");
  EXPECT_EQ(after[0].value.to_json(), "Good Customer");
  EXPECT_TRUE(filters("a 'quoted' word far from any column named at the end of it all", 12, "x").empty());
}

}  // namespace
}  // namespace planfirst::autoviz
