#include <gtest/gtest.h>

#include <future>
#include <memory>
#include <mutex>

#include "runner_harness.hpp"

namespace planfirst::graph {
namespace {

using testing::json;

GraphSettings fan_settings() {
  GraphSettings settings;
  settings.reducers = {{"reasoning", Reducer::kAppend}};
  return settings;
}

// A fan-out over branches "b0".."b{n-1}" whose branch function is `branch`, then the end.
CompiledGraph fan_graph(std::size_t n, NodeFunction branch, FanOutCombiner combine = nullptr,
                        std::vector<std::string> writes = {"reasoning"}) {
  GraphBuilder builder("fan", fan_settings());
  FanOutSpec spec;
  spec.name = "fan";
  spec.writes = std::move(writes);
  spec.plan = [n](const StateView&, const NodeContext&) -> core::Result<std::vector<JsonValue>> {
    std::vector<JsonValue> inputs;
    for (std::size_t i = 0; i < n; ++i) inputs.emplace_back(core::Json{{"id", "b" + std::to_string(i)}});
    return inputs;
  };
  spec.branch = std::move(branch);
  spec.combine = std::move(combine);
  builder.add_fan_out(std::move(spec));
  builder.set_entry("fan");
  builder.set_finish("fan");
  return testing::compile_or_throw(builder);
}

core::Json reasoning_of(const NodeContext& ctx) {
  return core::Json{{"reasoning", {ctx.branch_input->json()["id"]}}};
}

TEST(FanOut, MergesBranchesInBranchOrderWhateverOrderTheyFinish) {
  // Branch i finishes only after branch i+1 has: they finish b3, b2, b1, b0.
  constexpr std::size_t kBranches = 4;
  auto finished = std::make_shared<std::vector<std::promise<void>>>(kBranches);
  std::vector<std::shared_future<void>> done;
  for (auto& p : *finished) done.push_back(p.get_future().share());
  auto order = std::make_shared<std::vector<std::string>>();
  auto order_mutex = std::make_shared<std::mutex>();
  NodeFunction branch = [=](const StateView&, const NodeContext& ctx) -> core::Result<Delta> {
    if (ctx.branch_index + 1 < kBranches) done[ctx.branch_index + 1].wait();
    {
      std::lock_guard lock(*order_mutex);
      order->push_back(ctx.node_path);
    }
    (*finished)[ctx.branch_index].set_value();
    return Delta(reasoning_of(ctx));
  };
  testing::Harness h;
  Runner runner(fan_graph(kBranches, branch), h.options());

  core::Result<RunResult> result = runner.run("t1", Delta(json("{}")));

  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(*order, (std::vector<std::string>{"fan/b3", "fan/b2", "fan/b1", "fan/b0"}));
  EXPECT_EQ(result->state.json()["reasoning"], json(R"(["b0", "b1", "b2", "b3"])"));
}

TEST(FanOut, ReportsAFailingBranchWithoutLosingTheOthers) {
  NodeFunction branch = [](const StateView&, const NodeContext& ctx) -> core::Result<Delta> {
    if (ctx.branch_index == 1) return core::failed_precondition("no data for this bucket");
    return Delta(reasoning_of(ctx));
  };
  auto seen = std::make_shared<std::vector<std::string>>();
  FanOutCombiner combine = [seen](const StateView&, const std::vector<BranchOutcome>& outcomes,
                                  const NodeContext&) -> core::Result<Delta> {
    for (const BranchOutcome& o : outcomes) seen->push_back(o.name + (o.error ? " failed" : " ok"));
    return Delta(json("{}"));
  };
  testing::Harness h;
  Runner runner(fan_graph(3, branch, combine), h.options());

  core::Result<RunResult> result = runner.run("t1", Delta(json("{}")));

  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(result->status, RunStatus::kDone);
  EXPECT_EQ(result->state.json()["reasoning"], json(R"(["b0", "b2"])"));
  EXPECT_EQ(*seen, (std::vector<std::string>{"b0 ok", "b1 failed", "b2 ok"}));
  const core::Json metadata = json(h.store.appended().back().metadata_json);
  ASSERT_EQ(metadata["branch_errors"].size(), 1u);
  EXPECT_EQ(metadata["branch_errors"][0]["branch"], "b1");
  EXPECT_EQ(metadata["branch_errors"][0]["message"], "no data for this bucket");
  bool error_event = false;
  for (const Event& e : h.events.events()) error_event |= e.kind == EventKind::kError && e.node == "fan/b1";
  EXPECT_TRUE(error_event);
}

TEST(FanOut, RefusesTwoBranchesWritingOneReplaceKey) {
  NodeFunction branch = [](const StateView&, const NodeContext& ctx) -> core::Result<Delta> {
    return Delta(core::Json{{"winner", ctx.branch_input->json()["id"]}});
  };
  testing::Harness h;
  Runner runner(fan_graph(2, branch, nullptr, {"winner"}), h.options());

  core::Result<RunResult> result = runner.run("t1", Delta(json("{}")));

  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(result->status, RunStatus::kFailed);
  EXPECT_EQ(result->error->where, "fan/winner");
  EXPECT_NE(
      result->error->message.find("node fan: /winner [parallel_write] replace key \"winner\" written by both "
                                  "fan/b0 and fan/b1"),
      std::string::npos)
      << result->error->message;
  EXPECT_FALSE(result->state.json().contains("winner"));
}

TEST(FanOut, ReportsABranchThatWritesAnUndeclaredKeyByItsPath) {
  NodeFunction branch = [](const StateView&, const NodeContext& ctx) -> core::Result<Delta> {
    if (ctx.branch_index == 0) return Delta(json(R"({"reasoning": ["b0"], "stray": true})"));
    return Delta(reasoning_of(ctx));
  };
  testing::Harness h;
  Runner runner(fan_graph(2, branch), h.options());

  core::Result<RunResult> result = runner.run("t1", Delta(json("{}")));

  ASSERT_TRUE(result) << result.error().describe();
  EXPECT_EQ(result->state.json()["reasoning"], json(R"(["b1"])"));
  const core::Json metadata = json(h.store.appended().back().metadata_json);
  EXPECT_EQ(metadata["branch_errors"][0]["where"], "fan/b0/stray");
}

TEST(FanOut, GivesTheSameStateOnEveryRun) {
  NodeFunction branch = [](const StateView&, const NodeContext& ctx) -> core::Result<Delta> {
    return Delta(reasoning_of(ctx));
  };
  testing::Harness first_harness;
  testing::Harness second_harness;
  Runner first(fan_graph(16, branch), first_harness.options());
  Runner second(fan_graph(16, branch), second_harness.options());

  core::Result<RunResult> a = first.run("t1", Delta(json("{}")));
  core::Result<RunResult> b = second.run("t1", Delta(json("{}")));

  ASSERT_TRUE(a);
  ASSERT_TRUE(b);
  EXPECT_EQ(first_harness.store.transcript(), second_harness.store.transcript());
  EXPECT_EQ(a->state.dump(), b->state.dump());
}

}  // namespace
}  // namespace planfirst::graph
