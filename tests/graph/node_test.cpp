#include "graph/node.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "graph/compiled_graph.hpp"

namespace planfirst::graph {
namespace {

TEST(WorkerDelta, KeepsTheFieldsAndSetsTheInterruptKeyFalse) {
  const Delta delta = worker_delta(core::Json{{"answer", "42"}, {"reasoning", core::Json::array()}});

  EXPECT_EQ(delta.json(),
            core::Json::parse(R"({"answer": "42", "reasoning": [], "requires_user_input": false})"));
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

TEST(StateView, MemberOrNullGivesTheMemberOrANullWhenThereIsNone) {
  const core::Json state = core::Json::parse(R"({"plan": {"steps": [1]}, "empty": null})");
  const core::Json not_an_object = core::Json::array({1, 2});

  EXPECT_EQ(StateView(state).member_or_null("plan"), core::Json::parse(R"({"steps": [1]})"));
  EXPECT_TRUE(StateView(state).member_or_null("missing").is_null());
  EXPECT_TRUE(StateView(state).member_or_null("empty").is_null());
  EXPECT_TRUE(StateView(not_an_object).member_or_null("plan").is_null());
}

}  // namespace
}  // namespace planfirst::graph
