#include "reference_graph.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "graph/delta_validator.hpp"
#include "graph/graph_registry.hpp"
#include "runner_harness.hpp"

namespace planfirst::graph {
namespace {

using testing::json;

core::Json read_case(const std::string& name) {
  std::ifstream in(std::string(PLANFIRST_SOURCE_DIR) + "/tests/graph/cases/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return json(text.str());
}

struct Pause {
  std::string node;
  std::string prompt;
};

// Runs the reference graph on `input`, answering "yes" at every checkpoint; the pauses it made.
std::vector<Pause> run_answering_yes(Runner& runner, const std::string& thread, const core::Json& input,
                                     RunResult& last) {
  std::vector<Pause> pauses;
  core::Result<RunResult> result = runner.run(thread, Delta(input));
  while (result && result->status == RunStatus::kInterrupted && pauses.size() < 10) {
    pauses.push_back({result->interrupt_node, result->prompt});
    result = runner.resume(thread, result->checkpoint_id, "yes");
  }
  if (!result) throw std::runtime_error(result.error().describe());
  last = std::move(*result);
  return pauses;
}

TEST(ReferenceGraph, PausesAtTheSeedsThreeCheckpointsAndEndsWithTheArtifacts) {
  testing::Harness h;
  Runner runner(testing::reference_graph(), h.options());
  RunResult last;

  const std::vector<Pause> pauses = run_answering_yes(runner, "t1", json("{}"), last);

  ASSERT_EQ(pauses.size(), 3u);
  EXPECT_EQ(pauses[0].node, "data_discovery");
  EXPECT_EQ(pauses[0].prompt, "Confirm scope and columns?");
  EXPECT_EQ(pauses[1].node, "data_prep");
  EXPECT_EQ(pauses[2].node, "synthesizer");
  EXPECT_EQ(pauses[2].prompt, "Proceed to Report Generation?");
  EXPECT_EQ(last.status, RunStatus::kDone);
  const core::Json& state = last.state.json();
  EXPECT_EQ(state["analysis_complete"], true);
  EXPECT_EQ(state["report_file_path"], "reports/friction_report.md");
  EXPECT_EQ(state["data_file_path"], "data/friction_buckets.csv");
  EXPECT_EQ(state["plan_steps_completed"], 5);
  EXPECT_EQ(state["checkpoint_prompt"], "");
  EXPECT_EQ(state["requires_user_input"], false);
  for (const core::Json& task : state["plan_tasks"]) EXPECT_EQ(task["status"], "done") << task.dump();
  EXPECT_EQ(last.last_completed_node, "supervisor");
}

TEST(ReferenceGraph, FinalStateMeetsTheStateContract) {
  testing::Harness h;
  Runner runner(testing::reference_graph(), h.options());
  RunResult last;
  run_answering_yes(runner, "t1", json("{}"), last);

  const contracts::ValidationReport report =
      testing::shipped_contracts().find("analytics_state")->validate(last.state.json());

  EXPECT_TRUE(report.ok()) << report.describe();
}

TEST(ReferenceGraph, FrictionFansOutToFourSubAgentsInOrder) {
  testing::Harness h;
  Runner runner(testing::reference_graph(), h.options());
  RunResult last;
  run_answering_yes(runner, "t1", json("{}"), last);

  std::vector<std::string> agents;
  for (const core::Json& step : last.state.json()["reasoning"]) {
    const std::string name = step["step_name"];
    if (name.rfind("Friction Agent", 0) == 0) agents.push_back(name);
  }
  const core::Json& task = last.state.json()["plan_tasks"][2];

  EXPECT_EQ(agents, (std::vector<std::string>{"Friction Agent: Authentication", "Friction Agent: Digital",
                                              "Friction Agent: Findability", "Friction Agent: Billing"}));
  EXPECT_EQ(task["id"], "3");
  EXPECT_EQ(task["sub_agents"].size(), 4u);
  EXPECT_EQ(task["sub_agents"][3], json(R"({"id": "f4", "status": "done", "title": "Billing"})"));
}

TEST(ReferenceGraph, SynthesizerReturnsTheSeedSection6DeltaExactly) {
  testing::Harness h;
  Runner runner(testing::reference_graph(), h.options());
  const core::Json input = read_case("seed003_synthesizer_input.json");
  core::Json expected = read_case("seed003_synthesizer_delta.json");
  expected["next_agent"] = "supervisor";  // node_delta requires it; the seed's example omits it

  core::Result<Delta> delta = runner.run_node("synthesizer", Delta(input));

  ASSERT_TRUE(delta) << delta.error().describe();
  EXPECT_EQ(delta->json(), expected);
  EXPECT_EQ(delta->dump(), expected.dump());
}

TEST(ReferenceGraph, Section6ExampleRoundTripsThroughTheCheckpointer) {
  testing::Harness h;
  Runner runner(testing::reference_graph(), h.options());
  const core::Json input = read_case("seed003_synthesizer_input.json");
  core::Json expected = read_case("seed003_synthesizer_delta.json");
  expected["next_agent"] = "supervisor";

  core::Result<RunResult> paused = runner.run("t1", Delta(input));

  ASSERT_TRUE(paused) << paused.error().describe();
  EXPECT_EQ(paused->interrupt_node, "synthesizer");
  expected["checkpoint_id"] = paused->checkpoint_id;  // the runtime names the prompt's checkpoint (seed §7.3)
  std::string synthesizer_update;
  for (const Event& e : h.events.events()) {
    if (e.kind == EventKind::kUpdates && e.node == "synthesizer") synthesizer_update = e.data.dump();
  }
  EXPECT_EQ(synthesizer_update, expected.dump());
  core::Result<JsonValue> stored = runner.state("t1", paused->checkpoint_id);
  ASSERT_TRUE(stored) << stored.error().describe();
  EXPECT_EQ(stored->dump(), paused->state.dump());
  EXPECT_EQ(stored->json()["checkpoint_message"], expected["checkpoint_message"]);
  EXPECT_EQ(stored->json()["plan_tasks"], json(R"([{"id": "3", "title": "Friction Analysis", "status": "done",
                      "sub_agents": [{"id": "f1"}, {"id": "f2"}, {"id": "f3"}, {"id": "f4"}]},
                     {"id": "4", "title": "Synthesis", "status": "in_progress"}])"));
}

TEST(ReferenceGraph, SeedExampleWithoutNextAgentIsRefusedByTheDeltaContract) {
  const CompiledGraph graph = testing::reference_graph();
  const core::Json seed_delta = read_case("seed003_synthesizer_delta.json");

  const DeltaReport report = validate_delta(graph, *graph.node("synthesizer"), "synthesizer", seed_delta);

  ASSERT_EQ(report.violations().size(), 1u);
  EXPECT_EQ(report.violations()[0].pointer, "/next_agent");
}

TEST(ReferenceGraph, RunsTwiceToTheSameBytes) {
  testing::Harness first_harness;
  testing::Harness second_harness;
  Runner first(testing::reference_graph(), first_harness.options());
  Runner second(testing::reference_graph(), second_harness.options());
  RunResult a;
  RunResult b;

  run_answering_yes(first, "t1", json("{}"), a);
  run_answering_yes(second, "t1", json("{}"), b);

  EXPECT_EQ(first_harness.store.transcript(), second_harness.store.transcript());
  EXPECT_EQ(a.state.dump(), b.state.dump());
  std::string first_events;
  std::string second_events;
  for (const Event& e : first_harness.events.events()) first_events += e.to_json_line() + "\n";
  for (const Event& e : second_harness.events.events()) second_events += e.to_json_line() + "\n";
  EXPECT_EQ(first_events, second_events);
}

TEST(ReferenceGraph, CritiqueRunsWhenEnabledAndLeadsToReporting) {
  testing::Harness h;
  Runner runner(testing::reference_graph(), h.options());
  RunResult last;

  run_answering_yes(runner, "t1", json(R"({"critique_enabled": true})"), last);

  std::vector<std::string> order;
  for (const CheckpointRecord& r : h.store.appended()) {
    if (r.node == "critique" || r.node == "reporting") order.push_back(r.node + "->" + r.next_node);
  }
  EXPECT_EQ(order, (std::vector<std::string>{"critique->reporting", "reporting->supervisor"}));
  EXPECT_EQ(last.state.json()["analysis_complete"], true);
}

TEST(ReferenceGraph, AnswersAQuestionAfterTheAnalysis) {
  testing::Harness h;
  Runner runner(testing::reference_graph(), h.options());
  RunResult last;
  run_answering_yes(runner, "t1", json("{}"), last);

  core::Result<RunResult> qa = runner.run(
      "t1", Delta(json(R"({"phase": "qa", "messages": [{"role": "human", "content": "What leads?"}]})")));

  ASSERT_TRUE(qa) << qa.error().describe();
  EXPECT_EQ(qa->status, RunStatus::kDone);
  const core::Json& messages = qa->state.json()["messages"];
  EXPECT_EQ(messages.back()["role"], "ai");
  EXPECT_NE(messages.back()["content"].get<std::string>().find("Findability"), std::string::npos);
}

TEST(GraphRegistry, BuildsAGraphByNameAndNamesTheKnownOnesForAnUnknownName) {
  GraphRegistry registry;
  ASSERT_TRUE(registry.add(std::string(testing::kReferenceGraphName), "seed 003 reference graph",
                           [](const GraphDependencies& dependencies) {
                             return testing::build_reference_graph(testing::reference_graph_deltas(),
                                                                   dependencies.contracts);
                           }));
  const core::AssetStore assets;

  const core::Result<CompiledGraph> friction =
      registry.build("friction", {assets, testing::shipped_contracts()});
  const core::Result<CompiledGraph> unknown = registry.build("nope", {assets, testing::shipped_contracts()});

  EXPECT_EQ(registry.names(), (std::vector<std::string>{"friction"}));
  EXPECT_TRUE(friction) << friction.error().describe();
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().message, "unknown graph \"nope\" (graphs: friction)");
}

}  // namespace
}  // namespace planfirst::graph
