// One runner over cases/invalid_registries.json: each case replaces one registry file and names
// the line and message its load must fail with.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "autoviz_fixtures.hpp"
#include "pipelines/autoviz/planning/capability_map.hpp"
#include "pipelines/autoviz/planning/tool_registry.hpp"
#include "pipelines/autoviz/understand/rule_intent_classifier.hpp"
#include "pipelines/autoviz/understand/template_registry.hpp"

namespace planfirst::autoviz {
namespace {

using core::Json;

// The error of loading the registry at `file` from `assets`, or an internal error saying it loaded.
core::Error load_error(const std::string& file, const core::AssetStore& assets) {
  auto error_of = [](const auto& result) {
    return result.has_value() ? core::internal_error("loaded without error") : result.error();
  };
  if (file == ToolRegistry::kPath) return error_of(ToolRegistry::load(assets));
  if (file == CapabilityMap::kPath) return error_of(CapabilityMap::load(assets));
  if (file == TemplateRegistry::kPath) return error_of(TemplateRegistry::load(assets));
  const core::Result<TemplateRegistry> templates = TemplateRegistry::load(assets);
  if (!templates) return templates.error();
  return error_of(RuleIntentClassifier::load(assets, *templates));
}

TEST(InvalidRegistry, EachCaseFailsAtItsLineWithItsMessage) {
  for (const Json& item : testing::case_json("invalid_registries.json")) {
    std::string text;
    for (const Json& line : item["lines"]) text += line.get<std::string>() + "\n";
    testing::AssetOverrides overrides;
    overrides.write(item["file"], text);

    const core::Error error = load_error(item["file"], overrides.store());

    const std::string name = item["name"];
    EXPECT_EQ(error.code, core::ErrorCode::kInvalidArgument) << name;
    EXPECT_TRUE(error.where.ends_with(item["where"].get<std::string>())) << name << ": " << error.where;
    if (item.contains("message")) {
      EXPECT_EQ(error.message, item["message"]) << name;
    }
    if (item.contains("message_prefix")) {
      EXPECT_TRUE(error.message.starts_with(item["message_prefix"].get<std::string>()))
          << name << ": " << error.message;
    }
  }
}

}  // namespace
}  // namespace planfirst::autoviz
