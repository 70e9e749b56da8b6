#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "autoviz_fixtures.hpp"
#include "core/asset_store.hpp"
#include "pipelines/autoviz/contract_labels.hpp"
#include "pipelines/autoviz/planning/capability_map.hpp"
#include "pipelines/autoviz/planning/tool_registry.hpp"
#include "pipelines/autoviz/understand/template_registry.hpp"

namespace planfirst::autoviz {
namespace {

using testing::AssetOverrides;
using testing::loaded;

const std::vector<std::string> kIssueTools = {"load_dataset",
                                              "infer_schema",
                                              "parse_datetime",
                                              "cast_types",
                                              "handle_missing",
                                              "filter_rows",
                                              "aggregate",
                                              "segment_metric",
                                              "compute_summary_stats",
                                              "compute_value_counts",
                                              "compute_percentiles",
                                              "time_bucket",
                                              "sort_limit",
                                              "compute_share",
                                              "compare_periods",
                                              "rolling_average",
                                              "compute_correlations",
                                              "detect_anomalies",
                                              "compute_distributions",
                                              "plot_line",
                                              "plot_bar",
                                              "plot_scatter",
                                              "plot_histogram",
                                              "plot_pie",
                                              "plot_boxplot",
                                              "plot_heatmap",
                                              "save_table"};

// Seed §2's "require updates in CI": what the shipped registries disagree on, one line per fault.
// `labels` are the requirement labels of the requirements contract's closed sets.
std::vector<std::string> consistency_faults(const ToolRegistry& tools, const CapabilityMap& map,
                                            const std::vector<std::string>& labels) {
  std::vector<std::string> faults;
  for (const ToolSpec& tool : tools.tools()) {
    for (const std::string& capability : tool.capabilities) {
      if (!map.canonical(capability))
        faults.push_back("tool " + tool.name + " declares unknown capability " + capability);
    }
  }
  for (const std::string& label : labels) {
    if (map.rule_for(label).core_fallback) faults.push_back("requirement label " + label + " has no mapping");
  }
  return faults;
}

// Every requirement label the requirements contract allows: its fields with free values, its
// closed analysis and outputs sets, and its constraint types.
std::vector<std::string> contract_requirement_labels(const core::AssetStore& assets) {
  std::vector<std::string> labels = {"metrics", "group_by", "time"};
  for (const std::string field : {"analysis", "outputs"}) {
    for (const std::string& value :
         loaded(contract_labels(assets, kRequirementsContract, "/properties/" + field + "/items"))) {
      labels.push_back(field + ":" + value);
    }
  }
  const core::Json schema = core::Json::parse(loaded(assets.read(kRequirementsContract)));
  for (const core::Json& ref : schema["definitions"]["constraint"]["oneOf"]) {
    const std::string name = ref["$ref"].get<std::string>().substr(std::string("#/definitions/").size());
    labels.push_back("constraints:" +
                     schema["definitions"][name]["properties"]["type"]["const"].get<std::string>());
  }
  return labels;
}

TEST(ToolRegistry, LoadsTheTwentySevenToolsOfTheIssueInFileOrder) {
  const ToolRegistry tools = loaded(ToolRegistry::load(core::AssetStore()));

  EXPECT_EQ(tools.names(), kIssueTools);
  EXPECT_EQ(tools.version(), 1);
}

TEST(ToolRegistry, KeepsTheSeedMetadataOfAggregateAndPlotLine) {
  const ToolRegistry tools = loaded(ToolRegistry::load(core::AssetStore()));

  const ToolSpec* aggregate = tools.find("aggregate");
  const ToolSpec* plot_line = tools.find("plot_line");

  ASSERT_NE(aggregate, nullptr);
  ASSERT_NE(plot_line, nullptr);
  EXPECT_EQ(aggregate->capabilities, (std::vector<std::string>{"aggregate", "group_by", "summarize"}));
  EXPECT_EQ(aggregate->inputs, std::vector<std::string>{"df"});
  EXPECT_EQ(aggregate->param_names, (std::vector<std::string>{"agg_func", "group_by", "metrics"}));
  EXPECT_EQ(aggregate->outputs, std::vector<std::string>{"df"});
  EXPECT_EQ(plot_line->capabilities, (std::vector<std::string>{"plot", "time_series"}));
  EXPECT_EQ(plot_line->param_names, (std::vector<std::string>{"color", "facet", "x", "y"}));
  EXPECT_EQ(plot_line->required_params, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(plot_line->outputs, std::vector<std::string>{"chart"});
  EXPECT_EQ(tools.find("plot_sankey"), nullptr);
}

TEST(ToolRegistry, EveryToolHasADescriptionAndAnObjectParamsSchema) {
  const ToolRegistry tools = loaded(ToolRegistry::load(core::AssetStore()));

  for (const ToolSpec& tool : tools.tools()) {
    const core::Json schema = core::Json::parse(tool.params_schema);
    EXPECT_FALSE(tool.description.empty()) << tool.name;
    EXPECT_EQ(schema["type"], "object") << tool.name;
    EXPECT_EQ(schema["properties"].size(), tool.param_names.size()) << tool.name;
    EXPECT_EQ(schema["additionalProperties"], false) << tool.name;
  }
  EXPECT_EQ(core::Json::parse(tools.find("filter_rows")->params_schema)["properties"]["value"]["type"],
            core::Json::parse(R"(["string", "number", "boolean", "null", "array"])"));
}

TEST(TemplateRegistry, MapsEveryIntentOfTheIntentContractToATemplate) {
  const core::AssetStore assets;
  const TemplateRegistry templates = loaded(TemplateRegistry::load(assets));
  std::vector<std::string> contract_intents =
      loaded(contract_labels(assets, kIntentContract, kIntentPointer));
  std::ranges::sort(contract_intents);

  EXPECT_EQ(templates.intents(), contract_intents);
  for (const std::string& intent : contract_intents)
    EXPECT_NE(templates.for_intent(intent), nullptr) << intent;
}

TEST(TemplateRegistry, TimeSeriesSelectsTheSeedsGroupedTemplate) {
  const TemplateRegistry templates = loaded(TemplateRegistry::load(core::AssetStore()));

  const PlanTemplate* chosen = templates.for_intent("time_series_investigation");

  ASSERT_NE(chosen, nullptr);
  EXPECT_EQ(chosen->name, "time_series_grouped");
  EXPECT_EQ(chosen->tools(),
            (std::vector<std::string>{"parse_datetime", "aggregate", "plot_line", "compute_summary_stats"}));
  EXPECT_FALSE(chosen->steps[2].optional);
  EXPECT_TRUE(chosen->steps[3].optional);
}

TEST(TemplateRegistry, EveryTemplateStepNamesARegisteredTool) {
  const core::AssetStore assets;
  const TemplateRegistry templates = loaded(TemplateRegistry::load(assets));
  const ToolRegistry tools = loaded(ToolRegistry::load(assets));

  for (const auto& [name, plan_template] : templates.templates()) {
    for (const std::string& tool : plan_template.tools())
      EXPECT_NE(tools.find(tool), nullptr) << name << ": " << tool;
  }
}

TEST(CapabilityMap, ResolvesAliasesToCanonicalCapabilities) {
  const CapabilityMap map = loaded(CapabilityMap::load(core::AssetStore()));

  EXPECT_EQ(map.version(), 3);
  EXPECT_EQ(map.canonical("summarize"), "summary_stats");
  EXPECT_EQ(map.canonical("time_series"), "time_series_plot");
  EXPECT_EQ(map.canonical("aggregate"), "aggregate");
  EXPECT_EQ(map.canonical("teleport"), std::nullopt);
  EXPECT_EQ(map.core_set(), (std::vector<std::string>{"aggregate", "summary_stats", "plot"}));
}

TEST(CapabilityMap, MapsSeedRulesManyToMany) {
  const CapabilityMap map = loaded(CapabilityMap::load(core::AssetStore()));

  const CapabilityRule compare = map.rule_for("analysis:compare");
  const CapabilityRule time = map.rule_for("time");
  const CapabilityRule group_by = map.rule_for("group_by");

  EXPECT_EQ(compare.all_of,
            (std::vector<std::vector<std::string>>{{"aggregate", "segment", "period_comparison"}}));
  EXPECT_EQ(time.all_of, (std::vector<std::vector<std::string>>{
                             {"datetime_parsing"}, {"time_series_plot", "time_series_features"}}));
  EXPECT_TRUE(time.names_column);
  EXPECT_TRUE(group_by.names_column);
  EXPECT_FALSE(compare.names_column);
}

TEST(CapabilityMap, AnUnmappedLabelFallsBackToTheCoreSet) {
  const CapabilityMap map = loaded(CapabilityMap::load(core::AssetStore()));

  const CapabilityRule rule = map.rule_for("analysis:forecast");

  EXPECT_TRUE(rule.core_fallback);
  EXPECT_EQ(rule.all_of, (std::vector<std::vector<std::string>>{{"aggregate", "summary_stats", "plot"}}));
}

TEST(RegistryConsistency, ShippedToolsAndContractLabelsAreAllMapped) {
  const core::AssetStore assets;
  const ToolRegistry tools = loaded(ToolRegistry::load(assets));
  const CapabilityMap map = loaded(CapabilityMap::load(assets));
  const std::vector<std::string> labels = contract_requirement_labels(assets);

  EXPECT_EQ(consistency_faults(tools, map, labels), std::vector<std::string>{});
  EXPECT_EQ(labels.size(), 3u + 9u + 3u + 3u);
}

TEST(RegistryConsistency, FailsWhenAToolDeclaresACapabilityTheMapDoesNotKnow) {
  AssetOverrides overrides;
  overrides.write("autoviz/tools.yaml",
                  "version: 1\ntools:\n  - name: plot_sankey\n    description: flows\n"
                  "    capabilities: [plot, flow_plot]\n    inputs: [df]\n    outputs: [chart]\n"
                  "    params: {type: object, properties: {}}\n");
  const core::AssetStore assets = overrides.store();
  const ToolRegistry tools = loaded(ToolRegistry::load(assets));
  const CapabilityMap map = loaded(CapabilityMap::load(assets));

  EXPECT_EQ(consistency_faults(tools, map, contract_requirement_labels(assets)),
            std::vector<std::string>{"tool plot_sankey declares unknown capability flow_plot"});
}

TEST(RegistryConsistency, FailsWhenAContractLabelHasNoMapping) {
  AssetOverrides overrides;
  overrides.write_without(CapabilityMap::kPath, "  analysis:share: {any_of: [share, composition_plot]}\n");
  const core::AssetStore assets = overrides.store();
  const ToolRegistry tools = loaded(ToolRegistry::load(assets));
  const CapabilityMap map = loaded(CapabilityMap::load(assets));

  EXPECT_EQ(consistency_faults(tools, map, contract_requirement_labels(assets)),
            std::vector<std::string>{"requirement label analysis:share has no mapping"});
}

}  // namespace
}  // namespace planfirst::autoviz
