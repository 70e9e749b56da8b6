#include "graph/reducer.hpp"

#include <gtest/gtest.h>

#include "graph_test_support.hpp"

namespace planfirst::graph {
namespace {

using testing::json;

const ReducerTable kReducers = {{"reasoning", Reducer::kAppend}, {"plan_tasks", Reducer::kMergeById}};

TEST(Reducer, ReplaceOverwritesTheWholeValue) {
  core::Json state = json(R"({"phase": "analysis", "plan_steps_completed": 1})");

  core::Result<void> merged = merge_delta(kReducers, state, json(R"({"plan_steps_completed": 2})"));

  ASSERT_TRUE(merged) << merged.error().describe();
  EXPECT_EQ(state, json(R"({"phase": "analysis", "plan_steps_completed": 2})"));
}

TEST(Reducer, AppendPutsTheDeltaItemsAfterTheStateItems) {
  core::Json state = json(R"({"reasoning": [{"step_name": "A", "step_text": "1"}]})");

  core::Result<void> merged =
      merge_delta(kReducers, state, json(R"({"reasoning": [{"step_name": "B", "step_text": "2"}]})"));

  ASSERT_TRUE(merged) << merged.error().describe();
  EXPECT_EQ(state["reasoning"],
            json(R"([{"step_name": "A", "step_text": "1"}, {"step_name": "B", "step_text": "2"}])"));
}

TEST(Reducer, AppendToAnUnsetKeyStartsTheList) {
  core::Json state = core::Json::object();

  core::Result<void> merged = merge_delta(kReducers, state, json(R"({"reasoning": [1]})"));

  ASSERT_TRUE(merged);
  EXPECT_EQ(state, json(R"({"reasoning": [1]})"));
}

TEST(Reducer, MergeByIdUpdatesKnownIdsFieldByFieldAndAppendsNewOnes) {
  core::Json state = json(R"({"plan_tasks": [
      {"id": "3", "title": "Friction Analysis", "status": "in_progress", "sub_agents": [{"id": "f1"}]}]})");

  core::Result<void> merged = merge_delta(kReducers, state, json(R"({"plan_tasks": [
      {"id": "3", "title": "Friction Analysis", "status": "done"},
      {"id": "4", "title": "Synthesis", "status": "in_progress"}]})"));

  ASSERT_TRUE(merged) << merged.error().describe();
  EXPECT_EQ(state["plan_tasks"], json(R"([
      {"id": "3", "title": "Friction Analysis", "status": "done", "sub_agents": [{"id": "f1"}]},
      {"id": "4", "title": "Synthesis", "status": "in_progress"}])"));
}

TEST(Reducer, AppendOfANonArrayNamesThePointer) {
  core::Json state = core::Json::object();

  core::Result<void> merged = merge_delta(kReducers, state, json(R"({"reasoning": "text"})"));

  ASSERT_FALSE(merged);
  EXPECT_EQ(merged.error().where, "/reasoning");
}

TEST(Reducer, MergeByIdItemWithoutIdNamesTheItem) {
  core::Json state = core::Json::object();

  core::Result<void> merged =
      merge_delta(kReducers, state, json(R"({"plan_tasks": [{"id": "1"}, {"title": "x"}]})"));

  ASSERT_FALSE(merged);
  EXPECT_EQ(merged.error().where, "/plan_tasks/1");
}

}  // namespace
}  // namespace planfirst::graph
