#include "graph/runner.hpp"

#include <gtest/gtest.h>

#include "core/sleeper.hpp"
#include "graph/graph_builder.hpp"
#include "graph_test_support.hpp"

namespace planfirst::graph {
namespace {

using testing::json;
using testing::returns;

struct Harness {
  core::ManualClock clock;
  core::SequentialIdGenerator ids{"cp-"};
  core::RecordingSleeper sleeper;
  EventLog events;
  testing::RecordingCheckpointer store;

  RunnerOptions options(std::size_t chunk_every = 16) {
    RunnerOptions options;
    options.checkpointer = &store;
    options.clock = &clock;
    options.ids = &ids;
    options.sleeper = &sleeper;
    options.events = &events;
    options.chunk_every = chunk_every;
    return options;
  }
};

GraphSettings log_settings() {
  GraphSettings settings;
  settings.reducers = {{"log", Reducer::kAppend}};
  return settings;
}

CompiledGraph compile(const GraphBuilder& builder) {
  core::Result<CompiledGraph> graph = builder.compile();
  if (!graph) throw std::runtime_error(graph.error().describe());
  return *graph;
}

// tick appends its count to "log" and counts up; the router loops until count reaches `until`.
CompiledGraph counting_graph(std::int64_t until) {
  GraphBuilder builder("count", log_settings());
  builder.add_node(worker_node("tick",
                               [](const StateView& state, const NodeContext&) -> core::Result<Delta> {
                                 const std::int64_t count = state.int_or("count", 0) + 1;
                                 return Delta(core::Json{{"log", {count}}, {"count", count}});
                               },
                               {"log", "count"}));
  builder.set_entry("tick");
  builder.add_conditional_edges("tick",
                                [until](const StateView& state) -> core::Result<std::string> {
                                  return state.int_or("count", 0) < until ? std::string("tick")
                                                                          : std::string(kEnd);
                                },
                                {"tick", std::string(kEnd)});
  return compile(builder);
}

TEST(Runner, RunsToTheEndAndReturnsTheMergedState) {
  Harness h;
  Runner runner(counting_graph(3), h.options());

  core::Result<RunResult> result = runner.run("t1", Delta(json("{}")));

  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(result->status, RunStatus::kDone);
  EXPECT_EQ(result->state.json(), json(R"({"count": 3, "log": [1, 2, 3]})"));
  EXPECT_EQ(result->step, 3);
  EXPECT_EQ(result->checkpoint_id, "cp-4");
}

TEST(Runner, WritesOnlyTheKeysAStepChanged) {
  Harness h;
  GraphBuilder builder("two", GraphSettings{});
  builder.add_node(worker_node("a", returns(R"({"x": 1, "y": 2})"), {"x", "y"}));
  builder.add_node(worker_node("b", returns(R"({"x": 1, "y": 3})"), {"x", "y"}));
  builder.set_entry("a");
  builder.add_edge("a", "b");
  builder.set_finish("b");
  Runner runner(compile(builder), h.options());

  ASSERT_TRUE(runner.run("t1", Delta(json("{}"))));

  const std::vector<CheckpointRecord> records = h.store.appended();
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[1].writes,
            (std::vector<KeyWrite>{{"x", WriteKind::kReplace, "1"}, {"y", WriteKind::kReplace, "2"}}));
  EXPECT_EQ(records[2].writes, (std::vector<KeyWrite>{{"y", WriteKind::kReplace, "3"}}));
}

TEST(Runner, WritesAppendKeysAsAppendsCompactedIntoAChunkEveryN) {
  Harness h;
  Runner runner(counting_graph(7), h.options(/*chunk_every=*/3));

  core::Result<RunResult> result = runner.run("t1", Delta(json("{}")));

  ASSERT_TRUE(result) << result.error().describe();
  std::vector<std::string> kinds;
  for (const CheckpointRecord& record : h.store.appended()) {
    for (const KeyWrite& write : record.writes) {
      if (write.key == "log") kinds.push_back(std::string(to_string(write.kind)) + " " + write.value_json);
    }
  }
  EXPECT_EQ(kinds, (std::vector<std::string>{"snapshot [1]", "append [2]", "append [3]",
                                             R"(chunk {"from":1,"items":[2,3,4]})", "append [5]",
                                             "append [6]", R"(chunk {"from":4,"items":[5,6,7]})"}));
  core::Result<JsonValue> stored = runner.state("t1");
  ASSERT_TRUE(stored) << stored.error().describe();
  EXPECT_EQ(*stored, result->state);
}

TEST(Runner, RecordsTheLastCompletedNodeAndTheNextNode) {
  Harness h;
  Runner runner(counting_graph(2), h.options());

  ASSERT_TRUE(runner.run("t1", Delta(json("{}"))));

  const std::vector<CheckpointRecord> records = h.store.appended();
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].node, "__input__");
  EXPECT_EQ(records[0].next_node, "tick");
  EXPECT_EQ(records[1].last_completed_node, "tick");
  EXPECT_EQ(records[1].next_node, "tick");
  EXPECT_EQ(records[1].status, CheckpointStatus::kRunning);
  EXPECT_EQ(records[2].next_node, "");
  EXPECT_EQ(records[2].status, CheckpointStatus::kDone);
  EXPECT_EQ(records[2].parent_id, records[1].checkpoint_id);
}

TEST(Runner, ClearsAStalePromptAfterAWorkerStep) {
  Harness h;
  GraphBuilder builder("clear", GraphSettings{});
  builder.add_node(
      worker_node("work", returns(R"({"requires_user_input": false})"), {"requires_user_input"}));
  builder.set_entry("work");
  builder.set_finish("work");
  Runner runner(compile(builder), h.options());

  core::Result<RunResult> result = runner.run(
      "t1", Delta(json(R"({"checkpoint_message": "Old question", "checkpoint_prompt": "Still?"})")));

  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(result->state.json()["checkpoint_message"], "");
  EXPECT_EQ(result->state.json()["checkpoint_prompt"], "");
  EXPECT_EQ(h.store.appended()[1].writes,
            (std::vector<KeyWrite>{{"checkpoint_message", WriteKind::kReplace, "\"\""},
                                   {"checkpoint_prompt", WriteKind::kReplace, "\"\""},
                                   {"requires_user_input", WriteKind::kReplace, "false"}}));
}

TEST(Runner, FailsAStepWhoseDeltaIsInvalidAndMergesNothingOfIt) {
  Harness h;
  GraphBuilder builder("bad", GraphSettings{});
  builder.add_node(worker_node("sneaky", returns(R"({"allowed": 1, "secret": 2})"), {"allowed"}));
  builder.set_entry("sneaky");
  builder.set_finish("sneaky");
  Runner runner(compile(builder), h.options());

  core::Result<RunResult> result = runner.run("t1", Delta(json("{}")));

  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(result->status, RunStatus::kFailed);
  ASSERT_TRUE(result->error.has_value());
  EXPECT_EQ(result->error->where, "sneaky/secret");
  EXPECT_NE(result->error->message.find("node sneaky: /secret [undeclared_write]"), std::string::npos);
  EXPECT_EQ(result->state.json(), json("{}"));
  const CheckpointRecord failed = h.store.appended().back();
  EXPECT_EQ(failed.status, CheckpointStatus::kFailed);
  EXPECT_TRUE(failed.writes.empty());
  EXPECT_EQ(failed.next_node, "sneaky");
}

TEST(Runner, StopsACycleAtMaxSteps) {
  Harness h;
  RunnerOptions options = h.options();
  options.max_steps = 5;
  Runner runner(counting_graph(1000), options);

  core::Result<RunResult> result = runner.run("t1", Delta(json("{}")));

  ASSERT_TRUE(result);
  EXPECT_EQ(result->status, RunStatus::kFailed);
  EXPECT_EQ(result->state.json()["count"], 5);
  EXPECT_NE(result->error->message.find("more than 5 steps"), std::string::npos);
}

TEST(Runner, RecoverContinuesAFailedThreadFromTheFailedNode) {
  Harness h;
  RunnerOptions options = h.options();
  options.max_steps = 2;
  Runner runner(counting_graph(3), options);
  ASSERT_TRUE(runner.run("t1", Delta(json("{}"))));

  core::Result<RunResult> recovered = runner.recover("t1");

  ASSERT_TRUE(recovered) << recovered.error().describe();
  EXPECT_EQ(recovered->status, RunStatus::kDone);
  EXPECT_EQ(recovered->state.json(), json(R"({"count": 3, "log": [1, 2, 3]})"));
}

TEST(Runner, StopsBeforeTheNextNodeOnceCancelledAndRecoverContinuesFromIt) {
  Harness h;
  core::CancellationToken stop;
  GraphBuilder builder("stop", log_settings());
  builder.add_node(worker_node("first",
                               [&stop](const StateView&, const NodeContext&) -> core::Result<Delta> {
                                 stop.cancel();  // as a server does when it shuts down mid-run
                                 return Delta(core::Json{{"log", {"first"}}});
                               },
                               {"log"}));
  builder.add_node(worker_node("second", returns(R"({"log": ["second"]})"), {"log"}));
  builder.set_entry("first");
  builder.add_edge("first", "second");
  builder.add_edge("second", std::string(kEnd));
  RunnerOptions options = h.options();
  options.stop = &stop;
  const CompiledGraph graph = compile(builder);

  core::Result<RunResult> stopped = Runner(graph, options).run("t1", Delta(json("{}")));
  core::Result<RunResult> recovered = Runner(graph, h.options()).recover("t1");

  ASSERT_TRUE(stopped) << stopped.error().describe();
  EXPECT_EQ(stopped->status, RunStatus::kFailed);
  ASSERT_TRUE(stopped->error.has_value());
  EXPECT_EQ(stopped->error->code, core::ErrorCode::kUnavailable);
  EXPECT_EQ(stopped->last_completed_node, "first");
  ASSERT_TRUE(recovered) << recovered.error().describe();
  EXPECT_EQ(recovered->status, RunStatus::kDone);
  EXPECT_EQ(recovered->state.json()["log"], json(R"(["first", "second"])"));
}

TEST(Runner, TakesANewTurnOnAFinishedThread) {
  Harness h;
  Runner runner(counting_graph(2), h.options());
  ASSERT_TRUE(runner.run("t1", Delta(json("{}"))));

  core::Result<RunResult> again = runner.run("t1", Delta(json(R"({"count": 0})")));

  ASSERT_TRUE(again) << again.error().describe();
  EXPECT_EQ(again->state.json(), json(R"({"count": 2, "log": [1, 2, 1, 2]})"));
}

TEST(Runner, WithoutACheckpointerRunsButCannotResume) {
  core::SequentialIdGenerator ids("cp-");
  RunnerOptions options;
  options.ids = &ids;
  Runner runner(counting_graph(3), options);

  core::Result<RunResult> result = runner.run("t1", Delta(json("{}")));
  core::Result<RunResult> resumed = runner.resume("t1", result->checkpoint_id, "yes");

  ASSERT_TRUE(result);
  EXPECT_EQ(result->state.json()["count"], 3);
  ASSERT_FALSE(resumed);
  EXPECT_EQ(resumed.error().code, core::ErrorCode::kFailedPrecondition);
}

TEST(Runner, RunNodeReturnsTheValidatedDeltaAndPersistsNothing) {
  Harness h;
  Runner runner(counting_graph(3), h.options());

  core::Result<Delta> delta = runner.run_node("tick", Delta(json(R"({"count": 41})")));

  ASSERT_TRUE(delta) << delta.error().describe();
  EXPECT_EQ(delta->json(), json(R"({"count": 42, "log": [42]})"));
  EXPECT_TRUE(h.store.appended().empty());
}

TEST(Runner, RunNodeNamesTheKnownNodesForAnUnknownOne) {
  Harness h;
  Runner runner(counting_graph(3), h.options());

  core::Result<Delta> delta = runner.run_node("tock", Delta(json("{}")));

  ASSERT_FALSE(delta);
  EXPECT_EQ(delta.error().code, core::ErrorCode::kNotFound);
  EXPECT_NE(delta.error().message.find("(nodes: tick)"), std::string::npos);
}

}  // namespace
}  // namespace planfirst::graph
