#include "sources/metric_catalog.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace planfirst::sources {
namespace {

TEST(MetricCatalog, TheBuiltinCatalogHasTheSeedsMetricsSummaryAndLists) {
  auto catalog = MetricCatalog::load(core::AssetStore());

  ASSERT_TRUE(catalog) << catalog.error().describe();
  for (const char* name :
       {"sprint_completion_rate", "velocity", "open_bugs_by_priority", "lead_time", "throughput",
        "overdue_items", "work_in_progress", "sprint_summary", "list_open_bugs", "list_overdue_items",
        "list_sprint_issues", "list_person_issues", "list_component_issues"}) {
    const MetricEntry* entry = catalog->find(name);
    ASSERT_NE(entry, nullptr) << name;
    EXPECT_FALSE(entry->description.empty()) << name;
    EXPECT_FALSE(entry->unit.empty()) << name;
  }
  EXPECT_EQ(catalog->find("sprint_summary")->kind, "summary");
  EXPECT_EQ(catalog->find("list_person_issues")->parameter("person")->required, true);
  EXPECT_EQ(catalog->find("velocity")->parameter("sprint")->default_value, "none");
}

TEST(MetricCatalog, StemsEachPhraseAtLoad) {
  auto catalog = MetricCatalog::parse(R"(version: 1
entries:
  - name: open_bugs
    kind: metric
    description: d
    unit: u
    phrases: ["open bugs", "Bugs still opened"]
    queries:
      - id: q
        params: []
        sql: SELECT 1
)",
                                      "test.yaml");

  ASSERT_TRUE(catalog) << catalog.error().describe();
  using Words = std::vector<std::string>;
  EXPECT_EQ(catalog->entries().front().phrase_stems,
            (std::vector<Words>{Words{"open", "bug"}, Words{"bug", "still", "open"}}));
}

TEST(MetricCatalog, AQueryWhosePlaceholdersDisagreeWithItsParamsIsRefusedAtItsLine) {
  auto catalog = MetricCatalog::parse(R"(version: 1
entries:
  - name: broken
    kind: metric
    description: d
    unit: u
    phrases: [broken]
    queries:
      - id: q
        params: [reference_date]
        sql: SELECT $1, $2
)",
                                      "test.yaml");

  ASSERT_FALSE(catalog);
  EXPECT_EQ(catalog.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(catalog.error().where, "test.yaml:9");
  EXPECT_NE(catalog.error().message.find("$1..$2"), std::string::npos);
}

TEST(MetricCatalog, AnUnknownParameterIsRefused) {
  auto catalog = MetricCatalog::parse(R"(entries:
  - {name: x, kind: metric, description: d, unit: u, phrases: [x], parameters: {team: {default: none}},
     queries: [{id: q, sql: SELECT 1}]}
)",
                                      "test.yaml");

  ASSERT_FALSE(catalog);
  EXPECT_NE(catalog.error().message.find("unknown parameter 'team'"), std::string::npos);
}

TEST(MetricCatalog, AQueryMayNotBindWhatItsEntryDoesNotDeclare) {
  auto catalog = MetricCatalog::parse(R"(entries:
  - {name: x, kind: list, description: d, unit: u, phrases: [x],
     queries: [{id: q, params: [person], sql: SELECT $1}]}
)",
                                      "test.yaml");

  ASSERT_FALSE(catalog);
  EXPECT_NE(catalog.error().message.find("binds 'person'"), std::string::npos);
}

TEST(MetricCatalog, EngineVariantsReplaceTheCommonSql) {
  auto catalog = MetricCatalog::parse(R"(entries:
  - {name: x, kind: metric, description: d, unit: u, phrases: [x],
     queries: [{id: q, sql: SELECT 1, sql_postgresql: SELECT 2}]}
)",
                                      "test.yaml");

  ASSERT_TRUE(catalog) << catalog.error().describe();
  const MetricQuery& query = catalog->entries()[0].queries[0];
  EXPECT_EQ(query.sql_for("duckdb"), "SELECT 1");
  EXPECT_EQ(query.sql_for("postgresql"), "SELECT 2");
}

}  // namespace
}  // namespace planfirst::sources
