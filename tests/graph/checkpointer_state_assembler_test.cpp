#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "graph/state_assembler.hpp"

namespace planfirst::graph {
namespace {

using core::Json;

StepWrite at(std::int64_t step, std::string key, WriteKind kind, std::string value) {
  return {step, {std::move(key), kind, std::move(value)}};
}

TEST(StateAssembler, ReplacesSnapshotsAndAppendsInOrder) {
  const std::vector<StepWrite> writes = {
      at(0, "phase", WriteKind::kReplace, R"("planning")"), at(0, "reasoning", WriteKind::kSnapshot, R"([{"n":0}])"),
      at(1, "reasoning", WriteKind::kAppend, R"([{"n":1},{"n":2}])"), at(2, "phase", WriteKind::kReplace, R"("qa")"),
      at(2, "messages", WriteKind::kAppend, R"(["hi"])")};

  core::Result<Json> state = assemble_state(writes);

  ASSERT_TRUE(state.has_value()) << state.error().describe();
  EXPECT_EQ(*state, Json::parse(R"({"phase":"qa","reasoning":[{"n":0},{"n":1},{"n":2}],"messages":["hi"]})"));
}

TEST(StateAssembler, CorruptJsonNamesTheKeyAndTheStep) {
  const std::vector<StepWrite> writes = {at(0, "a", WriteKind::kReplace, "1"),
                                         at(7, "plan_tasks", WriteKind::kReplace, R"([{"id": "3",)")};

  core::Result<Json> state = assemble_state(writes);

  ASSERT_FALSE(state.has_value());
  EXPECT_EQ(state.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(state.error().where, "step 7, key 'plan_tasks'");
}

TEST(StateAssembler, AppendThatIsNotAnArrayIsRefused) {
  const std::vector<StepWrite> writes = {at(3, "reasoning", WriteKind::kAppend, R"({"step_name":"x"})")};

  core::Result<Json> state = assemble_state(writes);

  ASSERT_FALSE(state.has_value());
  EXPECT_NE(state.error().message.find("JSON array"), std::string::npos);
  EXPECT_EQ(state.error().where, "step 3, key 'reasoning'");
}

TEST(StateAssembler, AppendToAScalarIsRefused) {
  const std::vector<StepWrite> writes = {at(1, "phase", WriteKind::kReplace, R"("qa")"),
                                         at(2, "phase", WriteKind::kAppend, R"(["x"])")};

  core::Result<Json> state = assemble_state(writes);

  ASSERT_FALSE(state.has_value());
  EXPECT_EQ(state.error().where, "step 2, key 'phase'");
}

TEST(StateAssembler, CountsAppendsSinceEachKeysLastSnapshot) {
  const std::vector<StepWrite> writes = {
      at(0, "log", WriteKind::kAppend, "[1]"),     at(1, "log", WriteKind::kSnapshot, "[1,2]"),
      at(2, "log", WriteKind::kAppend, "[3]"),     at(3, "log", WriteKind::kAppend, "[4]"),
      at(3, "phase", WriteKind::kReplace, "\"x\""), at(4, "messages", WriteKind::kAppend, "[\"m\"]")};

  const std::map<std::string, std::size_t> since = appends_since_snapshot(writes);

  EXPECT_EQ(since, (std::map<std::string, std::size_t>{{"log", 2}, {"messages", 1}}));
}

TEST(StateAssembler, FoldedWritesAssembleToTheSameState) {
  const std::vector<StepWrite> writes = {
      at(0, "a", WriteKind::kReplace, "1"),       at(0, "log", WriteKind::kAppend, "[0]"),
      at(2, "log", WriteKind::kSnapshot, "[0,1]"), at(3, "log", WriteKind::kAppend, "[2,3]"),
      at(4, "a", WriteKind::kReplace, "2"),       at(4, "reset", WriteKind::kReplace, "[9]"),
      at(5, "reset", WriteKind::kAppend, "[10]")};

  core::Result<std::vector<KeyWrite>> folded = fold_writes(writes);

  ASSERT_TRUE(folded.has_value());
  const std::vector<KeyWrite> expected = {{"a", WriteKind::kReplace, "2"},
                                          {"log", WriteKind::kSnapshot, "[0,1,2,3]"},
                                          {"reset", WriteKind::kSnapshot, "[9,10]"}};
  EXPECT_EQ(*folded, expected);
}

}  // namespace
}  // namespace planfirst::graph
