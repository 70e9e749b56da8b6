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
  const std::vector<StepWrite> writes = {at(0, "phase", WriteKind::kReplace, R"("planning")"),
                                         at(0, "reasoning", WriteKind::kSnapshot, R"([{"n":0}])"),
                                         at(1, "reasoning", WriteKind::kAppend, R"([{"n":1},{"n":2}])"),
                                         at(2, "phase", WriteKind::kReplace, R"("qa")"),
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

TEST(StateAssembler, PendingAppendsAreThoseSinceEachKeysLastSnapshotOrChunk) {
  const std::vector<StepWrite> writes = {at(0, "log", WriteKind::kAppend, "[1]"),
                                         at(1, "log", WriteKind::kSnapshot, "[1,2]"),
                                         at(2, "log", WriteKind::kAppend, "[3]"),
                                         at(3, "log", WriteKind::kAppend, "[4,5]"),
                                         at(3, "phase", WriteKind::kReplace, "\"x\""),
                                         at(4, "messages", WriteKind::kAppend, "[\"m\"]"),
                                         at(4, "done", WriteKind::kAppend, "[1]"),
                                         at(5, "done", WriteKind::kChunk, R"({"from":0,"items":[1,2]})")};

  const PendingAppendsByKey pending = pending_appends(writes);

  EXPECT_EQ(pending, (PendingAppendsByKey{{"log", {2, 3}}, {"messages", {1, 1}}}));
}

TEST(StateAssembler, FoldedWritesAssembleToTheSameState) {
  const std::vector<StepWrite> writes = {
      at(0, "a", WriteKind::kReplace, "1"),        at(0, "log", WriteKind::kAppend, "[0]"),
      at(2, "log", WriteKind::kSnapshot, "[0,1]"), at(3, "log", WriteKind::kAppend, "[2,3]"),
      at(4, "a", WriteKind::kReplace, "2"),        at(4, "reset", WriteKind::kReplace, "[9]"),
      at(5, "reset", WriteKind::kAppend, "[10]")};

  core::Result<std::vector<KeyWrite>> folded = fold_writes(writes);

  ASSERT_TRUE(folded.has_value());
  const std::vector<KeyWrite> expected = {{"a", WriteKind::kReplace, "2"},
                                          {"log", WriteKind::kSnapshot, "[0,1,2,3]"},
                                          {"reset", WriteKind::kSnapshot, "[9,10]"}};
  EXPECT_EQ(*folded, expected);
}

TEST(StateAssembler, AChunkPlacesItsItemsFromItsIndex) {
  const std::vector<StepWrite> writes = {at(0, "log", WriteKind::kSnapshot, "[0]"),
                                         at(1, "log", WriteKind::kAppend, "[1]"),
                                         at(2, "log", WriteKind::kChunk, R"({"from":1,"items":[1,2]})"),
                                         at(3, "log", WriteKind::kAppend, "[3]")};

  core::Result<Json> state = assemble_state(writes);

  ASSERT_TRUE(state.has_value()) << state.error().describe();
  EXPECT_EQ(*state, Json::parse(R"({"log":[0,1,2,3]})"));
}

TEST(StateAssembler, AChunkAfterAFoldedSnapshotOfPartOfItsItemsLandsInPlace) {
  // A prune folded steps up to 1 into a snapshot; the chunk at step 2 covers steps 1 and 2.
  const std::vector<StepWrite> writes = {at(1, "log", WriteKind::kSnapshot, "[0,1]"),
                                         at(2, "log", WriteKind::kChunk, R"({"from":1,"items":[1,2]})")};

  core::Result<Json> state = assemble_state(writes);

  ASSERT_TRUE(state.has_value()) << state.error().describe();
  EXPECT_EQ(*state, Json::parse(R"({"log":[0,1,2]})"));
}

TEST(StateAssembler, AChunkStartingPastTheEndOfTheListIsRefused) {
  const std::vector<StepWrite> writes = {at(0, "log", WriteKind::kSnapshot, "[0]"),
                                         at(4, "log", WriteKind::kChunk, R"({"from":3,"items":[3]})")};

  core::Result<Json> state = assemble_state(writes);

  ASSERT_FALSE(state.has_value());
  EXPECT_EQ(state.error().where, "step 4, key 'log'");
  EXPECT_NE(state.error().message.find("starts at item 3 but the list has 1"), std::string::npos);
}

TEST(StateAssembler, AMalformedChunkIsRefused) {
  const std::vector<StepWrite> writes = {at(2, "log", WriteKind::kChunk, "[1,2]")};

  core::Result<Json> state = assemble_state(writes);

  ASSERT_FALSE(state.has_value());
  EXPECT_EQ(state.error().where, "step 2, key 'log'");
}

TEST(StateAssembler, AppendWritesBecomeAChunkOfThePendingItemsEveryNthAppend) {
  PendingAppendsByKey pending;
  Json log = Json::array({0});
  std::vector<std::string> written;
  for (int item = 1; item <= 7; ++item) {
    log.push_back(item);
    const KeyWrite write = append_write("log", Json::array({item}), log, pending, 3);
    written.push_back(std::string(to_string(write.kind)) + " " + write.value_json);
  }

  EXPECT_EQ(written, (std::vector<std::string>{
                         "append [1]", "append [2]", R"(chunk {"from":1,"items":[1,2,3]})", "append [4]",
                         "append [5]", R"(chunk {"from":4,"items":[4,5,6]})", "append [7]"}));
  EXPECT_EQ(pending, (PendingAppendsByKey{{"log", {1, 1}}}));
}

TEST(StateAssembler, StoredBytesOfAppendWritesGrowLinearly) {
  const auto bytes_for = [](int appends) {
    PendingAppendsByKey pending;
    Json log = Json::array();
    std::size_t bytes = 0;
    for (int i = 0; i < appends; ++i) {
      const Json item = std::string(100, 'x');
      log.push_back(item);
      bytes += append_write("log", Json::array({item}), log, pending, 16).value_json.size();
    }
    return bytes;
  };

  const double per_item_at_100 = static_cast<double>(bytes_for(100)) / 100.0;
  const double per_item_at_2000 = static_cast<double>(bytes_for(2000)) / 2000.0;

  EXPECT_LT(per_item_at_2000, per_item_at_100 * 1.1);  // a snapshot every 16 would be ~60x more
}

}  // namespace
}  // namespace planfirst::graph
