// GraphQuestions: the registry loads, every question's SQL runs on the status schema, and phrasings
// of a question pick it with the entity they name (by id, by name, or as an issue key).
#include "sources/graph_questions.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "core/asset_store.hpp"
#include "sources/graph_fixture.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::sources {
namespace {

GraphQuestions load() {
  auto loaded = GraphQuestions::load(core::AssetStore());
  if (!loaded) throw std::runtime_error(loaded.error().describe());
  return std::move(*loaded);
}

const GraphEntities kEntities = {
    {"component",
     {{"billing-engine", "Billing Engine"},
      {"web-dashboard", "Web Dashboard"},
      {"payments-connector", "Payments Connector"}}},
    {"person", {{"ben.carter", "Ben Carter"}, {"maya.chen", "Maya Chen"}}},
};

TEST(GraphQuestions, EveryStatementRunsOnTheStatusDatabaseSchema) {
  const GraphQuestions questions = load();
  auto db = orbit_graph_database();

  for (const GraphQuestion& question : questions.questions()) {
    std::vector<data::Value> params;
    if (question.entity == "component") params.emplace_back("billing-engine");
    if (question.entity == "person") params.emplace_back("ben.carter");
    if (question.entity == "issue") params.emplace_back("ORB-42");

    auto rows = db->query(question.sql, params);

    ASSERT_TRUE(rows.has_value()) << question.id << ": " << rows.error().describe();
    for (const std::string& key : question.key_columns)
      EXPECT_NE(rows->find_column(key), nullptr) << question.id;
  }
  for (const GraphEntityQuery& entity : questions.entity_queries()) {
    auto rows = db->query(entity.sql);
    ASSERT_TRUE(rows.has_value()) << entity.type << ": " << rows.error().describe();
    EXPECT_EQ(rows->column_count(), 2u);
  }
}

TEST(GraphQuestions, PicksTheQuestionAndEntityAPhrasingNames) {
  const GraphQuestions questions = load();
  const std::pair<const char*, const char*> cases[] = {
      {"What depends on billing-engine?", "component_dependents/billing-engine"},
      {"what would break if the billing engine goes down", "component_dependents/billing-engine"},
      {"Blast radius of payments-connector", "component_dependents/payments-connector"},
      {"What does web-dashboard depend on, transitively?", "component_dependencies/web-dashboard"},
      {"list the dependencies of the Web Dashboard", "component_dependencies/web-dashboard"},
      {"Does web-dashboard depend on billing-engine?", "component_dependencies/web-dashboard"},
      {"Who owns payments-connector?", "component_owner/payments-connector"},
      {"who is the owner of Billing Engine", "component_owner/billing-engine"},
      {"Which components does Ben Carter own?", "owned_components/ben.carter"},
      {"what is owned by maya.chen", "owned_components/maya.chen"},
      {"What blocks ORB-42?", "issue_blockers/ORB-42"},
      {"is orb-42 blocked?", "issue_blockers/ORB-42"},
      {"What does ORB-40 block?", "issue_blocked/ORB-40"},
      {"which issues are waiting on ORB-40", "issue_blocked/ORB-40"},
      {"Which issues are blocked by open bugs?", "issues_blocked_by_open_bugs/"},
  };
  for (const auto& [text, expected] : cases) {
    const auto match = questions.match(text, kEntities);

    ASSERT_TRUE(match.has_value()) << text;
    EXPECT_EQ(match->question->id + "/" + match->entity_id, expected) << text;
  }
}

TEST(GraphQuestions, MatchesNothingWithoutTheEntityAPatternNeeds) {
  const GraphQuestions questions = load();

  EXPECT_FALSE(questions.match("what depends on the weather", kEntities).has_value());
  EXPECT_FALSE(questions.match("who owns {component}", kEntities).has_value());
  EXPECT_FALSE(questions.match("", kEntities).has_value());
}

TEST(GraphQuestions, AnIssueKeyPatternThatIsNoRegularExpressionIsRefusedAtLoad) {
  const test_support::TempDir overrides;
  std::filesystem::create_directories(overrides.path() / "sources");
  overrides.write("sources/graph_questions.yaml", "entities:\n  - type: issue\n    key_pattern: \"[a-\"\n");

  const core::Result<GraphQuestions> loaded = GraphQuestions::load(core::AssetStore(overrides.path()));

  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_TRUE(loaded.error().message.starts_with("entity issue: key_pattern is no regular expression"))
      << loaded.error().message;
  EXPECT_TRUE(loaded.error().where.ends_with("graph_questions.yaml:3")) << loaded.error().where;
}

TEST(GraphQuestions, KeepsIdsAndKeysWholeAsWords) {
  EXPECT_EQ(graph_question_words("Who owns billing-engine? (maya.chen, ORB-42.)"),
            (std::vector<std::string>{"who", "owns", "billing-engine", "maya.chen", "orb-42"}));
}

}  // namespace
}  // namespace planfirst::sources
