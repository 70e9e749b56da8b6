#include "pipelines/autoviz/understand/sort_clause.hpp"

#include <gtest/gtest.h>

#include "core/tokenizer.hpp"

namespace planfirst::autoviz {
namespace {

SortPhrases phrases() {
  return {phrases_of({"order", "sort", "rank", "list", "display"}),
          phrases_of({"order", "sort"}),
          phrases_of({"desc", "descending", "high to low"}),
          phrases_of({"asc", "ascending", "low to high", "alphabetical"}),
          phrases_of({"high to low", "low to high"}),
          phrases_of({"x", "x axis", "names", "alphabetical"}),
          phrases_of({"y", "y axis", "total number"}),
          phrases_of({"the", "of", "top"}),
          phrases_of({"them", "the"})};
}

std::string described(std::string_view question) {
  const Stems text = stems_of_text(question);
  std::optional<SortClause> clause = find_sort_clause(text, phrases());
  if (!clause) return "none";
  std::string words;
  for (std::size_t at = clause->begin; at < clause->end; ++at) words += (words.empty() ? "" : " ") + text[at];
  return clause->direction + " " + (clause->axis.empty() ? "-" : clause->axis) + " [" + words + "]";
}

TEST(SortClause, FindsTheDirectionTheVerbAndTheAxis) {
  EXPECT_EQ(described("count by city, sort by the y-axis from high to low please"),
            "desc y [sort by the y axi from high to low]");
  EXPECT_EQ(described("a bar chart, and order in desc by the X."), "desc x [order in desc by the x]");
  EXPECT_EQ(described("list the total number in ascending"), "asc y [list the total number in ascend]");
  EXPECT_EQ(described("the number of last names in alphabetical order"), "asc x [alphabet order]");
}

TEST(SortClause, StaysInsideItsSentence) {
  const std::string question =
      "list the height and weight in descending order of height. Show a scatter chart.";
  const Stems text = stems_of_text(question);

  const std::optional<SortClause> clause = find_sort_clause(text, phrases(), core::sentence_ends(question));
  const std::optional<SortClause> unbounded = find_sort_clause(text, phrases());

  ASSERT_TRUE(clause && unbounded);
  EXPECT_EQ(text[clause->end - 1], "height");
  EXPECT_EQ(clause->end, 10u);
  EXPECT_GT(unbounded->end, clause->end)
      << "without the sentence ends the clause reaches into the next sentence";
}

TEST(SortClause, HighToLowOrdersAmounts) {
  const Stems text = stems_of_text("the total cost per category, sorted from high to low");
  const Stems alphabetical = stems_of_text("the total cost per category in descending order");

  EXPECT_TRUE(find_sort_clause(text, phrases())->magnitude);
  EXPECT_FALSE(find_sort_clause(alphabetical, phrases())->magnitude);
}

TEST(SortClause, AVerbBeforeAnAndGovernsNoLaterDirection) {
  EXPECT_EQ(described("list each result and its count in descending order of count"),
            "desc - [descend order of count]");
}

TEST(SortClause, TheWordsAfterOrderOfNameTheKey) {
  EXPECT_EQ(described("each donor and the amount in descending order of the amount by a bar chart"),
            "desc - [descend order of the amount by a]");
}

TEST(SortClause, TheWordsAfterOrderByNameTheKey) {
  EXPECT_EQ(described("titles and ages of each artist, listed in descending order by age using a bar chart"),
            "desc - [list in descend order by age use]");
}

TEST(SortClause, APlainVerbAfterANounMarkerIsANoun) {
  EXPECT_EQ(described("count the orders by region"), "none");
  EXPECT_EQ(described("the number of orders by region, sorted by region"), "asc - [sort by region]");
}

TEST(SortClause, APlainVerbAfterACountIsANoun) {
  EXPECT_EQ(described("top 2 orders by number of items"), "none");
  EXPECT_EQ(described("the 3 orders by revenue in descending order"), "desc - [descend order]");
  EXPECT_EQ(described("wines whose price is bigger than 100 ordered by year"), "asc - [order by year]");
}

TEST(SortClause, APlainVerbWithBySortsAscendingByWhatFollows) {
  EXPECT_EQ(described("how many wines ordered by year"), "asc - [order by year]");
  EXPECT_EQ(described("revenue by region"), "none");
  EXPECT_EQ(described("show revenue by region"), "none");
}

}  // namespace
}  // namespace planfirst::autoviz
