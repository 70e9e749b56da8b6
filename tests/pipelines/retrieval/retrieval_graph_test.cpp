// The retrieval graph as the runtime runs it: each node alone on a state (as `planfirst graph node`
// does), the whole run with in-test sources, audit entries, idempotency and isolation.
#include "pipelines/retrieval/retrieval_graph.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/clock.hpp"
#include "graph/runner.hpp"
#include "retrieval_fixture.hpp"

namespace planfirst::retrieval {
namespace {

using nlohmann::json;
using std::chrono::sys_days;
using testing::RecordingSource;
using namespace std::chrono_literals;

class RetrievalGraph : public ::testing::Test {
 protected:
  RetrievalGraph() : clock_(sys_days(std::chrono::year(2024) / 1 / 17) + 10h) {}

  graph::CompiledGraph graph_with(SourceMap sources = {}) const {
    core::Result<std::shared_ptr<const RetrievalServices>> services =
        RetrievalServices::load(core::AssetStore(), std::move(sources));
    EXPECT_TRUE(services.has_value()) << (services ? "" : services.error().describe());
    core::Result<graph::CompiledGraph> compiled = build_retrieval_graph(std::move(*services));
    EXPECT_TRUE(compiled.has_value()) << (compiled ? "" : compiled.error().describe());
    return *compiled;
  }
  core::Result<graph::Delta> node(const std::string& name, const json& state, SourceMap sources = {}) const {
    graph::RunnerOptions options;
    options.clock = &clock_;
    graph::Runner runner(graph_with(std::move(sources)), options);
    return runner.run_node(name, graph::JsonValue(state));
  }
  json state_after(const std::vector<std::string>& nodes, json state) const {
    for (const std::string& name : nodes) {
      core::Result<graph::Delta> delta = node(name, state);
      EXPECT_TRUE(delta.has_value()) << name << ": " << (delta ? "" : delta.error().describe());
      if (!delta) return state;
      for (const auto& [key, value] : delta->json().items()) {
        if (key == "audit") {
          for (const json& entry : value) state["audit"].push_back(entry);
        } else {
          state[key] = value;
        }
      }
    }
    return state;
  }

  core::ManualClock clock_;
};

const json kQuestion = {{"question", "show commits in project group/app last week and open issues"}};

TEST_F(RetrievalGraph, IntentDetectionWritesTheSeedsReasoningShape) {
  core::Result<graph::Delta> delta = node("intent_detection", kQuestion);

  ASSERT_TRUE(delta.has_value()) << delta.error().describe();
  const json& reasoning = delta->json()["reasoning"];
  EXPECT_EQ(reasoning["intents"][0], json::parse(R"({"type": "query_commits", "confidence": 0.6})"));
  EXPECT_EQ(reasoning["primary_score"], 0.6);
  EXPECT_EQ(reasoning["entities"]["projects"], json::array({"group/app"}));
  EXPECT_EQ(reasoning["entities"]["dates"], json::array({"last week"}));
  EXPECT_EQ(delta->json()["audit"][0]["agent_id"], "intent_detection");
}

TEST_F(RetrievalGraph, IntentDetectionRefusesABlankQuestionByItsPointer) {
  core::Result<graph::Delta> delta = node("intent_detection", json{{"question", "  \t "}});

  ASSERT_FALSE(delta.has_value());
  EXPECT_EQ(delta.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(delta.error().where, "/question");
  EXPECT_NE(delta.error().message.find("no question to detect intents in"), std::string::npos)
      << delta.error().describe();
}

TEST_F(RetrievalGraph, PlannerNodeFailsWithTheSeedsMessageWithoutIntents) {
  core::Result<graph::Delta> delta =
      node("retrieval_planner", json{{"reasoning", {{"hypotheses", json::array()}}}});

  ASSERT_FALSE(delta.has_value());
  EXPECT_NE(delta.error().message.find("No intents found in context"), std::string::npos)
      << delta.error().describe();
}

TEST_F(RetrievalGraph, PlannerNodeFailsWithTheSeedsMessageWithoutHypotheses) {
  const json state =
      json::parse(R"({"reasoning": {"intents": [{"type": "query_commits", "confidence": 0.9}]}})");

  core::Result<graph::Delta> delta = node("retrieval_planner", state);

  ASSERT_FALSE(delta.has_value());
  EXPECT_NE(delta.error().message.find("No hypotheses found in context"), std::string::npos)
      << delta.error().describe();
}

TEST_F(RetrievalGraph, AMalformedStateIsAnErrorNamingTheField) {
  const json state =
      json::parse(R"({"reasoning": {"intents": [{"type": "query_commits", "confidence": "high"}],
                                     "hypotheses": [{"id": "h0", "description": "x"}]}})");

  core::Result<graph::Delta> delta = node("retrieval_planner", state);

  ASSERT_FALSE(delta.has_value());
  EXPECT_NE(delta.error().describe().find("/reasoning/intents/0/confidence"), std::string::npos)
      << delta.error().describe();
}

TEST_F(RetrievalGraph, PlannerNodeIsIdempotentByteForByteAndLeavesItsInputAlone) {
  const json state = state_after({"intent_detection", "reasoning_structure"}, kQuestion);
  const std::string before = state.dump();

  core::Result<graph::Delta> first = node("retrieval_planner", state);
  core::Result<graph::Delta> second = node("retrieval_planner", state);

  ASSERT_TRUE(first.has_value() && second.has_value());
  EXPECT_EQ(first->dump(), second->dump());
  EXPECT_EQ(state.dump(), before);
}

TEST_F(RetrievalGraph, PlannerAuditEntryHasTimingAndCounts) {
  const json state = state_after({"intent_detection", "reasoning_structure"}, kQuestion);

  core::Result<graph::Delta> delta = node("retrieval_planner", state);

  ASSERT_TRUE(delta.has_value());
  const json& entry = delta->json()["audit"][0];
  EXPECT_EQ(entry["agent_id"], "retrieval_planner");
  EXPECT_EQ(entry["started_at"], "2024-01-17T10:00:00Z");
  EXPECT_TRUE(entry["duration_ms"].is_number());
  EXPECT_EQ(entry["status"], "success");
  EXPECT_EQ(entry["details"]["plans"], 2);
  EXPECT_EQ(entry["details"]["llm_calls"], 0);
}

TEST_F(RetrievalGraph, AWholeRunFetchesFromTheSourcesAndSynthesizesTheContext) {
  auto gitlab = std::make_shared<RecordingSource>("gitlab", RecordingSource::Behaviour::kAnswer);
  graph::RunnerOptions options;
  options.clock = &clock_;
  graph::Runner runner(graph_with({{"gitlab", gitlab}}), options);

  core::Result<graph::RunResult> run = runner.run("t1", graph::JsonValue(kQuestion));

  ASSERT_TRUE(run.has_value()) << run.error().describe();
  ASSERT_EQ(run->status, graph::RunStatus::kDone) << (run->error ? run->error->describe() : "");
  const json& state = run->state.json();
  EXPECT_EQ(state["retrieval"]["results"].size(), 2u);
  EXPECT_EQ(state["retrieval"]["results"][0]["status"], "ok");
  EXPECT_EQ(state["retrieval"]["results"][1]["answered_by"], "gitlab");  // youtrack falls back to gitlab
  EXPECT_TRUE(state["retrieval"]["failures"].empty());
  EXPECT_NE(
      state["context"]["markdown"].get<std::string>().find("## Retrieve commit data from GitLab (gitlab)"),
      std::string::npos);
  std::vector<std::string> stages;
  for (const json& entry : state["audit"]) stages.push_back(entry["agent_id"]);
  EXPECT_EQ(stages, (std::vector<std::string>{"intent_detection", "reasoning_structure", "retrieval_planner",
                                              "execute_plans", "context_synthesizer"}));
}

TEST_F(RetrievalGraph, PlanOnlyStopsAfterThePlanner) {
  graph::Runner runner(graph_with(), graph::RunnerOptions{});
  json input = kQuestion;
  input["plan_only"] = true;

  core::Result<graph::RunResult> run = runner.run("t2", graph::JsonValue(input));

  ASSERT_TRUE(run.has_value());
  EXPECT_EQ(run->last_completed_node, "retrieval_planner");
  EXPECT_FALSE(run->state.json()["retrieval"].contains("results"));
}

TEST_F(RetrievalGraph, ExecutePlansWithoutSourcesRecordsEachAsNotConfigured) {
  const json state = state_after({"intent_detection", "reasoning_structure", "retrieval_planner"}, kQuestion);

  core::Result<graph::Delta> delta = node("execute_plans", state);

  ASSERT_TRUE(delta.has_value()) << delta.error().describe();
  const json& failures = delta->json()["retrieval"]["failures"];
  ASSERT_EQ(failures.size(), 2u);
  EXPECT_EQ(failures[0]["message"], "source \"gitlab\" is not configured");
  EXPECT_EQ(delta->json()["retrieval"]["plans"], state["retrieval"]["plans"]);
}

TEST_F(RetrievalGraph, ExecutePlansReadsTheStatesTimezone) {
  json state = state_after({"intent_detection", "reasoning_structure", "retrieval_planner"}, kQuestion);
  state["timezone"] = "+09:00";

  core::Result<graph::Delta> delta = node("execute_plans", state);

  ASSERT_TRUE(delta.has_value()) << delta.error().describe();
  EXPECT_EQ(delta->json()["retrieval"]["results"][0]["time_range"]["since"], "2024-01-07T15:00:00Z");
  state["timezone"] = "Nowhere/Else";
  EXPECT_FALSE(node("execute_plans", state).has_value());
}

TEST_F(RetrievalGraph, ExecutePlansCountsBackFromTheStatesReferenceDayNotTheClock) {
  json state = state_after({"intent_detection", "reasoning_structure", "retrieval_planner"}, kQuestion);
  state["as_of"] = {{"date", "2024-03-06"}, {"origin", "flag"}, {"set_by", "--as-of"}};

  core::Result<graph::Delta> utc = node("execute_plans", state);
  state["timezone"] = "+09:00";
  core::Result<graph::Delta> tokyo = node("execute_plans", state);

  ASSERT_TRUE(utc.has_value()) << utc.error().describe();
  ASSERT_TRUE(tokyo.has_value()) << tokyo.error().describe();
  const json& range = utc->json()["retrieval"]["results"][0]["time_range"];
  EXPECT_EQ(range["since"], "2024-02-26T00:00:00Z");  // last week: Monday 26 Feb .. Monday 4 Mar
  EXPECT_EQ(range["until"], "2024-03-04T00:00:00Z");
  EXPECT_EQ(tokyo->json()["retrieval"]["results"][0]["time_range"]["since"], "2024-02-25T15:00:00Z");
}

TEST_F(RetrievalGraph, AMalformedReferenceDayIsAnErrorNamingTheField) {
  json state = state_after({"intent_detection", "reasoning_structure", "retrieval_planner"}, kQuestion);
  state["as_of"] = {{"date", "last week"}};

  core::Result<graph::Delta> delta = node("execute_plans", state);

  ASSERT_FALSE(delta.has_value());
  EXPECT_EQ(delta.error().where, "/as_of/date");
}

}  // namespace
}  // namespace planfirst::retrieval
