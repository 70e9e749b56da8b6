#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "contracts/contract_registry.hpp"
#include "core/asset_store.hpp"
#include "pipelines/autoviz/autoviz_fixtures.hpp"
#include "pipelines/autoviz/understand/rule_intent_classifier.hpp"
#include "pipelines/autoviz/understand/template_registry.hpp"

namespace planfirst::autoviz {
namespace {

using core::Json;
using testing::case_json;
using testing::loaded;

class RuleIntentClassifierTest : public ::testing::Test {
 protected:
  IntentChoice classify(const std::string& question) const {
    return loaded(classifier_.classify(question, data::SchemaProfile{}));
  }

  const core::AssetStore assets_;
  const TemplateRegistry templates_ = loaded(TemplateRegistry::load(assets_));
  const RuleIntentClassifier classifier_ = loaded(RuleIntentClassifier::load(assets_, templates_));
};

TEST_F(RuleIntentClassifierTest, TheSeedWalkthroughIsATimeSeriesInvestigationOnTheGroupedTemplate) {
  const IntentChoice choice = classify("get revenue totals by region and product type over time");

  EXPECT_EQ(choice.intent, "time_series_investigation");
  EXPECT_DOUBLE_EQ(choice.confidence, 0.9);
  EXPECT_EQ(choice.template_name, "time_series_grouped");
  EXPECT_EQ(choice.evidence, std::vector<std::string>{"over time"});
}

TEST_F(RuleIntentClassifierTest, ClassifiesEveryCaseQuestion) {
  for (const Json& item : case_json("intents.json")) {
    const IntentChoice choice = classify(item["question"].get<std::string>());

    EXPECT_EQ(choice.intent, item["intent"].get<std::string>()) << item["question"];
    EXPECT_EQ(choice.template_name, templates_.for_intent(choice.intent)->name);
  }
}

TEST_F(RuleIntentClassifierTest, ANoMatchQuestionGetsTheDefaultAtLowConfidence) {
  const IntentChoice choice = classify("hello there");

  EXPECT_EQ(choice.intent, "general_eda");
  EXPECT_DOUBLE_EQ(choice.confidence, 0.3);
  EXPECT_TRUE(choice.evidence.empty());
  EXPECT_EQ(choice.template_name, "eda_overview");
}

TEST_F(RuleIntentClassifierTest, ACloseRunnerUpLowersConfidence) {
  // anomaly: "unusual", "spike" (3 each); time series: "daily" (2).
  const IntentChoice choice = classify("are there any unusual spikes in daily orders?");

  EXPECT_EQ(choice.intent, "anomaly_detection");
  EXPECT_DOUBLE_EQ(choice.confidence, 0.77);
  EXPECT_EQ(choice.evidence, (std::vector<std::string>{"unusual", "spike"}));
}

TEST_F(RuleIntentClassifierTest, TheChoiceMeetsTheIntentContractAndRepeatsByteForByte) {
  const contracts::ContractRegistry contracts = loaded(contracts::ContractRegistry::load(assets_));

  const Json first = classify("compare revenue between the north and south regions").to_json();
  const Json second = classify("compare revenue between the north and south regions").to_json();

  EXPECT_EQ(loaded(contracts.get("intent"))->validate(first).describe(), "");
  EXPECT_EQ(first.dump(), second.dump());
}

}  // namespace
}  // namespace planfirst::autoviz
