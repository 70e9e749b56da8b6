// The engine profiles of assets/sqlopt/engine_profiles.json: every entry pinned, every gate at its
// boundary, and every strength claim checked on a plan of the real engine (DuckDB embedded, the
// throwaway PostgreSQL).
#include "pipelines/sqlopt/engine_profile.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "data/duckdb_database.hpp"
#include "data/postgres_database.hpp"
#include "pipelines/sqlopt/analysis.hpp"
#include "pipelines/sqlopt/optimizer.hpp"
#include "pipelines/sqlopt/plan_reader.hpp"
#include "retail_fixture.hpp"

namespace planfirst::sqlopt {
namespace {

using testing::read_source;

SqlKnowledge knowledge() {
  return *SqlKnowledge::load(core::AssetStore());
}

std::vector<std::string> ids_of(const auto& entries) {
  std::vector<std::string> ids;
  for (const auto& entry : entries) ids.push_back(entry.id + ":" + entry.transform);
  return ids;
}

std::vector<std::string> transforms_of(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (const Finding& f : findings) out.push_back(f.transform);
  return out;
}

bool contains(const std::vector<std::string>& items, const std::string& item) {
  return std::find(items.begin(), items.end(), item) != items.end();
}

LogicTree logic_of(const std::string& sql) {
  core::Result<LogicTree> logic = build_logic_tree(sql);
  EXPECT_TRUE(logic.has_value()) << logic.error().describe();
  return logic ? std::move(*logic) : LogicTree{};
}

Analysis analyze(const std::string& plan_json, const std::string& sql = "",
                 const SqlKnowledge& k = knowledge()) {
  core::Result<PlanTree> plan = read_plan(core::Json::parse(plan_json));
  EXPECT_TRUE(plan.has_value()) << plan.error().describe();
  return analyze_plan(std::move(*plan), sql.empty() ? LogicTree{} : logic_of(sql), k);
}

TEST(EngineProfiles, PinsEveryEntryOfTheAsset) {
  const EngineProfiles profiles = knowledge().profiles;
  const EngineProfile& pg = profiles.of(Engine::kPostgres);
  const EngineProfile& duck = profiles.of(Engine::kDuckDb);

  EXPECT_EQ(pg.version, "15");
  EXPECT_EQ(pg.version_tested, "15.18");
  EXPECT_EQ(duck.version, "1.4");
  EXPECT_EQ(duck.version_tested, "1.4.4");
  EXPECT_EQ(
      ids_of(pg.strengths),
      (std::vector<std::string>{"sublink_pull_up:decorrelation", "cte_inlining:global_predicate_pushdown",
                                "equivalence_classes:transitive_predicate_propagation"}));
  EXPECT_EQ(pg.strengths[0].sublinks, (std::vector<std::string>{"EXISTS", "NOT EXISTS"}));
  EXPECT_EQ(pg.strengths[1].max_cte_references, 1);
  EXPECT_EQ(ids_of(duck.strengths),
            (std::vector<std::string>{"cte_inlining:global_predicate_pushdown",
                                      "equivalence_classes:transitive_predicate_propagation"}));
  EXPECT_EQ(duck.strengths[0].max_cte_references, 1);
  EXPECT_EQ(ids_of(pg.gaps), (std::vector<std::string>{"correlated_scalar_subplan:decorrelation",
                                                       "exists_under_or:exists_restructuring",
                                                       "one_scan_per_scalar_subquery:single_pass_aggregation",
                                                       "materialized_shared_cte:global_predicate_pushdown",
                                                       "union_sorts_for_duplicates:union_consolidation"}));
  EXPECT_EQ(ids_of(duck.gaps),
            (std::vector<std::string>{"delim_join_decorrelation:decorrelation",
                                      "exists_under_or:exists_restructuring",
                                      "one_scan_per_scalar_subquery:single_pass_aggregation",
                                      "materialized_shared_cte:global_predicate_pushdown",
                                      "union_hashes_for_duplicates:union_consolidation"}));
  ASSERT_EQ(pg.regressions.size(), 1u);
  EXPECT_EQ(pg.regressions[0].id, "decorrelation_few_outer_rows");
  EXPECT_EQ(pg.regressions[0].rule, "scalar_aggregate_to_join");
  EXPECT_EQ(pg.regressions[0].example, "queries/regression_decorrelation_few_rows.sql");
  EXPECT_TRUE(duck.regressions.empty());
  EXPECT_FALSE(pg.discovery_mode());
  EXPECT_FALSE(duck.discovery_mode());
}

TEST(EngineProfiles, NamesTheFieldOfAMalformedProfile) {
  core::Json json = core::Json::parse(read_source("assets/sqlopt/engine_profiles.json"));
  json["postgresql"]["strengths"][1]["transform"] = "make_it_fast";

  const core::Result<EngineProfiles> profiles = EngineProfiles::from_json(json);

  ASSERT_FALSE(profiles.has_value());
  EXPECT_EQ(profiles.error().where, "/postgresql/strengths/1/transform");
  EXPECT_EQ(profiles.error().message, "not a transform of the catalog");
}

TEST(EngineProfiles, TellsWhenTheRunningVersionDiffersFromTheProfiledOne) {
  const EngineProfiles profiles = knowledge().profiles;
  const EngineProfile& pg = profiles.of(Engine::kPostgres);
  const EngineProfile& duck = profiles.of(Engine::kDuckDb);

  EXPECT_TRUE(pg.matches_version("15.18 (Debian 15.18-0+deb12u1)"));
  EXPECT_TRUE(pg.matches_version("15.2"));
  EXPECT_FALSE(pg.matches_version("16.4"));
  EXPECT_FALSE(pg.matches_version("150.1"));
  EXPECT_TRUE(duck.matches_version("v1.4.4"));
  EXPECT_FALSE(duck.matches_version("v1.5.0"));
  EXPECT_FALSE(duck.matches_version("v1.40.0"));

  Analysis analysis = analyze(R"([{"Plan": {"Node Type": "Result", "Plan Rows": 1, "Actual Rows": 1}}])");
  analysis.running_version = "16.4 (Debian)";
  EXPECT_EQ(analysis.profile_text(),
            "Engine profile: PostgreSQL 15 (entries verified on 15.18); this database runs 16.4\n"
            "Note: the running version 16.4 differs from the profiled PostgreSQL 15: its strengths, gaps and "
            "known regressions may not hold here.\n");
  analysis.running_version = "15.18 (Debian)";
  EXPECT_EQ(analysis.profile_text(),
            "Engine profile: PostgreSQL 15 (entries verified on 15.18); this database runs 15.18\n");
  EXPECT_EQ(analysis.to_json()["engine_profile"]["version_matches"], true);
}

// A PostgreSQL hash join estimated at 10 rows that produced `rows`.
std::string misestimated_join(int rows) {
  return fmt::format(R"([{{"Plan": {{"Node Type": "Hash Join", "Plan Rows": 10, "Actual Rows": {}, "Plans": [
    {{"Node Type": "Seq Scan", "Relation Name": "orders", "Plan Rows": {}, "Actual Rows": {}}},
    {{"Node Type": "Seq Scan", "Relation Name": "customers", "Plan Rows": 5, "Actual Rows": 5}}]}}}}])",
                     rows, rows, rows);
}

TEST(EngineProfiles, GatesTheQErrorRouteOnTheRowsOfTheMisestimatedOperator) {
  EXPECT_EQ(transforms_of(analyze(misestimated_join(1000)).findings),
            std::vector<std::string>{"aggregate_pushdown"});
  EXPECT_TRUE(analyze(misestimated_join(999)).findings.empty());
}

// A PostgreSQL hash join estimated at 100,000 rows that produced 2,000: OVER at JOIN.
constexpr const char* kOverJoin = R"([{"Plan": {"Node Type": "Hash Join", "Plan Rows": 100000,
  "Actual Rows": 2000, "Plans": [
  {"Node Type": "Seq Scan", "Relation Name": "orders", "Plan Rows": 2000, "Actual Rows": 2000},
  {"Node Type": "Seq Scan", "Relation Name": "customers", "Plan Rows": 5, "Actual Rows": 5}]}}])";

TEST(EngineProfiles, RanksATransformTheOptimizerDoesItselfLastAmongTheRoutes) {
  SqlKnowledge without = knowledge();
  core::Json json = core::Json::parse(read_source("assets/sqlopt/engine_profiles.json"));
  json["postgresql"]["strengths"].erase(2);
  without.profiles = *EngineProfiles::from_json(json);

  EXPECT_EQ(transforms_of(analyze(kOverJoin).findings), std::vector<std::string>{"star_join_prefetch"});
  EXPECT_EQ(transforms_of(analyze(kOverJoin, "", without).findings),
            std::vector<std::string>{"transitive_predicate_propagation"});
}

// A DuckDB hash join estimated at 0 rows that produced 5,000: ZERO at JOIN, routed to decorrelation,
// on a plan with no subquery at all.
constexpr const char* kZeroJoin =
    R"({"children": [{"operator_type": "HASH_JOIN", "operator_cardinality": 5000,
  "operator_timing": 0.001, "extra_info": {"Join Type": "INNER", "Conditions": "customer_id = customer_id",
  "Estimated Cardinality": "0"}, "children": [
  {"operator_type": "TABLE_SCAN", "operator_cardinality": 5000, "operator_timing": 0.001,
   "extra_info": {"Table": "orders", "Estimated Cardinality": "5000"}, "children": []},
  {"operator_type": "TABLE_SCAN", "operator_cardinality": 100, "operator_timing": 0.001,
   "extra_info": {"Table": "customers", "Estimated Cardinality": "100"}, "children": []}]}]})";

TEST(EngineProfiles, MarksNoKnownGapOnAFindingOnlyTheQErrorRouteNamed) {
  const Analysis analysis =
      analyze(kZeroJoin, "SELECT o.order_id FROM orders o JOIN customers c ON c.customer_id = o.customer_id");

  ASSERT_EQ(transforms_of(analysis.findings), std::vector<std::string>{"decorrelation"});
  EXPECT_FALSE(analysis.to_json()["findings"][0].contains("engine_gap"))
      << analysis.to_json()["findings"].dump();
  EXPECT_EQ(analysis.to_text().find("known gap"), std::string::npos) << analysis.to_text();
}

// ORDER BY ... LIMIT over a join whose sort `rows` joined rows enter.
std::string sorted_join(int rows) {
  return fmt::format(R"([{{"Plan": {{"Node Type": "Limit", "Plan Rows": 10, "Actual Rows": 10, "Plans": [
    {{"Node Type": "Sort", "Plan Rows": {}, "Actual Rows": 10, "Plans": [
    {{"Node Type": "Hash Join", "Plan Rows": {}, "Actual Rows": {}}}]}}]}}}}])",
                     rows, rows, rows);
}

TEST(EngineProfiles, GatesLateAttributeBindingOnTheRowsEnteringTheSort) {
  const std::string sql =
      "SELECT o.order_id, c.region FROM orders o JOIN customers c ON c.customer_id = o.customer_id "
      "ORDER BY o.amount DESC LIMIT 10";

  EXPECT_TRUE(contains(transforms_of(analyze(sorted_join(10000), sql).findings), "late_attribute_binding"));
  EXPECT_FALSE(contains(transforms_of(analyze(sorted_join(9999), sql).findings), "late_attribute_binding"));
}

TEST(EngineProfiles, GatesSinglePassAggregationOnTheNumberOfSubqueries) {
  const std::string one = "SELECT (SELECT SUM(amount) FROM orders WHERE channel = 'online') AS a";
  const std::string two =
      "SELECT (SELECT SUM(amount) FROM orders WHERE channel = 'online') AS a, "
      "(SELECT SUM(amount) FROM orders WHERE channel = 'store') AS b";
  const std::string plan = R"([{"Plan": {"Node Type": "Result", "Plan Rows": 1, "Actual Rows": 1}}])";

  EXPECT_TRUE(contains(transforms_of(analyze(plan, two).findings), "single_pass_aggregation"));
  EXPECT_FALSE(contains(transforms_of(analyze(plan, one).findings), "single_pass_aggregation"));
}

TEST(EngineProfiles, LeavesACteNamedOnceToTheOptimizer) {
  const std::string sql =
      "WITH t AS (SELECT customer_id, SUM(amount) AS total FROM orders GROUP BY customer_id) "
      "SELECT * FROM t WHERE customer_id = 42";
  const std::string plan = R"([{"Plan": {"Node Type": "Result", "Plan Rows": 1, "Actual Rows": 1}}])";

  const Analysis analysis = analyze(plan, sql);

  EXPECT_FALSE(contains(transforms_of(analysis.findings), "global_predicate_pushdown"));
  ASSERT_EQ(analysis.left_to_optimizer.size(), 1u);
  EXPECT_EQ(analysis.left_to_optimizer[0].strength, "cte_inlining");
  EXPECT_EQ(analysis.left_to_optimizer[0].node, "cte:t");
}

TEST(EngineProfiles, KnowsTheRegressionShapeByTheLoopsOfTheSubPlan) {
  const KnownRegression known = knowledge().profiles.of(Engine::kPostgres).regressions.at(0);
  auto subplan_ran = [](int loops) {
    return *read_plan(core::Json::parse(fmt::format(R"([{{"Plan": {{"Node Type": "Seq Scan",
      "Plan Rows": 1, "Actual Rows": 1, "Plans": [{{"Node Type": "Aggregate", "Parent Relationship": "SubPlan",
      "Plan Rows": 1, "Actual Rows": 1, "Actual Loops": {}}}]}}}}])",
                                                    loops)));
  };

  EXPECT_TRUE(known.matches(subplan_ran(1)));
  EXPECT_TRUE(known.matches(subplan_ran(2)));
  EXPECT_FALSE(known.matches(subplan_ran(3)));
}

// ---- on the real engines ------------------------------------------------------------------------

class ProfileOnEngine : public ::testing::TestWithParam<std::string> {
 protected:
  Engine engine() const { return GetParam() == "duckdb" ? Engine::kDuckDb : Engine::kPostgres; }
  SqlSession open() const {
    core::Result<SqlSession> session = SqlSession::open(
        GetParam() == "duckdb" ? testing::retail_duckdb_uri() : testing::retail_postgres_uri());
    EXPECT_TRUE(session.has_value()) << session.error().describe();
    return std::move(*session);
  }
  PlanTree plan_of(const std::string& sql) const {
    SqlSession session = open();
    core::Result<PlanTree> plan = session.explain_analyze(sql);
    EXPECT_TRUE(plan.has_value()) << plan.error().describe();
    return plan ? std::move(*plan) : PlanTree{};
  }
  const std::string& kind(const core::Json& query) const {
    const core::Json& kind = query["kind"];
    return kind.is_object() ? kind[GetParam()].get_ref<const std::string&>()
                            : kind.get_ref<const std::string&>();
  }
};

bool runs_per_outer_row(const PlanTree& plan) {
  return std::any_of(plan.nodes.begin(), plan.nodes.end(), [](const PlanNode& n) {
    return n.relationship == "SubPlan" || n.op == "DELIM_SCAN" ||
           n.op.find("DELIM_JOIN") != std::string::npos;
  });
}

// The filters (and index conditions) of the scans of `table`, joined, without blanks and parentheses.
std::string filters_on(const PlanTree& plan, const std::string& table) {
  std::string out;
  for (const PlanNode& n : plan.nodes)
    if (n.table.starts_with(table)) out += n.filter + " | ";
  std::erase_if(out, [](char c) { return c == ' ' || c == '(' || c == ')'; });
  return out;
}

TEST_P(ProfileOnEngine, EachStrengthHoldsOnAPlanOfTheEngine) {
  const SqlKnowledge k = knowledge();
  const EngineProfile& profile = k.profiles.of(engine());
  for (const Strength& strength : profile.strengths) {
    SCOPED_TRACE(strength.id);
    if (strength.id == "sublink_pull_up") {
      for (const char* sql :
           {"SELECT c.customer_id FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id "
            "= "
            "c.customer_id AND o.status = 'returned')",
            "SELECT c.customer_id FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE "
            "o.customer_id = c.customer_id)"}) {
        EXPECT_FALSE(runs_per_outer_row(plan_of(sql))) << sql;
      }
    } else if (strength.id == "cte_inlining") {
      const PlanTree plan = plan_of(read_source("examples/sqlopt/queries/control_cte_once.sql"));
      for (const PlanNode& n : plan.nodes) EXPECT_TRUE(n.op != "CTE Scan" && n.op != "CTE_SCAN") << n.op;
      EXPECT_NE(filters_on(plan, "orders").find("customer_id=42"), std::string::npos)
          << filters_on(plan, "orders");
    } else if (strength.id == "equivalence_classes") {
      const PlanTree plan = plan_of(
          "SELECT o.order_id FROM orders o JOIN customers c ON c.customer_id = o.customer_id WHERE "
          "c.customer_id = 42");
      EXPECT_NE(filters_on(plan, "orders").find("customer_id=42"), std::string::npos)
          << filters_on(plan, "orders");
    } else {
      ADD_FAILURE() << "a strength without a check on the engine";
    }
  }
}

TEST_P(ProfileOnEngine, EveryGapIsAPlantedSlowQueryAndEverySlowQueryAGap) {
  const SqlKnowledge k = knowledge();
  const EngineProfile& profile = k.profiles.of(engine());
  const core::Json manifest = core::Json::parse(read_source("examples/sqlopt/queries.json"));
  std::vector<std::string> slow;
  for (const core::Json& query : manifest["queries"]) {
    if (kind(query) != "slow") continue;
    slow.push_back(query["file"].get<std::string>() + ":" + query["transform"].get<std::string>());
    EXPECT_NE(profile.gap_for(query["transform"]), nullptr) << query.dump();
  }
  for (const Gap& gap : profile.gaps)
    EXPECT_TRUE(contains(slow, gap.example + ":" + gap.transform)) << gap.id;
}

TEST_P(ProfileOnEngine, EachGapsExampleIsFoundMarkedAndRewrittenByItsRule) {
  const SqlKnowledge k = knowledge();
  SqlSession session = open();
  for (const Gap& gap : k.profiles.of(engine()).gaps) {
    SCOPED_TRACE(gap.id);
    const core::Result<Optimization> result =
        optimize_query(session, read_source("examples/sqlopt/" + gap.example), k);
    ASSERT_TRUE(result.has_value()) << result.error().describe();
    const core::Json json = result->to_json();
    bool marked = false;
    for (const core::Json& finding : json["findings"])
      marked |= finding.contains("engine_gap") && finding["engine_gap"]["id"] == gap.id;
    EXPECT_TRUE(marked) << json["findings"].dump();
    bool rewritten = false;
    for (const Candidate& c : result->candidates)
      rewritten |= c.rewrite.rule == gap.rule && c.validation.equivalence.equal;
    EXPECT_TRUE(rewritten);
  }
}

TEST_P(ProfileOnEngine, ReportsTheVersionTheEngineItselfReports) {
  SqlSession session = open();
  const core::Result<std::string> version = session.server_version();
  ASSERT_TRUE(version.has_value()) << version.error().describe();
  if (engine() == Engine::kDuckDb) {
    auto duck = data::DuckDbDatabase::open(":memory:");
    ASSERT_TRUE(duck.has_value());
    const auto rows = (*duck)->query("SELECT library_version FROM pragma_version()");
    ASSERT_TRUE(rows.has_value());
    EXPECT_EQ(*version, rows->at(0, 0).to_string());
  } else {
    auto db = data::PostgresDatabase::connect(testing::retail_postgres_uri());
    ASSERT_TRUE(db.has_value());
    const auto rows = (*db)->query("SELECT current_setting('server_version')");
    ASSERT_TRUE(rows.has_value());
    EXPECT_EQ(*version, rows->at(0, 0).to_string());
  }
  EXPECT_TRUE(knowledge().profiles.of(engine()).matches_version(*version)) << *version;
}

INSTANTIATE_TEST_SUITE_P(BothEngines, ProfileOnEngine, ::testing::Values("duckdb", "postgresql"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

TEST(ProfileOnPostgres, LeavesATopLevelExistsToTheOptimizer) {
  core::Result<SqlSession> session = SqlSession::open(testing::retail_postgres_uri());
  ASSERT_TRUE(session.has_value());

  const core::Result<Optimization> result =
      optimize_query(*session, read_source("examples/sqlopt/queries/exists_top_level.sql"), knowledge());

  ASSERT_TRUE(result.has_value()) << result.error().describe();
  EXPECT_FALSE(contains(transforms_of(result->analysis.findings), "decorrelation"));
  ASSERT_EQ(result->analysis.left_to_optimizer.size(), 1u);
  EXPECT_EQ(result->analysis.left_to_optimizer[0].strength, "sublink_pull_up");
  EXPECT_TRUE(result->candidates.empty());
}

// The strength cte_inlining holds for a CTE PostgreSQL inlines, not for one named once that the
// query tells it to materialize: the plan has the CTE Scan, and the outer filter runs after it.
TEST(ProfileOnPostgres, LeavesToTheOptimizerOnlyACteItInlined) {
  core::Result<SqlSession> session = SqlSession::open(testing::retail_postgres_uri());
  ASSERT_TRUE(session.has_value());
  const std::string sql =
      "WITH t AS MATERIALIZED (SELECT customer_id, SUM(amount) AS total FROM orders GROUP BY customer_id) "
      "SELECT * FROM t WHERE customer_id = 42";

  const core::Result<PlanTree> plan = session->explain_analyze(sql);
  ASSERT_TRUE(plan.has_value()) << plan.error().describe();
  const Analysis analysis = analyze_plan(*plan, logic_of(sql), knowledge());

  EXPECT_TRUE(std::any_of(plan->nodes.begin(), plan->nodes.end(),
                          [](const PlanNode& n) { return n.op == "CTE Scan" && n.cte_name == "t"; }));
  EXPECT_TRUE(analysis.left_to_optimizer.empty()) << analysis.to_text();
  EXPECT_TRUE(contains(transforms_of(analysis.findings), "global_predicate_pushdown")) << analysis.to_text();
}

TEST(ProfileOnPostgres, DoesNotProposeARewriteOfTheRegressionRegistry) {
  core::Result<SqlSession> session = SqlSession::open(testing::retail_postgres_uri());
  ASSERT_TRUE(session.has_value());

  const core::Result<Optimization> result = optimize_query(
      *session, read_source("examples/sqlopt/queries/regression_decorrelation_few_rows.sql"), knowledge());

  ASSERT_TRUE(result.has_value()) << result.error().describe();
  EXPECT_TRUE(contains(transforms_of(result->analysis.findings), "decorrelation"));
  ASSERT_EQ(result->avoided.size(), 1u);
  EXPECT_EQ(result->avoided[0].regression.id, "decorrelation_few_outer_rows");
  for (const Candidate& c : result->candidates) EXPECT_NE(c.rewrite.rule, "scalar_aggregate_to_join");
  double loops = 0;
  for (const PlanNode& n : result->analysis.plan.nodes)
    if (n.relationship == "SubPlan") loops = n.loops;
  EXPECT_EQ(loops, 2);  // two west customers between 100 and 120: 109 and 119
}

}  // namespace
}  // namespace planfirst::sqlopt
