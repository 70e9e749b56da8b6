#include "graph/supervisor.hpp"

#include <gtest/gtest.h>

#include "runner_harness.hpp"

namespace planfirst::graph {
namespace {

using testing::json;

SupervisorLayout layout() {
  SupervisorLayout layout;
  layout.supervisor = "boss";
  layout.workers = {"prep", "analyse", "write"};
  layout.chains = {{"analyse", "write"}};
  return layout;
}

TEST(Supervisor, RoutesToTheWorkerTheStateNames) {
  const Router router = supervisor_router(layout());

  core::Result<std::string> next = router(StateView(json(R"({"next_agent": "analyse"})")));

  ASSERT_TRUE(next);
  EXPECT_EQ(*next, "analyse");
}

TEST(Supervisor, RoutesTheFinishValueToTheEnd) {
  const Router router = supervisor_router(layout());

  core::Result<std::string> next = router(StateView(json(R"({"next_agent": "__end__"})")));

  ASSERT_TRUE(next);
  EXPECT_EQ(*next, kEnd);
}

TEST(Supervisor, NamesAnUnknownWorker) {
  const Router router = supervisor_router(layout());

  core::Result<std::string> next = router(StateView(json(R"({"next_agent": "intern"})")));

  ASSERT_FALSE(next);
  EXPECT_EQ(next.error().where, "/next_agent");
  EXPECT_EQ(
      next.error().message,
      "supervisor boss routed to \"intern\", which is no worker (prep, analyse, write) nor \"__end__\"");
}

TEST(Supervisor, WorkersReturnToTheSupervisorUnlessChained) {
  GraphBuilder builder("team", GraphSettings{});
  for (const char* name : {"boss", "prep", "analyse", "write"}) {
    builder.add_node(worker_node(name, testing::returns("{}")));
  }
  builder.set_entry("boss");
  add_supervisor_edges(builder, layout());

  const CompiledGraph graph = testing::compile_or_throw(builder);

  EXPECT_EQ(graph.node("prep")->next, "boss");
  EXPECT_EQ(graph.node("analyse")->next, "write");
  EXPECT_EQ(graph.node("write")->next, "boss");
  EXPECT_EQ(graph.node("boss")->targets, (std::vector<std::string>{"prep", "analyse", "write", "__end__"}));
}

}  // namespace
}  // namespace planfirst::graph
