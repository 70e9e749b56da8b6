#include <gtest/gtest.h>

#include <atomic>
#include <memory>

#include "runner_harness.hpp"

namespace planfirst::graph {
namespace {

using testing::json;
using testing::returns;

// propose (decision, counts its calls) asks; then work; then confirm (decision) asks; then the end.
struct AskingGraph {
  std::shared_ptr<std::atomic<int>> proposals = std::make_shared<std::atomic<int>>(0);

  CompiledGraph build() const {
    GraphSettings settings;
    settings.reducers = {{"messages", Reducer::kAppend}};
    settings.common_writes = {"requires_user_input"};
    GraphBuilder builder("asking", settings);
    auto counter = proposals;
    builder.add_node(decision_node(
        "propose",
        [counter](const StateView&, const NodeContext&) -> core::Result<Delta> {
          counter->fetch_add(1);
          return Delta(json(R"({"requires_user_input": true, "checkpoint_message": "Scope: 4 channels",
                                "checkpoint_prompt": "Confirm scope?", "proposal": "4 channels"})"));
        },
        {"checkpoint_message", "checkpoint_prompt", "proposal"}));
    builder.add_node(
        worker_node("work", returns(R"({"requires_user_input": false, "work": "done"})"), {"work"}));
    builder.add_node(decision_node(
        "confirm", returns(R"({"requires_user_input": true, "checkpoint_message": "Report ready",
                                               "checkpoint_prompt": "Publish?"})"),
        {"checkpoint_message", "checkpoint_prompt"}));
    builder.set_entry("propose");
    builder.add_edge("propose", "work");
    builder.add_edge("work", "confirm");
    builder.set_finish("confirm");
    return testing::compile_or_throw(builder);
  }
};

TEST(Interrupt, PausesAtADecisionNodeWithMessagePromptAndCheckpointId) {
  testing::Harness h;
  Runner runner(AskingGraph().build(), h.options());

  core::Result<RunResult> result = runner.run("t1", Delta(json("{}")));

  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(result->status, RunStatus::kInterrupted);
  EXPECT_EQ(result->interrupt_node, "propose");
  EXPECT_EQ(result->message, "Scope: 4 channels");
  EXPECT_EQ(result->prompt, "Confirm scope?");
  EXPECT_EQ(result->checkpoint_id, "cp-2");
  const CheckpointRecord head = h.store.appended().back();
  EXPECT_EQ(head.status, CheckpointStatus::kInterrupted);
  EXPECT_EQ(head.next_node, "work");
  EXPECT_EQ(json(head.metadata_json),
            json(R"({"checkpoint_message": "Scope: 4 channels", "checkpoint_prompt": "Confirm scope?"})"));
}

TEST(Interrupt, ResumeContinuesAfterTheDecisionNodeWithoutRerunningIt) {
  AskingGraph graph;
  testing::Harness h;
  Runner runner(graph.build(), h.options());
  core::Result<RunResult> paused = runner.run("t1", Delta(json("{}")));
  ASSERT_TRUE(paused);

  core::Result<RunResult> resumed = runner.resume("t1", paused->checkpoint_id, "Yes, all four");

  ASSERT_TRUE(resumed) << resumed.error().describe();
  EXPECT_EQ(resumed->status, RunStatus::kInterrupted);
  EXPECT_EQ(resumed->interrupt_node, "confirm");
  EXPECT_EQ(graph.proposals->load(), 1);
  EXPECT_EQ(resumed->state.json()["work"], "done");
  EXPECT_EQ(resumed->state.json()["messages"], json(R"([{"role": "human", "content": "Yes, all four"}])"));
  EXPECT_EQ(resumed->state.json()["proposal"], "4 channels");
}

TEST(Interrupt, ResumeClearsThePromptItAnswered) {
  testing::Harness h;
  Runner runner(AskingGraph().build(), h.options());
  core::Result<RunResult> paused = runner.run("t1", Delta(json("{}")));
  ASSERT_TRUE(paused);

  ASSERT_TRUE(runner.resume("t1", paused->checkpoint_id, "yes"));

  const CheckpointRecord answer = h.store.appended()[2];
  EXPECT_EQ(answer.node, "__resume__");
  EXPECT_EQ(json(answer.metadata_json)["answer_to"], paused->checkpoint_id);
  core::Result<JsonValue> state = runner.state("t1", answer.checkpoint_id);
  ASSERT_TRUE(state);
  EXPECT_EQ(state->json()["checkpoint_prompt"], "");
  EXPECT_EQ(state->json()["requires_user_input"], false);
}

TEST(Interrupt, ResumeWithAStaleCheckpointIsAConflict) {
  testing::Harness h;
  Runner runner(AskingGraph().build(), h.options());
  core::Result<RunResult> first = runner.run("t1", Delta(json("{}")));
  ASSERT_TRUE(first);
  core::Result<RunResult> second = runner.resume("t1", first->checkpoint_id, "yes");
  ASSERT_TRUE(second);

  core::Result<RunResult> stale = runner.resume("t1", first->checkpoint_id, "yes again");

  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().code, core::ErrorCode::kConflict);
  EXPECT_EQ(stale.error().message,
            "stale checkpoint cp-2 for thread t1: the head is " + second->checkpoint_id +
                "; reload the thread and decide again, or fork from the older checkpoint");
  core::Result<std::optional<CheckpointRecord>> head = h.store.head("t1");
  ASSERT_TRUE(head);
  EXPECT_EQ((*head)->checkpoint_id, second->checkpoint_id);
}

TEST(Interrupt, ResumeWithAnUnknownCheckpointIsAConflict) {
  testing::Harness h;
  Runner runner(AskingGraph().build(), h.options());
  ASSERT_TRUE(runner.run("t1", Delta(json("{}"))));

  core::Result<RunResult> unknown = runner.resume("t1", "cp-999", "yes");

  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, core::ErrorCode::kConflict);
  EXPECT_NE(unknown.error().message.find("unknown checkpoint cp-999"), std::string::npos);
}

TEST(Interrupt, ResumeOfAnUnknownThreadIsNotFound) {
  testing::Harness h;
  Runner runner(AskingGraph().build(), h.options());

  core::Result<RunResult> unknown = runner.resume("nobody", "cp-1", "yes");

  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, core::ErrorCode::kNotFound);
}

TEST(Interrupt, ResumeOfAThreadThatAwaitsNothingIsRefused) {
  testing::Harness h;
  Runner runner(AskingGraph().build(), h.options());
  core::Result<RunResult> first = runner.run("t1", Delta(json("{}")));
  core::Result<RunResult> second = runner.resume("t1", first->checkpoint_id, "yes");
  core::Result<RunResult> done = runner.resume("t1", second->checkpoint_id, "publish");
  ASSERT_TRUE(done);
  ASSERT_EQ(done->status, RunStatus::kDone);

  core::Result<RunResult> again = runner.resume("t1", done->checkpoint_id, "publish again");

  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, core::ErrorCode::kFailedPrecondition);
}

TEST(Interrupt, ARunOnAThreadThatAwaitsAnAnswerIsRefused) {
  testing::Harness h;
  Runner runner(AskingGraph().build(), h.options());
  ASSERT_TRUE(runner.run("t1", Delta(json("{}"))));

  core::Result<RunResult> again = runner.run("t1", Delta(json("{}")));

  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, core::ErrorCode::kFailedPrecondition);
  EXPECT_NE(again.error().message.find("resume it instead"), std::string::npos);
}

TEST(Interrupt, TwoRunnersResumingOneCheckpointAdvanceTheHeadOnce) {
  AskingGraph graph;
  testing::Harness h;
  Runner first_runner(graph.build(), h.options());
  Runner second_runner(graph.build(), h.options());
  core::Result<RunResult> paused = first_runner.run("t1", Delta(json("{}")));
  ASSERT_TRUE(paused);

  core::Result<RunResult> winner = first_runner.resume("t1", paused->checkpoint_id, "yes");
  core::Result<RunResult> loser = second_runner.resume("t1", paused->checkpoint_id, "no");

  ASSERT_TRUE(winner);
  ASSERT_FALSE(loser);
  EXPECT_EQ(loser.error().code, core::ErrorCode::kConflict);
}

TEST(Interrupt, ForkFromAnOlderCheckpointIsExplicitAndLeavesTheOriginal) {
  testing::Harness h;
  Runner runner(AskingGraph().build(), h.options());
  core::Result<RunResult> first = runner.run("t1", Delta(json("{}")));
  core::Result<RunResult> second = runner.resume("t1", first->checkpoint_id, "yes");
  ASSERT_TRUE(second);

  core::Result<std::string> forked = runner.fork("t1", first->checkpoint_id, "t1-alt");
  ASSERT_TRUE(forked) << forked.error().describe();
  core::Result<RunResult> alternative = runner.resume("t1-alt", *forked, "only web");

  ASSERT_TRUE(alternative) << alternative.error().describe();
  EXPECT_EQ(alternative->interrupt_node, "confirm");
  EXPECT_EQ(alternative->state.json()["messages"], json(R"([{"role": "human", "content": "only web"}])"));
  core::Result<JsonValue> original = runner.state("t1");
  ASSERT_TRUE(original);
  EXPECT_EQ(original->json()["messages"], json(R"([{"role": "human", "content": "yes"}])"));
  core::Result<CheckpointRecord> fork_record = h.store.get("t1-alt", *forked);
  ASSERT_TRUE(fork_record);
  EXPECT_EQ(json(fork_record->metadata_json)["forked_from"],
            json(R"({"thread_id": "t1", "checkpoint_id": "cp-2"})"));
}

TEST(Interrupt, ForkOntoAnExistingThreadIsAConflict) {
  testing::Harness h;
  Runner runner(AskingGraph().build(), h.options());
  core::Result<RunResult> first = runner.run("t1", Delta(json("{}")));
  ASSERT_TRUE(runner.run("t2", Delta(json("{}"))));

  core::Result<std::string> forked = runner.fork("t1", first->checkpoint_id, "t2");

  ASSERT_FALSE(forked);
  EXPECT_EQ(forked.error().code, core::ErrorCode::kConflict);
}

TEST(Interrupt, CustomAnswerFunctionShapesTheAnswerDelta) {
  GraphSettings settings;
  settings.answer = [](const StateView&, std::string_view answer) -> core::Result<Delta> {
    return Delta(core::Json{{"approved", answer == "yes"}, {"requires_user_input", false}});
  };
  settings.common_writes = {"requires_user_input"};
  GraphBuilder builder("custom", settings);
  builder.add_node(decision_node(
      "ask", returns(R"({"requires_user_input": true, "checkpoint_prompt": "Go?"})"), {"checkpoint_prompt"}));
  builder.add_node(worker_node("after", returns(R"({"requires_user_input": false})")));
  builder.set_entry("ask");
  builder.add_edge("ask", "after");
  builder.set_finish("after");
  testing::Harness h;
  Runner runner(testing::compile_or_throw(builder), h.options());
  core::Result<RunResult> paused = runner.run("t1", Delta(json("{}")));
  ASSERT_TRUE(paused);

  core::Result<RunResult> resumed = runner.resume("t1", paused->checkpoint_id, "yes");

  ASSERT_TRUE(resumed) << resumed.error().describe();
  EXPECT_EQ(resumed->state.json()["approved"], true);
  EXPECT_EQ(resumed->state.json()["checkpoint_prompt"], "");
}

}  // namespace
}  // namespace planfirst::graph
