#include "graph/graph_builder.hpp"

#include <gtest/gtest.h>

#include "graph_test_support.hpp"

namespace planfirst::graph {
namespace {

using testing::returns;

GraphBuilder two_node_builder() {
  GraphBuilder builder("test", GraphSettings{});
  builder.add_node(worker_node("a", returns(R"({"x": 1})"), {"x"}));
  builder.add_node(worker_node("b", returns(R"({"x": 2})"), {"x"}));
  builder.set_entry("a");
  return builder;
}

TEST(GraphBuilder, CompilesAValidGraph) {
  GraphBuilder builder = two_node_builder();
  builder.add_edge("a", "b");
  builder.set_finish("b");

  core::Result<CompiledGraph> graph = builder.compile();

  ASSERT_TRUE(graph) << graph.error().describe();
  EXPECT_EQ(graph->entry(), "a");
  EXPECT_EQ(graph->node("b")->next, kEnd);
}

TEST(GraphBuilder, RejectsAnEdgeToAnUnknownNode) {
  GraphBuilder builder = two_node_builder();
  builder.add_edge("a", "b");
  builder.add_edge("b", "missing");

  core::Result<CompiledGraph> graph = builder.compile();

  ASSERT_FALSE(graph);
  EXPECT_NE(graph.error().message.find("edge from b to unknown node \"missing\""), std::string::npos)
      << graph.error().message;
  EXPECT_EQ(graph.error().where, "b");
}

TEST(GraphBuilder, RejectsAConditionalTargetThatIsUnknown) {
  GraphBuilder builder = two_node_builder();
  builder.add_conditional_edges(
      "a", [](const StateView&) -> core::Result<std::string> { return std::string("b"); }, {"b", "ghost"});
  builder.set_finish("b");

  core::Result<CompiledGraph> graph = builder.compile();

  ASSERT_FALSE(graph);
  EXPECT_NE(graph.error().message.find("conditional edge from a to unknown node \"ghost\""),
            std::string::npos)
      << graph.error().message;
}

TEST(GraphBuilder, RejectsAnUnreachableNode) {
  GraphBuilder builder = two_node_builder();
  builder.set_finish("a");
  builder.set_finish("b");

  core::Result<CompiledGraph> graph = builder.compile();

  ASSERT_FALSE(graph);
  EXPECT_NE(graph.error().message.find("node b is unreachable from a"), std::string::npos)
      << graph.error().message;
  EXPECT_EQ(graph.error().where, "b");
}

TEST(GraphBuilder, RejectsANodeThatMayInterruptButIsNoDecisionNode) {
  GraphBuilder builder("test", GraphSettings{});
  builder.add_node(worker_node("asker", returns("{}"), {"checkpoint_prompt"}));
  builder.set_entry("asker");
  builder.set_finish("asker");

  core::Result<CompiledGraph> graph = builder.compile();

  ASSERT_FALSE(graph);
  EXPECT_NE(graph.error().message.find("node asker may interrupt"), std::string::npos)
      << graph.error().message;
  EXPECT_NE(graph.error().message.find("not declared a decision node"), std::string::npos);
}

TEST(GraphBuilder, AcceptsTheSameNodeDeclaredAsADecisionNode) {
  GraphBuilder builder("test", GraphSettings{});
  builder.add_node(decision_node("asker", returns("{}"), {"checkpoint_prompt"}));
  builder.set_entry("asker");
  builder.set_finish("asker");

  core::Result<CompiledGraph> graph = builder.compile();

  EXPECT_TRUE(graph) << graph.error().describe();
}

TEST(GraphBuilder, ListsEveryFaultAtOnce) {
  GraphBuilder builder("test", GraphSettings{});
  builder.add_node(worker_node("a", returns("{}")));
  builder.add_node(worker_node("a", returns("{}")));
  builder.add_node(worker_node("dead_end", returns("{}")));
  builder.set_entry("nowhere");

  core::Result<CompiledGraph> graph = builder.compile();

  ASSERT_FALSE(graph);
  const std::string& message = graph.error().message;
  EXPECT_NE(message.find("node a is added twice"), std::string::npos) << message;
  EXPECT_NE(message.find("node dead_end has no outgoing edge"), std::string::npos) << message;
  EXPECT_NE(message.find("entry node \"nowhere\" is unknown"), std::string::npos) << message;
}

TEST(GraphBuilder, RejectsTwoStaticEdgesFromOneNode) {
  GraphBuilder builder = two_node_builder();
  builder.add_edge("a", "b");
  builder.add_edge("a", std::string(kEnd));
  builder.set_finish("b");

  core::Result<CompiledGraph> graph = builder.compile();

  ASSERT_FALSE(graph);
  EXPECT_NE(graph.error().message.find("node a has more than one outgoing edge"), std::string::npos);
}

TEST(GraphBuilder, RejectsAKeyTheStateContractDoesNotHave) {
  GraphSettings settings;
  settings.state_contract = "analytics_state";
  GraphBuilder builder("test", settings);
  builder.add_node(worker_node("a", returns("{}"), {"plan_steps_completed", "favourite_colour"}));
  builder.set_entry("a");
  builder.set_finish("a");

  core::Result<CompiledGraph> graph = builder.compile(&testing::shipped_contracts());

  ASSERT_FALSE(graph);
  EXPECT_NE(graph.error().message.find("declares key \"favourite_colour\""), std::string::npos)
      << graph.error().message;
}

TEST(GraphBuilder, RejectsACheckpointIdKeyTheStateContractDoesNotHave) {
  GraphSettings settings;
  settings.state_contract = "analytics_state";
  settings.checkpoint_id_key = "open_prompt";
  GraphBuilder builder("test", settings);
  builder.add_node(worker_node("a", returns("{}"), {"plan_steps_completed"}));
  builder.set_entry("a");
  builder.set_finish("a");

  core::Result<CompiledGraph> graph = builder.compile(&testing::shipped_contracts());

  ASSERT_FALSE(graph);
  EXPECT_NE(graph.error().message.find("checkpoint id key \"open_prompt\""), std::string::npos)
      << graph.error().message;
}

TEST(GraphBuilder, RejectsAnUnknownContract) {
  GraphSettings settings;
  settings.delta_contract = "no_such_contract";
  GraphBuilder builder("test", settings);
  builder.add_node(worker_node("a", returns("{}")));
  builder.set_entry("a");
  builder.set_finish("a");

  core::Result<CompiledGraph> graph = builder.compile(&testing::shipped_contracts());

  ASSERT_FALSE(graph);
  EXPECT_NE(graph.error().message.find("no_such_contract"), std::string::npos) << graph.error().message;
}

TEST(GraphBuilder, RejectsAnErrorRouteToAnUnknownNode) {
  GraphBuilder builder("test", GraphSettings{});
  NodePolicy policy;
  policy.error_route = "recovery";
  builder.add_node(worker_node("a", returns("{}")).with_policy(policy));
  builder.set_entry("a");
  builder.set_finish("a");

  core::Result<CompiledGraph> graph = builder.compile();

  ASSERT_FALSE(graph);
  EXPECT_NE(graph.error().message.find("error route to unknown node \"recovery\""), std::string::npos);
}

}  // namespace
}  // namespace planfirst::graph
