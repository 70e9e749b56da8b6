// LlmRequirementExtractor against the scripted server: a valid answer is used; an analysis label
// outside the closed set, or a column the data lacks, is re-asked with the error; an answer that stays
// invalid leaves the extraction to the rules.
#include "pipelines/autoviz/understand/llm_requirement_extractor.hpp"

#include <gtest/gtest.h>

#include "pipelines/autoviz/llm_strategy_fixture.hpp"

namespace planfirst::autoviz {
namespace {

using testing::case_json;
using testing::kWalkthroughQuestion;
using testing::loaded;

constexpr const char* kForecast = R"({"metrics": ["revenue"], "group_by": ["region"],
    "time": {"column": "date", "grain": "month"}, "analysis": ["trend", "forecast"], "outputs": ["chart"],
    "constraints": []})";
constexpr const char* kUnknownColumn = R"({"metrics": ["sales"], "group_by": ["region", "product_type"],
    "time": {"column": "date", "grain": "unknown"}, "analysis": ["total"], "outputs": ["chart"], "constraints": []})";

class LlmRequirementExtractorTest : public testing::LlmStrategyTest {
 protected:
  ExtractedRequirements extract(const std::string& question) const {
    const LlmRequirementExtractor extractor(stage_, rule_requirements_);
    return loaded(extractor.extract(question, profile_));
  }
};

TEST_F(LlmRequirementExtractorTest, UsesAValidAnswer) {
  script({case_json("seed_requirements.json").dump()});

  const ExtractedRequirements extracted = extract(kWalkthroughQuestion);

  EXPECT_EQ(extracted.requirements.to_json(), case_json("seed_requirements.json"));
  EXPECT_EQ(extracted.strategy.strategy, "llm");
  EXPECT_EQ(extracted.strategy.attempts, 1);
  EXPECT_NE(user_message(0).find("- revenue (measure, DOUBLE)"), std::string::npos) << user_message(0);
}

TEST_F(LlmRequirementExtractorTest, ReextractsAfterAnAnalysisLabelOutsideTheClosedSet) {
  script({kForecast, case_json("seed_requirements.json").dump()});

  const ExtractedRequirements extracted = extract(kWalkthroughQuestion);

  EXPECT_EQ(extracted.requirements.to_json(), case_json("seed_requirements.json"));
  EXPECT_EQ(extracted.strategy.strategy, "llm");
  EXPECT_EQ(extracted.strategy.attempts, 2);
  ASSERT_EQ(chat_requests(), 2u);
  EXPECT_NE(user_message(1).find("/analysis/1 [enum]"), std::string::npos) << user_message(1);
}

TEST_F(LlmRequirementExtractorTest, ReextractsAfterAColumnTheDataDoesNotHave) {
  script({kUnknownColumn, case_json("seed_requirements.json").dump()});

  const ExtractedRequirements extracted = extract(kWalkthroughQuestion);

  EXPECT_EQ(extracted.requirements.metrics, (std::vector<std::string>{"revenue"}));
  EXPECT_EQ(extracted.strategy.attempts, 2);
  ASSERT_EQ(chat_requests(), 2u);
  EXPECT_NE(user_message(1).find("/metrics/0 [column] \"sales\" is not a column of sales"), std::string::npos)
      << user_message(1);
  EXPECT_NE(user_message(1).find("/group_by/1 [column] \"product_type\""), std::string::npos)
      << user_message(1);
}

TEST_F(LlmRequirementExtractorTest, FallsBackToTheRulesWhenTheAnswerStaysInvalid) {
  script({kForecast, kUnknownColumn, kForecast});

  const ExtractedRequirements extracted = extract(kWalkthroughQuestion);

  const ExtractedRequirements rules = loaded(rule_requirements_.extract(kWalkthroughQuestion, profile_));
  EXPECT_EQ(extracted.requirements, rules.requirements);
  EXPECT_EQ(extracted.strategy.strategy, "rules");
  EXPECT_EQ(extracted.strategy.model, "test-model");
  EXPECT_EQ(extracted.strategy.attempts, 3);
  EXPECT_NE(extracted.strategy.fallback.find("contract requirements: schema after 3 attempts"),
            std::string::npos)
      << extracted.strategy.fallback;
}

TEST_F(LlmRequirementExtractorTest, FallsBackToTheRulesWhenTheServerFails) {
  models_.server.script_chat({test_support::ScriptedReply::error(400, "model not loaded")});

  const ExtractedRequirements extracted = extract(kWalkthroughQuestion);

  EXPECT_EQ(extracted.requirements.to_json(), case_json("seed_requirements.json"));
  EXPECT_EQ(extracted.strategy.strategy, "rules");
  EXPECT_NE(extracted.strategy.fallback.find("model_error"), std::string::npos)
      << extracted.strategy.fallback;
}

TEST_F(LlmRequirementExtractorTest, ASortMayNameTheRowCountButAFilterMayNot) {
  const Requirements requirements = loaded(Requirements::from_json(core::Json::parse(R"({"metrics": [],
      "group_by": ["region"], "time": {"column": null, "grain": "unknown"}, "analysis": ["total"],
      "outputs": ["chart"], "constraints": [{"type": "sort", "column": "count", "direction": "desc"},
      {"type": "filter", "column": "count", "op": ">", "value": 2}]})")));

  const std::vector<contracts::Violation> faults = unknown_columns(requirements, profile_);

  ASSERT_EQ(faults.size(), 1u);
  EXPECT_EQ(faults[0].pointer, "/constraints/1/column");
}

TEST_F(LlmRequirementExtractorTest, AFilterOnEachGroupsAggregateNamesAColumnOfTheData) {
  const Requirements requirements =
      loaded(Requirements::from_json(core::Json::parse(R"j({"metrics": ["revenue"],
      "group_by": ["region"], "time": {"column": null, "grain": "unknown"}, "analysis": [], "outputs": ["chart"],
      "constraints": [{"type": "filter", "column": "avg(revenue)", "op": ">", "value": 2},
      {"type": "filter", "column": "count(*)", "op": ">", "value": 2},
      {"type": "filter", "column": "avg(sales)", "op": ">", "value": 2},
      {"type": "filter", "column": "sum(*)", "op": ">", "value": 2}]})j")));

  const std::vector<contracts::Violation> faults = unknown_columns(requirements, profile_);

  ASSERT_EQ(faults.size(), 2u);
  EXPECT_EQ(faults[0].pointer, "/constraints/2/column");
  EXPECT_NE(faults[0].message.find("\"sales\" is not a column"), std::string::npos) << faults[0].message;
  EXPECT_EQ(faults[1].pointer, "/constraints/3/column") << "only rows are counted with *";
}

}  // namespace
}  // namespace planfirst::autoviz
