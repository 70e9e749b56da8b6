// Token estimates and fitting prioritized prompt sections into a budget (seed 004 "Token Budget").
#include "llm/token_budget.hpp"

#include <gtest/gtest.h>

namespace planfirst::llm {
namespace {

TEST(EstimateTokens, CountsWordsAndPunctuation) {
  EXPECT_EQ(estimate_tokens(""), 0u);
  EXPECT_EQ(estimate_tokens("the quick brown fox"), 4u);
  EXPECT_EQ(estimate_tokens("{\"a\": 1}"), 7u);
  EXPECT_EQ(estimate_tokens("internationalization"), 4u);  // 20 letters -> ceil(20/6)
}

TEST(FitToBudget, KeepsEverythingThatFits) {
  const std::vector<PromptSection> sections = {{"role", "You are a tuner.", 10, false},
                                               {"sql", "SELECT 1", 9, false}};

  const BudgetedPrompt prompt = fit_to_budget(sections, 100);

  EXPECT_EQ(prompt.kept.size(), 2u);
  EXPECT_TRUE(prompt.dropped.empty());
  EXPECT_EQ(prompt.text(), "You are a tuner.\n\nSELECT 1");
  EXPECT_EQ(prompt.tokens, estimate_tokens("You are a tuner.") + estimate_tokens("SELECT 1"));
}

TEST(FitToBudget, DropsTheLowestPriorityFirstAndKeepsTheGivenOrder) {
  const std::vector<PromptSection> sections = {{"examples", "one two three four five six", 1, false},
                                               {"role", "role words", 10, false},
                                               {"output", "output spec here", 5, false}};

  const BudgetedPrompt prompt = fit_to_budget(sections, 6);

  ASSERT_EQ(prompt.kept.size(), 2u);
  EXPECT_EQ(prompt.kept[0].name, "role");
  EXPECT_EQ(prompt.kept[1].name, "output");
  EXPECT_EQ(prompt.dropped, std::vector<std::string>{"examples"});
  EXPECT_LE(prompt.tokens, 6u);
}

TEST(FitToBudget, CutsATruncatableSectionAtALineBoundary) {
  const std::vector<PromptSection> sections = {
      {"role", "role", 10, false},
      {"explain", "line one\nline two\nline three\nline four\nline five\nline six\nline seven\nline eight", 5,
       true}};

  const BudgetedPrompt prompt = fit_to_budget(sections, 12);

  ASSERT_EQ(prompt.kept.size(), 2u);
  EXPECT_EQ(prompt.truncated, std::vector<std::string>{"explain"});
  EXPECT_EQ(prompt.kept[1].text.rfind("line one\n", 0), 0u);
  EXPECT_NE(prompt.kept[1].text.find("[... truncated]"), std::string::npos);
  EXPECT_EQ(prompt.kept[1].text.find("line five"), std::string::npos);
  EXPECT_LE(prompt.tokens, 12u);
}

TEST(FitToBudget, GivesTheSameResultTwice) {
  const std::vector<PromptSection> sections = {
      {"a", "alpha beta", 1, true}, {"b", "gamma", 1, false}, {"c", "delta epsilon zeta", 2, false}};

  const BudgetedPrompt first = fit_to_budget(sections, 4);
  const BudgetedPrompt second = fit_to_budget(sections, 4);

  EXPECT_EQ(first.text(), second.text());
  EXPECT_EQ(first.dropped, second.dropped);
}

}  // namespace
}  // namespace planfirst::llm
