// The conventions every shipped contract keeps: closed objects, closed enums, and the graph
// contracts (node_delta, analytics_state) agreeing on the fields they share.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "contracts/contract_registry.hpp"
#include "core/asset_store.hpp"

namespace planfirst::contracts {
namespace {

using core::Json;

struct Found {
  std::string pointer;
  const Json* schema;
};

// Every subschema of `doc` that describes an object, with its pointer.
std::vector<Found> object_schemas(const Json& doc) {
  std::vector<Found> found;
  std::vector<Found> pending{{"", &doc}};
  while (!pending.empty()) {
    const Found current = pending.back();
    pending.pop_back();
    if (!current.schema->is_object()) continue;
    const Json& s = *current.schema;
    const bool object_type =
        s.contains("type") &&
        (s["type"] == "object" || (s["type"].is_array() && std::find(s["type"].begin(), s["type"].end(),
                                                                     "object") != s["type"].end()));
    if (object_type || s.contains("properties")) found.push_back(current);
    for (const char* map : {"properties", "definitions"}) {
      if (!s.contains(map)) continue;
      for (const auto& [key, child] : s[map].items())
        pending.push_back({current.pointer + "/" + map + "/" + key, &child});
    }
    for (const char* single : {"items", "additionalProperties"}) {
      if (s.contains(single) && s[single].is_object())
        pending.push_back({current.pointer + "/" + single, &s[single]});
    }
    for (const char* list : {"oneOf", "anyOf"}) {
      if (!s.contains(list)) continue;
      for (std::size_t i = 0; i < s[list].size(); ++i) {
        pending.push_back({current.pointer + "/" + list + "/" + std::to_string(i), &s[list][i]});
      }
    }
  }
  return found;
}

bool admits_objects(const Json& schema) {
  if (!schema.is_object() || !schema.contains("type")) return true;
  const Json& type = schema["type"];
  return type == "object" || (type.is_array() && std::find(type.begin(), type.end(), "object") != type.end());
}

TEST(ContractConventions, EveryObjectIsClosed) {
  core::Result<ContractRegistry> registry = ContractRegistry::load(core::AssetStore());
  ASSERT_TRUE(registry.has_value()) << registry.error().describe();

  for (const std::string& name : registry->names()) {
    for (const Found& object : object_schemas(registry->find(name)->schema())) {
      ASSERT_TRUE(object.schema->contains("additionalProperties")) << name << " #" << object.pointer;
      const Json& additional = (*object.schema)["additionalProperties"];
      // Closed: no other property, or (tool params) any name whose value is never an object.
      EXPECT_TRUE(additional == false || (additional.is_object() && !admits_objects(additional)))
          << name << " #" << object.pointer;
    }
  }
}

TEST(ContractConventions, EveryStringWithAClosedSetIsAnEnumOfStrings) {
  core::Result<ContractRegistry> registry = ContractRegistry::load(core::AssetStore());
  ASSERT_TRUE(registry.has_value()) << registry.error().describe();

  for (const std::string& name : registry->names()) {
    const std::string text = registry->find(name)->schema().dump();
    std::vector<const Json*> pending{&registry->find(name)->schema()};
    while (!pending.empty()) {
      const Json* node = pending.back();
      pending.pop_back();
      if (node->is_object() && node->contains("enum")) {
        EXPECT_FALSE((*node)["enum"].empty()) << name;
        for (const Json& value : (*node)["enum"])
          EXPECT_TRUE(value.is_string()) << name << ": " << value.dump();
      }
      if (node->is_structured()) {
        for (const Json& child : *node) pending.push_back(&child);
      }
    }
  }
}

TEST(ContractConventions, NodeDeltaFieldsAreAnalyticsStateFieldsWithTheSameSchema) {
  core::Result<ContractRegistry> registry = ContractRegistry::load(core::AssetStore());
  ASSERT_TRUE(registry.has_value()) << registry.error().describe();

  for (auto [delta_name, state_name] :
       {std::pair{"node_delta", "analytics_state"}, {"friction_delta", "friction_state"}}) {
    const Json& delta = registry->find(delta_name)->schema();
    const Json& state = registry->find(state_name)->schema();
    for (const auto& [field, schema] : delta["properties"].items()) {
      ASSERT_TRUE(state["properties"].contains(field)) << delta_name << ": " << field;
      EXPECT_EQ(schema, state["properties"][field]) << delta_name << ": " << field;
    }
    EXPECT_EQ(delta["definitions"], state["definitions"]) << delta_name;
  }
}

TEST(ContractConventions, FrictionStateKeepsEveryAnalyticsStateFieldAsTheSeedSpellsIt) {
  core::Result<ContractRegistry> registry = ContractRegistry::load(core::AssetStore());
  ASSERT_TRUE(registry.has_value()) << registry.error().describe();
  const Json& seed = registry->find("analytics_state")->schema();
  const Json& friction = registry->find("friction_state")->schema();

  for (const auto& [field, schema] : seed["properties"].items()) {
    ASSERT_TRUE(friction["properties"].contains(field)) << field;
    EXPECT_EQ(schema, friction["properties"][field]) << field;
  }
}

}  // namespace
}  // namespace planfirst::contracts
