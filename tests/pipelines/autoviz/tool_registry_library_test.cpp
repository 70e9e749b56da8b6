// The registry a plan is made from and the library a plan runs on must agree: every tool in
// assets/autoviz/tools.yaml is implemented, and each takes exactly the params its schema declares.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "autoviz_fixtures.hpp"
#include "core/asset_store.hpp"
#include "pipelines/autoviz/planning/tool_registry.hpp"
#include "pipelines/autoviz/tools/tool_library.hpp"

namespace planfirst::autoviz {
namespace {

TEST(ToolRegistryAndLibrary, ImplementTheSameTools) {
  const ToolRegistry registry = testing::loaded(ToolRegistry::load(core::AssetStore()));
  std::vector<std::string> registered = registry.names();
  std::sort(registered.begin(), registered.end());

  EXPECT_EQ(ToolLibrary::builtin().names(), registered);
}

TEST(ToolRegistryAndLibrary, EachToolTakesExactlyTheParamsItsSchemaDeclares) {
  const ToolRegistry registry = testing::loaded(ToolRegistry::load(core::AssetStore()));

  for (const ToolSpec& tool : registry.tools()) {
    const std::vector<std::string_view>* taken = ToolLibrary::builtin().params(tool.name);
    ASSERT_NE(taken, nullptr) << tool.name;
    std::vector<std::string> names(taken->begin(), taken->end());
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, tool.param_names) << tool.name;
  }
}

}  // namespace
}  // namespace planfirst::autoviz
