// ProjectGraphSource over a small Orbit graph in an in-memory DuckDB: question patterns pick the
// traversal, recursive SQL walks dependencies and blocks links transitively, entities are found by id
// or name, and the items are deterministic.
#include "sources/project_graph_source.hpp"

#include <gtest/gtest.h>

#include "core/asset_store.hpp"
#include "core/cancellation.hpp"
#include "core/clock.hpp"
#include "sources/field_counts.hpp"
#include "sources/graph_fixture.hpp"

namespace planfirst::sources {
namespace {

struct ProjectGraphSourceTest : ::testing::Test {
  std::unique_ptr<data::Database> db = orbit_graph_database();
  core::ManualClock clock{std::chrono::sys_days{std::chrono::year{2026} / 11 / 24}};
  std::unique_ptr<ProjectGraphSource> source = make();

  std::unique_ptr<ProjectGraphSource> make() {
    auto made = ProjectGraphSource::create(*db, core::AssetStore(), clock);
    if (!made) throw std::runtime_error(made.error().describe());
    return std::move(*made);
  }
  std::vector<EvidenceItem> ask(std::string text) {
    SourceQuery query;
    query.text = std::move(text);
    auto items = source->fetch(query, nullptr);
    if (!items) throw std::runtime_error(items.error().describe());
    return std::move(*items);
  }
};

// "id@depth" for every item, in order.
std::vector<std::string> reached(const std::vector<EvidenceItem>& items, const char* key) {
  std::vector<std::string> out;
  for (const EvidenceItem& item : items)
    out.push_back(field_value(item, key) + "@" + field_value(item, "depth"));
  return out;
}

TEST_F(ProjectGraphSourceTest, FindsEverythingThatDependsOnAComponentTransitively) {
  const auto items = ask("What depends on billing-engine?");

  EXPECT_EQ(reached(items, "component"),
            (std::vector<std::string>{"api-gateway@1", "reporting-pipeline@1", "web-dashboard@2"}));
  EXPECT_EQ(items[0].id, "neo4j:component_dependents/billing-engine/api-gateway");
  EXPECT_EQ(items[0].title, "api-gateway depends on billing-engine (1 hop(s))");
  EXPECT_EQ(field_value(items[0], "owner"), "lucas.moreau");
  EXPECT_EQ(items[0].source, "neo4j");
  EXPECT_NE(items[0].provenance.query.find("WITH RECURSIVE"), std::string::npos);
  EXPECT_NE(items[0].provenance.query.find("$1 = 'billing-engine'"), std::string::npos);
  EXPECT_EQ(items[0].provenance.locator, "duckdb status database#component_dependents");
}

TEST_F(ProjectGraphSourceTest, FindsWhatAComponentDependsOnTransitively) {
  const auto items = ask("what does web-dashboard depend on (transitively)?");

  EXPECT_EQ(reached(items, "component"),
            (std::vector<std::string>{"api-gateway@1", "auth-service@2", "billing-engine@2",
                                      "invoice-renderer@3", "payments-connector@3"}));
}

TEST_F(ProjectGraphSourceTest, RecognizesAComponentByItsName) {
  const auto items = ask("Which components are affected if the Billing Engine goes down?");

  EXPECT_EQ(reached(items, "component"),
            (std::vector<std::string>{"api-gateway@1", "reporting-pipeline@1", "web-dashboard@2"}));
}

TEST_F(ProjectGraphSourceTest, NamesTheOwnerOfAComponent) {
  const auto items = ask("Who owns payments-connector?");

  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(field_value(items[0], "owner"), "priya.raman");
  EXPECT_EQ(items[0].title, "Priya Raman (backend engineer) owns payments-connector");
}

TEST_F(ProjectGraphSourceTest, ListsTheComponentsAPersonOwns) {
  const auto items = ask("What does Ben Carter own?");

  EXPECT_EQ(reached(items, "component"),
            (std::vector<std::string>{"invoice-renderer@", "reporting-pipeline@"}));
}

TEST_F(ProjectGraphSourceTest, FindsWhatBlocksAnIssueThroughChainsOfBlocksLinks) {
  const auto items = ask("what blocks ORB-42");

  EXPECT_EQ(reached(items, "issue"), (std::vector<std::string>{"ORB-41@1", "ORB-43@1", "ORB-40@2"}));
  EXPECT_EQ(items[2].title, "ORB-40 (open) blocks ORB-42 (2 hop(s))");
}

TEST_F(ProjectGraphSourceTest, FindsWhatAnIssueBlocks) {
  const auto items = ask("Which issues are blocked by orb-40?");

  EXPECT_EQ(reached(items, "issue"), (std::vector<std::string>{"ORB-41@1", "ORB-42@2"}));
}

TEST_F(ProjectGraphSourceTest, FindsUnfinishedIssuesBlockedByOpenBugs) {
  const auto items = ask("Which issues are blocked by open bugs?");

  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].id, "neo4j:issues_blocked_by_open_bugs/*/ORB-41/ORB-40");
  EXPECT_EQ(items[1].title, "ORB-42 (open) is blocked by open bug ORB-40 (2 hop(s))");
}

TEST_F(ProjectGraphSourceTest, StopsAtTheQueryLimit) {
  SourceQuery query;
  query.text = "what does web-dashboard depend on";
  query.limit = 2;

  auto items = source->fetch(query, nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  EXPECT_EQ(items->size(), 2u);
}

TEST_F(ProjectGraphSourceTest, RefusesAQuestionNoPatternMatches) {
  SourceQuery query;
  query.text = "What is the sprint completion rate?";

  auto items = source->fetch(query, nullptr);

  ASSERT_FALSE(items.has_value());
  EXPECT_EQ(items.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(items.error().message.find("component_dependents"), std::string::npos);
}

TEST_F(ProjectGraphSourceTest, AnswersTheSameTwice) {
  const auto first = ask("what depends on payments-connector");
  const auto second = ask("what depends on payments-connector");

  ASSERT_EQ(first.size(), 4u);
  for (std::size_t i = 0; i < first.size(); ++i) {
    EXPECT_EQ(first[i].id, second[i].id);
    EXPECT_EQ(first[i].fields, second[i].fields);
  }
}

TEST(ProjectGraphSource, ReportsAMissingTableAsTheDatabaseDoes) {
  auto db = data::open_database("duckdb::memory:");
  ASSERT_TRUE(db.has_value());
  core::ManualClock clock;
  auto source = ProjectGraphSource::create(**db, core::AssetStore(), clock);
  ASSERT_TRUE(source.has_value());
  SourceQuery query;
  query.text = "who owns billing-engine";

  auto items = (*source)->fetch(query, nullptr);

  ASSERT_FALSE(items.has_value());
  EXPECT_EQ(items.error().code, core::ErrorCode::kNotFound);
}

TEST_F(ProjectGraphSourceTest, StopsWhenCancelled) {
  core::CancellationToken cancel;
  cancel.cancel();

  auto items = source->fetch(SourceQuery{}, &cancel);

  ASSERT_FALSE(items.has_value());
  EXPECT_EQ(items.error().code, core::ErrorCode::kUnavailable);
}

}  // namespace
}  // namespace planfirst::sources
