#include "graph/node.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "graph/compiled_graph.hpp"

namespace planfirst::graph {
namespace {

TEST(WorkerDelta, KeepsTheFieldsAndSetsTheInterruptKeyFalse) {
  const Delta delta = worker_delta(core::Json{{"answer", "42"}, {"reasoning", core::Json::array()}});

  EXPECT_EQ(delta.json(), core::Json::parse(R"({"answer": "42", "reasoning": [], "requires_user_input": false})"));
}

TEST(WorkerDelta, OverridesAnInterruptKeyTheFieldsSetTrue) {
  const Delta delta = worker_delta(core::Json{{"requires_user_input", true}});

  EXPECT_EQ(delta.json(), core::Json::parse(R"({"requires_user_input": false})"));
}

TEST(WorkerDelta, WritesTheKeyAGraphInterruptsOnByDefault) {
  const GraphSettings settings;

  EXPECT_EQ(settings.interrupt_key, kDefaultInterruptKey);
  EXPECT_TRUE(worker_delta(core::Json::object()).json().contains(settings.interrupt_key));
}

}  // namespace
}  // namespace planfirst::graph
