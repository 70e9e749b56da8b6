// LlmIntentClassifier against the scripted server: the model's intent and its template are used; a
// reply outside the intent contract is re-asked; one that stays invalid leaves the choice to the rules.
#include "pipelines/autoviz/understand/llm_intent_classifier.hpp"

#include <gtest/gtest.h>

#include "pipelines/autoviz/llm_strategy_fixture.hpp"

namespace planfirst::autoviz {
namespace {

using testing::kWalkthroughQuestion;
using testing::loaded;

class LlmIntentClassifierTest : public testing::LlmStrategyTest {
 protected:
  IntentChoice classify(const std::string& question) const {
    const LlmIntentClassifier classifier(stage_, templates_, rule_intents_);
    return loaded(classifier.classify(question, profile_));
  }
};

TEST_F(LlmIntentClassifierTest, UsesTheModelsIntentWithItsTemplate) {
  script({R"({"primary": "ranking", "confidence": 0.8})"});

  const IntentChoice choice = classify("which regions sell the most?");

  EXPECT_EQ(choice.intent, "ranking");
  EXPECT_EQ(choice.confidence, 0.8);
  EXPECT_EQ(choice.template_name, "ranking_top_k");
  EXPECT_EQ(choice.strategy.strategy, "llm");
  EXPECT_EQ(choice.strategy.model, "test-model");
  EXPECT_EQ(choice.strategy.attempts, 1);
  EXPECT_NE(user_message(0).find("Question: which regions sell the most?"), std::string::npos)
      << user_message(0);
  EXPECT_NE(user_message(0).find("- region (categorical, VARCHAR): "), std::string::npos) << user_message(0);
}

TEST_F(LlmIntentClassifierTest, ReasksAfterAnIntentOutsideTheClosedSet) {
  script({R"({"primary": "forecasting", "confidence": 0.7})",
          R"({"primary": "comparative_analysis", "confidence": 0.6})"});

  const IntentChoice choice = classify("compare revenue across regions");

  EXPECT_EQ(choice.intent, "comparative_analysis");
  EXPECT_EQ(choice.strategy.attempts, 2);
  ASSERT_EQ(chat_requests(), 2u);
  EXPECT_NE(user_message(1).find("/primary [enum]"), std::string::npos) << user_message(1);
}

TEST_F(LlmIntentClassifierTest, LeavesTheChoiceToTheRulesWhenTheReplyStaysInvalid) {
  script({"no idea", "still no idea", "sorry"});

  const IntentChoice choice = classify(kWalkthroughQuestion);

  const IntentChoice rules = loaded(rule_intents_.classify(kWalkthroughQuestion, profile_));
  EXPECT_EQ(choice.intent, rules.intent);
  EXPECT_EQ(choice.template_name, rules.template_name);
  EXPECT_EQ(choice.evidence, rules.evidence);
  EXPECT_EQ(choice.strategy.strategy, "rules");
  EXPECT_EQ(choice.strategy.attempts, 3);
  EXPECT_NE(choice.strategy.fallback.find("contract intent: no_json after 3 attempts"), std::string::npos)
      << choice.strategy.fallback;
  EXPECT_EQ(chat_requests(), 3u);
}

}  // namespace
}  // namespace planfirst::autoviz
