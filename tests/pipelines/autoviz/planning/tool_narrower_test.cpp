#include "pipelines/autoviz/planning/tool_narrower.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "embed/hashed_embedder.hpp"

namespace planfirst::autoviz {
namespace {

using core::Json;

struct Fixture {
  ToolRegistry tools = *ToolRegistry::load(core::AssetStore());
  TemplateRegistry templates = *TemplateRegistry::load(core::AssetStore());
  embed::HashedEmbedder embedder;
  Requirements walkthrough = *Requirements::from_json(Json::parse(R"({"metrics": ["revenue"],
      "group_by": ["region", "product_category"], "time": {"column": "date", "grain": "unknown"},
      "analysis": ["total", "compare", "trend"], "outputs": ["chart", "table"], "constraints": []})"));
};

std::vector<std::string> names_of(const std::vector<NarrowedTool>& tools, const std::string& source = "") {
  std::vector<std::string> names;
  for (const NarrowedTool& tool : tools) {
    if (source.empty() || tool.source == source) names.push_back(tool.tool);
  }
  return names;
}

TEST(ToolNarrower, TemplateToolsComeFirstAndRetrievalFillsUpToTheCap) {
  Fixture f;
  auto narrower = ToolNarrower::build(f.tools, f.embedder, {}, *NarrowingOptions::load(core::AssetStore()));
  ASSERT_TRUE(narrower) << narrower.error().describe();

  auto tools = narrower->narrow(f.walkthrough, *f.templates.find("time_series_grouped"));

  ASSERT_TRUE(tools) << tools.error().describe();
  EXPECT_EQ(names_of(*tools, "template"),
            (std::vector<std::string>{"parse_datetime", "aggregate", "plot_line", "compute_summary_stats"}));
  EXPECT_EQ(tools->size(), 10u);  // the cap in narrowing.yaml
  EXPECT_EQ(names_of(*tools, "retrieval").size(), 6u);
}

TEST(ToolNarrower, SafetyToolsJoinPastTheCapAndTemplateToolsAreNeverDropped) {
  Fixture f;
  NarrowingOptions options = *NarrowingOptions::load(core::AssetStore());
  options.cap = 2;
  auto narrower = ToolNarrower::build(f.tools, f.embedder, {}, options);
  ASSERT_TRUE(narrower);
  PlanTemplate base;
  base.name = "tiny";
  base.steps = {{"parse_datetime", false}, {"save_table", false}, {"plot_pie", false}};

  auto tools = narrower->narrow(f.walkthrough, base);

  ASSERT_TRUE(tools);
  EXPECT_EQ(names_of(*tools), (std::vector<std::string>{"parse_datetime", "save_table", "plot_pie",
                                                        "aggregate", "plot_line", "compute_summary_stats"}));
}

TEST(ToolNarrower, TheSameRequirementsGiveTheSameToolsAndScores) {
  Fixture f;
  auto narrower = ToolNarrower::build(f.tools, f.embedder, {}, *NarrowingOptions::load(core::AssetStore()));
  ASSERT_TRUE(narrower);
  const PlanTemplate& base = *f.templates.find("time_series_grouped");

  auto first = narrower->narrow(f.walkthrough, base);
  auto second = narrower->narrow(f.walkthrough, base);

  ASSERT_TRUE(first && second);
  Json a = Json::array(), b = Json::array();
  for (const NarrowedTool& tool : *first) a.push_back(tool.to_json());
  for (const NarrowedTool& tool : *second) b.push_back(tool.to_json());
  EXPECT_EQ(a.dump(), b.dump());
}

}  // namespace
}  // namespace planfirst::autoviz
