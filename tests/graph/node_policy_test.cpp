#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <memory>

#include "runner_harness.hpp"

namespace planfirst::graph {
namespace {

using std::chrono::milliseconds;
using testing::json;
using testing::returns;

// One node "flaky" (with `policy`), an optional "fallback", then the end.
CompiledGraph policy_graph(NodeFunction flaky, NodePolicy policy) {
  GraphBuilder builder("policy", GraphSettings{});
  const bool routed = !policy.error_route.empty();
  builder.add_node(worker_node("flaky", std::move(flaky), {"result"}).with_policy(std::move(policy)));
  builder.set_entry("flaky");
  builder.set_finish("flaky");
  if (routed) {
    builder.add_node(worker_node("fallback", returns(R"({"result": "fallback"})"), {"result"}));
    builder.set_finish("fallback");
  }
  return testing::compile_or_throw(builder);
}

// Fails with `code` until it has been called `failures` times, then returns {"result": "ok"}.
NodeFunction fails_first(int failures, core::ErrorCode code, std::shared_ptr<std::vector<int>> attempts) {
  auto calls = std::make_shared<std::atomic<int>>(0);
  return [=](const StateView&, const NodeContext& ctx) -> core::Result<Delta> {
    attempts->push_back(ctx.attempt);
    if (calls->fetch_add(1) < failures) return core::Error{code, "service down", ""};
    return Delta(json(R"({"result": "ok"})"));
  };
}

TEST(NodePolicy, RetriesAnUnavailableNodeWithBackoff) {
  auto attempts = std::make_shared<std::vector<int>>();
  NodePolicy policy;
  policy.max_attempts = 3;
  policy.initial_backoff = milliseconds(100);
  testing::Harness h;
  Runner runner(policy_graph(fails_first(2, core::ErrorCode::kUnavailable, attempts), policy), h.options());

  core::Result<RunResult> result = runner.run("t1", Delta(json("{}")));

  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(result->state.json()["result"], "ok");
  EXPECT_EQ(*attempts, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(h.sleeper.sleeps(), (std::vector<milliseconds>{milliseconds(100), milliseconds(200)}));
}

TEST(NodePolicy, CapsTheBackoffAtItsMaximum) {
  auto attempts = std::make_shared<std::vector<int>>();
  NodePolicy policy;
  policy.max_attempts = 4;
  policy.initial_backoff = milliseconds(100);
  policy.backoff_multiplier = 3.0;
  policy.max_backoff = milliseconds(500);
  testing::Harness h;
  Runner runner(policy_graph(fails_first(3, core::ErrorCode::kUnavailable, attempts), policy), h.options());

  ASSERT_TRUE(runner.run("t1", Delta(json("{}"))));

  EXPECT_EQ(h.sleeper.sleeps(),
            (std::vector<milliseconds>{milliseconds(100), milliseconds(300), milliseconds(500)}));
}

TEST(NodePolicy, DoesNotRetryAnErrorThatRetryingCannotFix) {
  auto attempts = std::make_shared<std::vector<int>>();
  NodePolicy policy;
  policy.max_attempts = 3;
  testing::Harness h;
  Runner runner(policy_graph(fails_first(1, core::ErrorCode::kInvalidArgument, attempts), policy),
                h.options());

  core::Result<RunResult> result = runner.run("t1", Delta(json("{}")));

  ASSERT_TRUE(result);
  EXPECT_EQ(result->status, RunStatus::kFailed);
  EXPECT_EQ(*attempts, (std::vector<int>{1}));
  EXPECT_TRUE(h.sleeper.sleeps().empty());
}

TEST(NodePolicy, GivesUpAfterMaxAttemptsAndSaysHowMany) {
  auto attempts = std::make_shared<std::vector<int>>();
  NodePolicy policy;
  policy.max_attempts = 2;
  testing::Harness h;
  Runner runner(policy_graph(fails_first(5, core::ErrorCode::kUnavailable, attempts), policy), h.options());

  core::Result<RunResult> result = runner.run("t1", Delta(json("{}")));

  ASSERT_TRUE(result);
  EXPECT_EQ(result->status, RunStatus::kFailed);
  EXPECT_EQ(result->error->message, "service down (after 2 attempts)");
}

TEST(NodePolicy, TakesTheErrorRouteWhenTheNodeFails) {
  auto attempts = std::make_shared<std::vector<int>>();
  NodePolicy policy;
  policy.error_route = "fallback";
  testing::Harness h;
  Runner runner(policy_graph(fails_first(1, core::ErrorCode::kFailedPrecondition, attempts), policy),
                h.options());

  core::Result<RunResult> result = runner.run("t1", Delta(json("{}")));

  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(result->status, RunStatus::kDone);
  EXPECT_EQ(result->state.json()["result"], "fallback");
  const std::vector<CheckpointRecord> records = h.store.appended();
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[1].node, "flaky");
  EXPECT_EQ(records[1].next_node, "fallback");
  EXPECT_EQ(json(records[1].metadata_json)["error"]["message"], "service down");
  EXPECT_EQ(records[2].node, "fallback");
}

TEST(NodePolicy, TimesOutASlowNodeAndTakesTheErrorRoute) {
  auto release = std::make_shared<std::promise<void>>();
  std::shared_future<void> released = release->get_future().share();
  NodePolicy policy;
  policy.timeout = milliseconds(20);
  policy.error_route = "fallback";
  NodeFunction slow = [released](const StateView&, const NodeContext&) -> core::Result<Delta> {
    released.wait();
    return Delta(json(R"({"result": "late"})"));
  };
  testing::Harness h;
  Runner runner(policy_graph(slow, policy), h.options());

  core::Result<RunResult> result = runner.run("t1", Delta(json("{}")));
  release->set_value();

  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(result->state.json()["result"], "fallback");
  const core::Json metadata = json(h.store.appended()[1].metadata_json);
  EXPECT_EQ(metadata["error"]["code"], "unavailable");
  EXPECT_EQ(metadata["error"]["message"], "node flaky timed out after 20 ms");
}

TEST(NodePolicy, TurnsANodeExceptionIntoAnInternalError) {
  NodeFunction throws = [](const StateView& state, const NodeContext&) -> core::Result<Delta> {
    return Delta(core::Json{{"result", state.json().at("missing").get<std::string>()}});
  };
  testing::Harness h;
  Runner runner(policy_graph(throws, NodePolicy{}), h.options());

  core::Result<RunResult> result = runner.run("t1", Delta(json("{}")));

  ASSERT_TRUE(result);
  EXPECT_EQ(result->status, RunStatus::kFailed);
  EXPECT_EQ(result->error->code, core::ErrorCode::kInternal);
  EXPECT_NE(result->error->message.find("node flaky threw"), std::string::npos);
}

}  // namespace
}  // namespace planfirst::graph
