#include "graph/mermaid.hpp"

#include <gtest/gtest.h>

#include "graph/graph_builder.hpp"
#include "graph_test_support.hpp"

namespace planfirst::graph {
namespace {

using testing::returns;

TEST(Mermaid, DrawsNodeShapesAndEdgeKindsInInsertionOrder) {
  GraphBuilder builder("test", GraphSettings{});
  NodePolicy policy;
  policy.error_route = "fix";
  builder.add_node(worker_node("route", returns("{}")).with_policy(policy));
  builder.add_node(decision_node("ask", returns("{}")));
  builder.add_node(worker_node("fix", returns("{}")));
  builder.set_entry("route");
  builder.add_conditional_edges(
      "route", [](const StateView&) -> core::Result<std::string> { return std::string("ask"); },
      {"ask", std::string(kEnd)});
  builder.add_edge("ask", "route");
  builder.set_finish("fix");
  core::Result<CompiledGraph> graph = builder.compile();
  ASSERT_TRUE(graph) << graph.error().describe();

  const std::string mermaid = to_mermaid(*graph);

  EXPECT_EQ(mermaid,
            "flowchart TD\n"
            "  __start__([__start__])\n"
            "  route[route]\n"
            "  ask{{ask}}\n"
            "  fix[fix]\n"
            "  __end__([__end__])\n"
            "  __start__ --> route\n"
            "  route -.-> ask\n"
            "  route -.-> __end__\n"
            "  ask --> route\n"
            "  fix --> __end__\n"
            "  route -. error .-> fix\n");
}

TEST(Mermaid, DrawsTheReferenceGraphsFanOutAndChainsTheSameTwice) {
  const CompiledGraph graph = testing::reference_graph();

  const std::string first = to_mermaid(graph);
  const std::string second = to_mermaid(graph);

  EXPECT_EQ(first, second);
  EXPECT_NE(first.find("  friction[[friction]]\n"), std::string::npos) << first;
  EXPECT_NE(first.find("  synthesizer{{synthesizer}}\n"), std::string::npos);
  EXPECT_NE(first.find("  friction --> synthesizer\n"), std::string::npos);
  EXPECT_NE(first.find("  critique --> reporting\n"), std::string::npos);
  EXPECT_NE(first.find("  data_prep --> supervisor\n"), std::string::npos);
  EXPECT_NE(first.find("  supervisor -.-> qa_agent\n"), std::string::npos);
}

}  // namespace
}  // namespace planfirst::graph
