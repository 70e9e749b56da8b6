// Shared by the model strategy tests: the scripted OpenAI-protocol server on loopback (ModelFixture),
// the shipped contracts, prompts and registries, the rule strategies the model ones fall back to, and
// the profile of a small sales table shaped like examples/sales.csv, read by the real engine.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "autoviz_fixtures.hpp"
#include "data/dataset.hpp"
#include "data/table_profiler.hpp"
#include "llm/model_fixture.hpp"
#include "llm/prompt_library.hpp"
#include "pipelines/autoviz/planning/capability_map.hpp"
#include "pipelines/autoviz/planning/rule_plan_adapter.hpp"
#include "pipelines/autoviz/planning/tool_registry.hpp"
#include "pipelines/autoviz/stage_model.hpp"
#include "pipelines/autoviz/understand/rule_intent_classifier.hpp"
#include "pipelines/autoviz/understand/rule_requirement_extractor.hpp"
#include "pipelines/autoviz/understand/template_registry.hpp"

namespace planfirst::autoviz::testing {

inline constexpr const char* kWalkthroughQuestion = "get revenue totals by region and product type over time";

// A few rows shaped like examples/sales.csv, profiled once per test program.
inline const data::SchemaProfile& sales_profile() {
  static const data::SchemaProfile profile = [] {
    test_support::TempDir dir;
    const auto csv = dir.write("sales.csv",
                               "date,region,product_category,revenue,units\n"
                               "2024-01-05,West,Furniture,120.5,3\n2024-02-11,East,Clothing,80,2\n"
                               "2024-03-02,West,Clothing,60,1\n2024-03-20,North,Electronics,300,4\n");
    data::OpenedDataset opened = loaded(data::open_dataset(csv));
    return loaded(data::profile_table(*opened.db, opened.table));
  }();
  return profile;
}

class LlmStrategyTest : public ::testing::Test {
 protected:
  // The text of the last user message of the `index`-th chat request the server received.
  std::string user_message(std::size_t index) const {
    const nlohmann::json request = models_.request_json(index);
    return request["messages"].back()["content"].get<std::string>();
  }
  std::size_t chat_requests() const { return models_.server.requests("/v1/chat/completions").size(); }
  void script(std::vector<std::string> replies) {
    std::vector<test_support::ScriptedReply> scripted;
    for (const std::string& reply : replies) scripted.push_back(test_support::ScriptedReply::chat(reply));
    models_.server.script_chat(std::move(scripted));
  }

  llm::ModelFixture models_;
  const core::AssetStore assets_;
  const llm::PromptLibrary prompts_ = loaded(llm::PromptLibrary::load(assets_));
  const llm::OpenAiCompatibleModel model_ = models_.model();
  const StageModel stage_{model_, llm::builtin_contracts(), prompts_, llm::GuardOptions{}};  // 2 re-asks
  const TemplateRegistry templates_ = loaded(TemplateRegistry::load(assets_));
  const ToolRegistry tools_ = loaded(ToolRegistry::load(assets_));
  const CapabilityMap capabilities_ = loaded(CapabilityMap::load(assets_));
  const RuleIntentClassifier rule_intents_ = loaded(RuleIntentClassifier::load(assets_, templates_));
  const RuleRequirementExtractor rule_requirements_ = loaded(RuleRequirementExtractor::load(assets_));
  const RulePlanAdapter rule_adapter_ = loaded(RulePlanAdapter::load(assets_));
  const data::SchemaProfile& profile_ = sales_profile();
};

}  // namespace planfirst::autoviz::testing
