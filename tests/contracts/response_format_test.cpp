#include "contracts/response_format.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "contracts/contract_registry.hpp"
#include "core/asset_store.hpp"

namespace planfirst::contracts {
namespace {

using Ordered = nlohmann::ordered_json;

TEST(ResponseFormat, WrapsTheSchemaAsAStrictNamedJsonSchema) {
  core::Result<ContractRegistry> registry = ContractRegistry::load(core::AssetStore());
  ASSERT_TRUE(registry.has_value()) << registry.error().describe();

  const Ordered format = Ordered::parse(response_format(*registry->find("analyst_plan")));

  EXPECT_EQ(format["type"], "json_schema");
  EXPECT_EQ(format["json_schema"]["name"], "analyst_plan");
  EXPECT_EQ(format["json_schema"]["strict"], true);
  EXPECT_EQ(format["json_schema"]["schema"]["additionalProperties"], false);
  EXPECT_EQ(format["json_schema"]["schema"]["properties"].begin().key(), "intent");  // schema order kept
  EXPECT_FALSE(format["json_schema"]["schema"].contains("$schema"));
}

TEST(ResponseFormat, DropsCommentsAtEveryDepth) {
  core::Result<ContractRegistry> registry = ContractRegistry::load(core::AssetStore());
  ASSERT_TRUE(registry.has_value()) << registry.error().describe();

  const std::string format = response_format(*registry->find("plan_adaptation"));

  EXPECT_EQ(format.find("$comment"), std::string::npos);
  EXPECT_NE(format.find("\"satisfies\""), std::string::npos);
}

}  // namespace
}  // namespace planfirst::contracts
