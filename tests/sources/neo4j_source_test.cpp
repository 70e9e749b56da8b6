// Neo4jSource against Neo4jTestServer: parameterized Cypher from the graph question registry sent to
// /db/neo4j/tx/commit with basic auth, answers equal to the built-in graph's for the same graph,
// refused credentials (401), Neo4j error responses, retries, and the response parser's faults.
#include "sources/neo4j_source.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/asset_store.hpp"
#include "core/clock.hpp"
#include "core/sleeper.hpp"
#include "sources/field_counts.hpp"
#include "sources/graph_fixture.hpp"
#include "sources/neo4j_response.hpp"
#include "sources/project_graph_source.hpp"
#include "support/neo4j_test_server.hpp"

namespace planfirst::sources {
namespace {

using test_support::Neo4jFixture;
using test_support::Neo4jTestServer;

const GraphQuestions& registry() {
  static const GraphQuestions questions = [] {
    auto loaded = GraphQuestions::load(core::AssetStore());
    if (!loaded) throw std::runtime_error(loaded.error().describe());
    return std::move(*loaded);
  }();
  return questions;
}

// The statement as the source sends it.
std::string sent(const std::string& cypher) {
  return nlohmann::json::parse(neo4j_request_body(cypher, {}))["statements"][0]["statement"]
      .get<std::string>();
}

std::string cypher_of(std::string_view question) {
  return sent(registry().find(question)->cypher);
}

// The Orbit graph of graph_fixture.hpp as Neo4j would answer the registry's statements about it.
std::vector<Neo4jFixture> orbit_fixtures(bool with_questions = true) {
  const auto& entities = registry().entity_queries();
  std::vector<Neo4jFixture> fixtures = {
      {sent(entities[0].cypher),
       {},
       {"id", "name"},
       {R"(["api-gateway", "API Gateway"])", R"(["auth-service", "Auth Service"])",
        R"(["billing-engine", "Billing Engine"])", R"(["invoice-renderer", "Invoice Renderer"])",
        R"(["payments-connector", "Payments Connector"])", R"(["reporting-pipeline", "Reporting Pipeline"])",
        R"(["web-dashboard", "Web Dashboard"])"}},
      {sent(entities[1].cypher),
       {},
       {"id", "name"},
       {R"(["aiko.tanaka", "Aiko Tanaka"])", R"(["ben.carter", "Ben Carter"])",
        R"(["daniel.okafor", "Daniel Okafor"])", R"(["lucas.moreau", "Lucas Moreau"])",
        R"(["maya.chen", "Maya Chen"])", R"(["priya.raman", "Priya Raman"])",
        R"(["sofia.alvarez", "Sofia Alvarez"])", R"(["tomasz.nowak", "Tomasz Nowak"])"}},
  };
  if (!with_questions) return fixtures;
  fixtures.push_back({cypher_of("component_dependents"),
                      {{"id", "billing-engine"}},
                      {"component", "name", "owner", "depth"},
                      {R"(["api-gateway", "API Gateway", "lucas.moreau", 1])",
                       R"(["reporting-pipeline", "Reporting Pipeline", "ben.carter", 1])",
                       R"(["web-dashboard", "Web Dashboard", "sofia.alvarez", 2])"}});
  fixtures.push_back({cypher_of("issue_blockers"),
                      {{"id", "ORB-42"}},
                      {"issue", "title", "type", "priority", "status", "depth"},
                      {R"(["ORB-41", "Refund ledger export", "story", "P2", "in_progress", 1])",
                       R"(["ORB-43", "Refund API contract", "task", "P3", "done", 1])",
                       R"(["ORB-40", "Webhook retries double-apply refunds", "bug", "P1", "open", 2])"}});
  fixtures.push_back(
      {cypher_of("component_owner"),
       {{"id", "payments-connector"}},
       {"component", "name", "owner", "owner_name", "role"},
       {R"(["payments-connector", "Payments Connector", "priya.raman", "Priya Raman", "backend engineer"])"}});
  return fixtures;
}

struct Neo4jSourceTest : ::testing::Test {
  Neo4jTestServer server{orbit_fixtures()};
  core::RecordingSleeper sleeper;
  core::ManualClock clock{std::chrono::sys_days{std::chrono::year{2026} / 11 / 24}};
  core::Environment env{{"NEO4J_USER", Neo4jTestServer::kUser},
                        {"NEO4J_PASSWORD", Neo4jTestServer::kPassword}};

  Neo4jOptions options() const {
    Neo4jOptions o;
    o.base_url = server.base_url();
    o.http.jitter = 0.0;
    o.http.max_retries = 2;
    return o;
  }
  std::unique_ptr<Neo4jSource> source(Neo4jOptions o) {
    auto made = Neo4jSource::create(std::move(o), core::AssetStore(), clock, sleeper, env);
    if (!made) throw std::runtime_error(made.error().describe());
    return std::move(*made);
  }
  std::unique_ptr<Neo4jSource> source() { return source(options()); }
};

SourceQuery ask(std::string text) {
  SourceQuery query;
  query.text = std::move(text);
  return query;
}

TEST_F(Neo4jSourceTest, SendsParameterizedCypherToTheCommitEndpointWithBasicAuth) {
  auto items = source()->fetch(ask("What depends on billing-engine?"), nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  const auto requests = server.requests();
  ASSERT_EQ(requests.size(), 3u);  // components, people, the question
  for (const auto& request : requests) {
    EXPECT_EQ(request.method, "POST");
    EXPECT_EQ(request.path, "/db/neo4j/tx/commit");
    EXPECT_EQ(request.header("Authorization"), Neo4jTestServer::basic_auth("neo4j", "orbit-test-password"));
  }
  const auto body = nlohmann::json::parse(requests[2].body);
  EXPECT_EQ(body["statements"][0]["parameters"], nlohmann::json({{"id", "billing-engine"}}));
  const std::string statement = body["statements"][0]["statement"];
  EXPECT_NE(statement.find("[:DEPENDS_ON*1..16]->(:Component {id: $id})"), std::string::npos);
  EXPECT_EQ(statement.find('\n'), std::string::npos);
  EXPECT_EQ(items->front().provenance.locator, server.base_url() + "/db/neo4j#component_dependents");
}

TEST_F(Neo4jSourceTest, AnswersLikeTheBuiltInGraphForTheSameGraph) {
  auto db = orbit_graph_database();
  auto builtin = ProjectGraphSource::create(*db, core::AssetStore(), clock);
  ASSERT_TRUE(builtin.has_value());
  const auto neo4j = source();

  for (const char* question :
       {"What depends on billing-engine?", "what blocks ORB-42", "Who owns the payments connector?"}) {
    auto remote = neo4j->fetch(ask(question), nullptr);
    auto local = (*builtin)->fetch(ask(question), nullptr);

    ASSERT_TRUE(remote.has_value()) << question << ": " << remote.error().describe();
    ASSERT_TRUE(local.has_value()) << question << ": " << local.error().describe();
    ASSERT_EQ(remote->size(), local->size()) << question;
    for (std::size_t i = 0; i < remote->size(); ++i) {
      EXPECT_EQ((*remote)[i].id, (*local)[i].id) << question;
      EXPECT_EQ((*remote)[i].title, (*local)[i].title) << question;
      EXPECT_EQ((*remote)[i].fields, (*local)[i].fields) << question;
    }
  }
}

TEST_F(Neo4jSourceTest, ExplainsRefusedCredentials) {
  env["NEO4J_PASSWORD"] = "wrong";

  auto items = source()->fetch(ask("What depends on billing-engine?"), nullptr);

  ASSERT_FALSE(items.has_value());
  EXPECT_EQ(items.error().code, core::ErrorCode::kFailedPrecondition);
  EXPECT_NE(items.error().message.find("$NEO4J_USER"), std::string::npos) << items.error().describe();
  EXPECT_EQ(server.requests().size(), 1u);  // a refusal is not retried
}

TEST_F(Neo4jSourceTest, SendsNoCredentialsWhenNoneAreConfiguredAndIsRefused) {
  env.clear();

  auto items = source()->fetch(ask("What depends on billing-engine?"), nullptr);

  ASSERT_FALSE(items.has_value());
  EXPECT_EQ(items.error().code, core::ErrorCode::kFailedPrecondition);
  EXPECT_EQ(server.requests()[0].header("Authorization"), "");
}

TEST_F(Neo4jSourceTest, RefusesAUserWithoutAPassword) {
  env.erase("NEO4J_PASSWORD");

  auto made = Neo4jSource::create(options(), core::AssetStore(), clock, sleeper, env);

  ASSERT_FALSE(made.has_value());
  EXPECT_EQ(made.error().code, core::ErrorCode::kFailedPrecondition);
  EXPECT_NE(made.error().message.find("NEO4J_PASSWORD"), std::string::npos);
}

TEST(Neo4jSource, ReportsNeo4jErrorsFromTheErrorsArray) {
  Neo4jTestServer server(orbit_fixtures(/*with_questions=*/false));
  core::RecordingSleeper sleeper;
  core::ManualClock clock;
  const core::Environment env{{"NEO4J_USER", Neo4jTestServer::kUser},
                              {"NEO4J_PASSWORD", Neo4jTestServer::kPassword}};
  Neo4jOptions options;
  options.base_url = server.base_url();
  auto source = Neo4jSource::create(options, core::AssetStore(), clock, sleeper, env);
  ASSERT_TRUE(source.has_value());

  auto items = (*source)->fetch(ask("what does web-dashboard depend on"), nullptr);

  ASSERT_FALSE(items.has_value());
  EXPECT_EQ(items.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(items.error().message.find("Neo.ClientError.Statement.SyntaxError"), std::string::npos);
  EXPECT_EQ(items.error().where, server.base_url() + "/db/neo4j/tx/commit");
}

TEST_F(Neo4jSourceTest, NamesAnUnknownDatabase) {
  Neo4jOptions o = options();
  o.database = "orbit";

  auto items = source(o)->fetch(ask("who owns payments-connector"), nullptr);

  ASSERT_FALSE(items.has_value());
  EXPECT_EQ(items.error().code, core::ErrorCode::kNotFound);
}

TEST_F(Neo4jSourceTest, RetriesAServerErrorThenAnswers) {
  server.rest().fail_next(1, 503);

  auto items = source()->fetch(ask("who owns payments-connector"), nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  ASSERT_EQ(items->size(), 1u);
  EXPECT_EQ(field_value(items->front(), "owner"), "priya.raman");
  EXPECT_EQ(sleeper.sleeps().size(), 1u);
}

TEST_F(Neo4jSourceTest, AnswersNothingForAnEntityTheGraphLacks) {
  auto items = source()->fetch(ask("what blocks ORB-999"), nullptr);

  ASSERT_TRUE(items.has_value()) << items.error().describe();
  EXPECT_TRUE(items->empty());
}

TEST(Neo4jSource, ParsesRowsAndNamesMalformedParts) {
  auto rows = parse_neo4j_response(
      R"({"results":[{"columns":["a","n","b","x"],"data":[{"row":["s",2,true,null],"meta":[]}]}],"errors":[]})",
      "u");
  ASSERT_TRUE(rows.has_value()) << rows.error().describe();
  EXPECT_EQ(rows->rows[0], (std::vector<std::string>{"s", "2", "true", ""}));

  auto short_row = parse_neo4j_response(R"({"results":[{"columns":["a","b"],"data":[{"row":["s"]}]}]})", "u");
  ASSERT_FALSE(short_row.has_value());
  EXPECT_EQ(short_row.error().where, "u/results/0/data/0/row");

  auto security = parse_neo4j_response(
      R"({"results":[],"errors":[{"code":"Neo.ClientError.Security.Forbidden","message":"no"}]})", "u");
  ASSERT_FALSE(security.has_value());
  EXPECT_EQ(security.error().code, core::ErrorCode::kFailedPrecondition);

  auto transient = parse_neo4j_response(
      R"({"results":[],"errors":[{"code":"Neo.TransientError.Transaction.DeadlockDetected","message":"retry"}]})",
      "u");
  ASSERT_FALSE(transient.has_value());
  EXPECT_EQ(transient.error().code, core::ErrorCode::kUnavailable);

  EXPECT_FALSE(parse_neo4j_response("not json", "u").has_value());
}

}  // namespace
}  // namespace planfirst::sources
