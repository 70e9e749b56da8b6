// One conformance suite for every Checkpointer: memory, SQLite and PostgreSQL (a throwaway server
// on loopback) must behave the same, error codes and states included.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "graph/checkpointer.hpp"
#include "graph/checkpointer_test_stores.hpp"
#include "graph/state_assembler.hpp"

namespace planfirst::graph {
namespace {

using core::Json;
using testing::MemoryStore;
using testing::PostgresStore;
using testing::SqliteStore;

const std::chrono::system_clock::time_point kStart =
    std::chrono::system_clock::time_point(std::chrono::seconds(1'700'000'000));

std::string id_of(const std::string& thread, std::int64_t step) {
  return thread + "-c" + std::to_string(step);
}

CheckpointRecord make_record(const std::string& thread, std::int64_t step, std::vector<KeyWrite> writes = {},
                             CheckpointStatus status = CheckpointStatus::kRunning) {
  CheckpointRecord record;
  record.thread_id = thread;
  record.checkpoint_id = id_of(thread, step);
  record.parent_id = step > 0 ? id_of(thread, step - 1) : "";
  record.step = step;
  record.node = step == 0 ? "__input__" : "worker";
  record.last_completed_node = record.node;
  record.next_node = status == CheckpointStatus::kDone ? "" : "supervisor";
  record.status = status;
  record.metadata_json = Json{{"step", step}}.dump();
  record.created_at = kStart + std::chrono::seconds(step) + std::chrono::nanoseconds(123);
  record.writes = std::move(writes);
  return record;
}

KeyWrite replace(std::string key, const Json& value) {
  return {std::move(key), WriteKind::kReplace, value.dump()};
}
KeyWrite append(std::string key, const Json& items) {
  return {std::move(key), WriteKind::kAppend, items.dump()};
}
KeyWrite snapshot(std::string key, const Json& value) {
  return {std::move(key), WriteKind::kSnapshot, value.dump()};
}
KeyWrite chunk(std::string key, std::size_t from, const Json& items) {
  return {std::move(key), WriteKind::kChunk, Json{{"from", from}, {"items", items}}.dump()};
}

template <typename Store>
class CheckpointerConformance : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string failure;
    checkpointer_ = store_.open(&failure);
    ASSERT_NE(checkpointer_, nullptr) << Store::kName << ": " << failure;
  }

  Checkpointer& store() { return *checkpointer_; }

  // Appends `record` after the thread's current head (none for step 0); fails the test on error.
  void append_next(const CheckpointRecord& record) {
    core::Result<void> appended = store().append(record, record.parent_id);
    ASSERT_TRUE(appended.has_value()) << appended.error().describe();
  }

  Json state_at(const std::string& thread, const std::string& checkpoint_id) {
    core::Result<std::vector<StepWrite>> writes = store().writes_for_state(thread, checkpoint_id);
    EXPECT_TRUE(writes.has_value()) << writes.error().describe();
    if (!writes) return nullptr;
    core::Result<Json> state = assemble_state(*writes);
    EXPECT_TRUE(state.has_value()) << state.error().describe();
    return state ? *state : Json(nullptr);
  }

  // A thread of `steps` records: "step" replaced every step, "log" appended every step as the
  // runner writes it (a chunk every fourth append), "tag" replaced every fifth step.
  void write_chain(const std::string& thread, std::int64_t steps) {
    Json log = Json::array();
    PendingAppendsByKey pending;
    for (std::int64_t step = 0; step < steps; ++step) {
      std::vector<KeyWrite> writes = {replace("step", step)};
      log.push_back({{"step", step}});
      writes.push_back(append_write("log", Json::array({{{"step", step}}}), log, pending, 4));
      if (step % 5 == 0) writes.push_back(replace("tag", "t" + std::to_string(step)));
      append_next(make_record(thread, step, std::move(writes)));
    }
  }

  Store store_;
  std::unique_ptr<Checkpointer> checkpointer_;
};

struct StoreNames {
  template <typename Store>
  static std::string GetName(int) {
    return Store::kName;
  }
};

using Stores = ::testing::Types<MemoryStore, SqliteStore, PostgresStore>;
TYPED_TEST_SUITE(CheckpointerConformance, Stores, StoreNames);

TYPED_TEST(CheckpointerConformance, AppendedRecordBecomesTheHeadAndReadsBackFieldByField) {
  CheckpointRecord input = make_record("t1", 0, {replace("question", "revenue by region")});
  CheckpointRecord first =
      make_record("t1", 1, {replace("next_agent", "analyst")}, CheckpointStatus::kInterrupted);
  first.metadata_json = R"({"checkpoint_message":"Scope ok?","checkpoint_prompt":"Proceed?"})";
  this->append_next(input);

  core::Result<void> appended = this->store().append(first, input.checkpoint_id);
  core::Result<std::optional<CheckpointRecord>> head = this->store().head("t1");
  core::Result<CheckpointRecord> earlier = this->store().get("t1", input.checkpoint_id);

  ASSERT_TRUE(appended.has_value()) << appended.error().describe();
  ASSERT_TRUE(head.has_value() && head->has_value());
  CheckpointRecord expected = first;
  expected.writes.clear();
  EXPECT_EQ((*head)->checkpoint_id, expected.checkpoint_id);
  EXPECT_EQ((*head)->parent_id, expected.parent_id);
  EXPECT_EQ((*head)->step, 1);
  EXPECT_EQ((*head)->node, "worker");
  EXPECT_EQ((*head)->last_completed_node, "worker");
  EXPECT_EQ((*head)->next_node, "supervisor");
  EXPECT_EQ((*head)->status, CheckpointStatus::kInterrupted);
  EXPECT_EQ((*head)->metadata_json, expected.metadata_json);
  EXPECT_EQ((*head)->created_at, expected.created_at);
  EXPECT_EQ((*head)->format_version, kCheckpointFormatVersion);
  EXPECT_TRUE((*head)->writes.empty());
  ASSERT_TRUE(earlier.has_value());
  EXPECT_EQ(earlier->node, "__input__");
  EXPECT_EQ(earlier->parent_id, "");
}

TYPED_TEST(CheckpointerConformance, UnknownThreadHasNoHeadAndUnknownCheckpointIsNotFound) {
  this->append_next(make_record("known", 0));

  core::Result<std::optional<CheckpointRecord>> head = this->store().head("unknown");
  core::Result<CheckpointRecord> record = this->store().get("known", "no-such-id");
  core::Result<std::vector<StepWrite>> writes = this->store().writes_for_state("unknown", "known-c0");
  core::Result<std::vector<CheckpointRecord>> history = this->store().history("unknown");

  ASSERT_TRUE(head.has_value());
  EXPECT_FALSE(head->has_value());
  ASSERT_FALSE(record.has_value());
  EXPECT_EQ(record.error().code, core::ErrorCode::kNotFound);
  EXPECT_NE(record.error().message.find("no-such-id"), std::string::npos);
  ASSERT_FALSE(writes.has_value());
  EXPECT_EQ(writes.error().code, core::ErrorCode::kNotFound);
  ASSERT_FALSE(history.has_value());
  EXPECT_EQ(history.error().code, core::ErrorCode::kNotFound);
}

TYPED_TEST(CheckpointerConformance, StaleExpectedHeadIsAConflictNamingBothIds) {
  this->write_chain("t", 2);  // head t-c1
  CheckpointRecord fork = make_record("t", 1);
  fork.checkpoint_id = "t-fork";

  core::Result<void> appended = this->store().append(fork, "t-c0");
  core::Result<std::optional<CheckpointRecord>> head = this->store().head("t");

  ASSERT_FALSE(appended.has_value());
  EXPECT_EQ(appended.error().code, core::ErrorCode::kConflict);
  EXPECT_NE(appended.error().message.find("t-c0"), std::string::npos) << appended.error().message;
  EXPECT_NE(appended.error().message.find("t-c1"), std::string::npos) << appended.error().message;
  ASSERT_TRUE(head.has_value() && head->has_value());
  EXPECT_EQ((*head)->checkpoint_id, "t-c1");
}

TYPED_TEST(CheckpointerConformance, StartingAThreadThatExistsIsAConflict) {
  this->append_next(make_record("t", 0));
  CheckpointRecord again = make_record("t", 0);
  again.checkpoint_id = "t-again";

  core::Result<void> appended = this->store().append(again, "");

  ASSERT_FALSE(appended.has_value());
  EXPECT_EQ(appended.error().code, core::ErrorCode::kConflict);
  EXPECT_NE(appended.error().message.find("t-c0"), std::string::npos) << appended.error().message;
}

TYPED_TEST(CheckpointerConformance, ExpectingAHeadOfAMissingThreadIsAConflict) {
  const CheckpointRecord record = make_record("ghost", 3);

  core::Result<void> appended = this->store().append(record, "ghost-c2");

  ASSERT_FALSE(appended.has_value());
  EXPECT_EQ(appended.error().code, core::ErrorCode::kConflict);
  EXPECT_NE(appended.error().message.find("ghost-c2"), std::string::npos);
}

TYPED_TEST(CheckpointerConformance, RecordsThatBreakTheChainAreRefused) {
  this->write_chain("t", 3);  // head t-c2 at step 2
  CheckpointRecord same_step = make_record("t", 2);
  same_step.checkpoint_id = "t-other";
  same_step.parent_id = "t-c2";
  CheckpointRecord wrong_parent = make_record("t", 3);
  wrong_parent.parent_id = "t-c0";
  CheckpointRecord twice = make_record("t", 3, {replace("a", 1), append("a", Json::array({2}))});
  CheckpointRecord reused_id = make_record("t", 3);
  reused_id.checkpoint_id = "t-c1";

  core::Result<void> not_after = this->store().append(same_step, "t-c2");
  core::Result<void> parent = this->store().append(wrong_parent, "t-c2");
  core::Result<void> duplicate_key = this->store().append(twice, "t-c2");
  core::Result<void> duplicate_id = this->store().append(reused_id, "t-c2");

  ASSERT_FALSE(not_after.has_value());
  EXPECT_EQ(not_after.error().code, core::ErrorCode::kInvalidArgument);
  ASSERT_FALSE(parent.has_value());
  EXPECT_EQ(parent.error().code, core::ErrorCode::kInvalidArgument);
  ASSERT_FALSE(duplicate_key.has_value());
  EXPECT_NE(duplicate_key.error().message.find("'a' twice"), std::string::npos)
      << duplicate_key.error().message;
  ASSERT_FALSE(duplicate_id.has_value());
  EXPECT_EQ(duplicate_id.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ((*this->store().head("t"))->checkpoint_id, "t-c2");
  EXPECT_EQ(this->store().history("t")->size(), 3u);
}

TYPED_TEST(CheckpointerConformance, WritesForStateAreTheLastReplaceOrSnapshotThenLaterAppends) {
  this->append_next(make_record("t", 0, {replace("a", 1), append("log", Json::array({0}))}));
  this->append_next(make_record("t", 1, {append("log", Json::array({1}))}));
  this->append_next(make_record("t", 2, {replace("a", 2), snapshot("log", Json::array({0, 1, 2}))}));
  this->append_next(make_record("t", 3, {append("log", Json::array({3, 4}))}));
  this->append_next(make_record("t", 4, {replace("b", "x")}));

  core::Result<std::vector<StepWrite>> at_1 = this->store().writes_for_state("t", "t-c1");
  core::Result<std::vector<StepWrite>> at_3 = this->store().writes_for_state("t", "t-c3");
  const Json state_4 = this->state_at("t", "t-c4");

  const std::vector<StepWrite> expected_1 = {
      {0, replace("a", 1)}, {0, append("log", Json::array({0}))}, {1, append("log", Json::array({1}))}};
  const std::vector<StepWrite> expected_3 = {{2, replace("a", 2)},
                                             {2, snapshot("log", Json::array({0, 1, 2}))},
                                             {3, append("log", Json::array({3, 4}))}};
  ASSERT_TRUE(at_1.has_value() && at_3.has_value());
  ASSERT_EQ(at_1->size(), expected_1.size());
  for (std::size_t i = 0; i < expected_1.size(); ++i) {
    EXPECT_EQ((*at_1)[i].step, expected_1[i].step);
    EXPECT_EQ((*at_1)[i].write, expected_1[i].write);
  }
  ASSERT_EQ(at_3->size(), expected_3.size());
  for (std::size_t i = 0; i < expected_3.size(); ++i) {
    EXPECT_EQ((*at_3)[i].step, expected_3[i].step);
    EXPECT_EQ((*at_3)[i].write, expected_3[i].write);
  }
  EXPECT_EQ(state_4, Json::parse(R"({"a": 2, "b": "x", "log": [0, 1, 2, 3, 4]})"));
}

TYPED_TEST(CheckpointerConformance, WritesForStateSkipTheAppendsThatAChunkCovers) {
  this->append_next(make_record("t", 0, {snapshot("log", Json::array({0}))}));
  this->append_next(make_record("t", 1, {append("log", Json::array({1}))}));
  this->append_next(make_record("t", 2, {chunk("log", 1, Json::array({1, 2}))}));
  this->append_next(make_record("t", 3, {append("log", Json::array({3})), replace("a", 3)}));
  this->append_next(make_record("t", 4, {chunk("log", 3, Json::array({3, 4}))}));
  this->append_next(make_record("t", 5, {append("log", Json::array({5}))}));

  core::Result<std::vector<StepWrite>> at_5 = this->store().writes_for_state("t", "t-c5");
  core::Result<std::vector<StepWrite>> at_3 = this->store().writes_for_state("t", "t-c3");

  ASSERT_TRUE(at_5.has_value() && at_3.has_value());
  std::vector<std::int64_t> steps_5, steps_3;
  for (const StepWrite& write : *at_5) steps_5.push_back(write.step);
  for (const StepWrite& write : *at_3) steps_3.push_back(write.step);
  EXPECT_EQ(steps_5, (std::vector<std::int64_t>{0, 2, 3, 4, 5}));  // 3 is "a"; log's append at 3 is covered
  EXPECT_EQ(steps_3, (std::vector<std::int64_t>{0, 2, 3, 3}));
  EXPECT_EQ(this->state_at("t", "t-c5"), Json::parse(R"({"a": 3, "log": [0, 1, 2, 3, 4, 5]})"));
  EXPECT_EQ(this->state_at("t", "t-c3"), Json::parse(R"({"a": 3, "log": [0, 1, 2, 3]})"));
}

TYPED_TEST(CheckpointerConformance, PruneInsideAChunksRangeKeepsLaterStates) {
  this->write_chain("t", 10);  // chunks at steps 3 and 7; step 5 falls inside the second's range
  std::map<std::int64_t, Json> before;
  for (std::int64_t step = 5; step < 10; ++step) before[step] = this->state_at("t", id_of("t", step));

  ASSERT_TRUE(this->store().prune("t", PruneOptions{.keep_last = 5, .older_than = {}}).has_value());

  std::map<std::int64_t, Json> after;
  for (std::int64_t step = 5; step < 10; ++step) after[step] = this->state_at("t", id_of("t", step));
  EXPECT_EQ(after, before);
  EXPECT_EQ(after[9]["log"].size(), 10u);
}

TYPED_TEST(CheckpointerConformance, StateAtEveryCheckpointEqualsAReplayOfAllWrites) {
  std::mt19937 random(7);
  std::map<std::int64_t, Json> expected;
  Json state = Json::object();
  const std::vector<std::string> keys = {"a", "b", "messages", "reasoning"};
  for (std::int64_t step = 0; step < 60; ++step) {
    std::vector<KeyWrite> writes;
    for (const std::string& key : keys) {
      if (random() % 3 == 0) continue;
      const bool list = key == "messages" || key == "reasoning";
      if (!list) {
        writes.push_back(replace(key, step * 10 + static_cast<int>(random() % 10)));
        state[key] = Json::parse(writes.back().value_json);
      } else if (random() % 5 == 0) {
        Json whole = state.value(key, Json::array());
        whole.push_back(step);
        writes.push_back(snapshot(key, whole));
        state[key] = whole;
      } else {
        writes.push_back(append(key, Json::array({step, "x"})));
        if (!state.contains(key)) state[key] = Json::array();
        state[key].push_back(step);
        state[key].push_back("x");
      }
    }
    this->append_next(make_record("t", step, std::move(writes)));
    expected[step] = state;
  }

  std::map<std::int64_t, Json> actual;
  for (const auto& [step, unused] : expected) actual[step] = this->state_at("t", id_of("t", step));

  EXPECT_EQ(actual, expected);
}

TYPED_TEST(CheckpointerConformance, HistoryIsNewestFirstAndThreadsAreSorted) {
  this->write_chain("zeta", 3);
  this->write_chain("Alpha", 1);
  this->write_chain("alpha", 2);

  core::Result<std::vector<CheckpointRecord>> history = this->store().history("zeta");
  core::Result<std::vector<std::string>> threads = this->store().threads();

  ASSERT_TRUE(history.has_value());
  std::vector<std::string> ids;
  for (const CheckpointRecord& record : *history) ids.push_back(record.checkpoint_id);
  EXPECT_EQ(ids, (std::vector<std::string>{"zeta-c2", "zeta-c1", "zeta-c0"}));
  ASSERT_TRUE(threads.has_value());
  EXPECT_EQ(*threads, (std::vector<std::string>{"Alpha", "alpha", "zeta"}));
}

TYPED_TEST(CheckpointerConformance, PruneKeepLastKeepsTheStatesOfKeptCheckpoints) {
  this->write_chain("t", 30);
  std::map<std::int64_t, Json> before;
  for (std::int64_t step = 25; step < 30; ++step) before[step] = this->state_at("t", id_of("t", step));
  const std::uint64_t bytes_before = *this->store().stored_bytes("t");

  core::Result<PruneReport> report = this->store().prune("t", PruneOptions{.keep_last = 5, .older_than = {}});

  ASSERT_TRUE(report.has_value()) << report.error().describe();
  EXPECT_EQ(report->removed, 25u);
  EXPECT_EQ(report->kept, 5u);
  std::map<std::int64_t, Json> after;
  for (std::int64_t step = 25; step < 30; ++step) after[step] = this->state_at("t", id_of("t", step));
  EXPECT_EQ(after, before);
  EXPECT_EQ(this->store().history("t")->size(), 5u);
  EXPECT_EQ(this->store().get("t", "t-c24").error().code, core::ErrorCode::kNotFound);
  EXPECT_LT(*this->store().stored_bytes("t"), bytes_before);
}

TYPED_TEST(CheckpointerConformance, PruneThenAppendKeepsBuildingTheSameState) {
  this->write_chain("t", 12);
  ASSERT_TRUE(this->store().prune("t", PruneOptions{.keep_last = 3, .older_than = {}}).has_value());

  this->append_next(make_record("t", 12, {append("log", Json::array({{{"step", 12}}}))}));
  const Json state = this->state_at("t", "t-c12");

  ASSERT_EQ(state["log"].size(), 13u);
  EXPECT_EQ(state["log"][12], Json({{"step", 12}}));
  EXPECT_EQ(state["step"], 11);
  EXPECT_EQ(state["tag"], "t10");
}

TYPED_TEST(CheckpointerConformance, PruneNeverDropsAPendingInterrupt) {
  this->write_chain("t", 6);
  CheckpointRecord paused =
      make_record("t", 6, {replace("checkpoint_prompt", "Proceed?")}, CheckpointStatus::kInterrupted);
  paused.metadata_json = R"({"checkpoint_message":"Synthesis complete","checkpoint_prompt":"Proceed?"})";
  this->append_next(paused);
  const Json before = this->state_at("t", "t-c6");

  core::Result<PruneReport> report =
      this->store().prune("t", PruneOptions{.keep_last = 1, .older_than = kStart + std::chrono::hours(1)});

  ASSERT_TRUE(report.has_value()) << report.error().describe();
  EXPECT_EQ(report->kept, 1u);
  core::Result<std::optional<CheckpointRecord>> head = this->store().head("t");
  ASSERT_TRUE(head.has_value() && head->has_value());
  EXPECT_EQ((*head)->checkpoint_id, "t-c6");
  EXPECT_EQ((*head)->status, CheckpointStatus::kInterrupted);
  EXPECT_EQ((*head)->metadata_json, paused.metadata_json);
  EXPECT_EQ(this->state_at("t", "t-c6"), before);
}

TYPED_TEST(CheckpointerConformance, PruneOlderThanDropsOnlyCheckpointsCreatedBefore) {
  this->write_chain("t", 20);
  const Json before = this->state_at("t", "t-c19");

  core::Result<PruneReport> report = this->store().prune(
      "t", PruneOptions{.keep_last = {}, .older_than = kStart + std::chrono::seconds(12)});

  ASSERT_TRUE(report.has_value()) << report.error().describe();
  EXPECT_EQ(report->removed, 12u);
  EXPECT_EQ(this->store().history("t")->back().checkpoint_id, "t-c12");
  EXPECT_EQ(this->state_at("t", "t-c19"), before);
}

TYPED_TEST(CheckpointerConformance, PruneWithoutALimitIsInvalid) {
  this->write_chain("t", 3);

  core::Result<PruneReport> none = this->store().prune("t", PruneOptions{});
  core::Result<PruneReport> zero = this->store().prune("t", PruneOptions{.keep_last = 0, .older_than = {}});
  core::Result<PruneReport> unknown =
      this->store().prune("nope", PruneOptions{.keep_last = 1, .older_than = {}});

  EXPECT_EQ(none.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(zero.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_EQ(unknown.error().code, core::ErrorCode::kNotFound);
  EXPECT_EQ(this->store().history("t")->size(), 3u);
}

TYPED_TEST(CheckpointerConformance, DeleteThreadRemovesItAndOnlyIt) {
  this->write_chain("gone", 4);
  this->write_chain("kept", 2);

  core::Result<void> deleted = this->store().delete_thread("gone");
  core::Result<void> again = this->store().delete_thread("gone");

  ASSERT_TRUE(deleted.has_value()) << deleted.error().describe();
  EXPECT_EQ(again.error().code, core::ErrorCode::kNotFound);
  EXPECT_FALSE(this->store().head("gone")->has_value());
  EXPECT_EQ(this->store().stored_bytes("gone").error().code, core::ErrorCode::kNotFound);
  EXPECT_EQ(*this->store().threads(), std::vector<std::string>{"kept"});
  EXPECT_EQ(this->state_at("kept", "kept-c1")["step"], 1);
}

TYPED_TEST(CheckpointerConformance, ARecordOfANewerFormatVersionIsRefused) {
  CheckpointRecord future = make_record("t", 0);
  future.format_version = kCheckpointFormatVersion + 1;

  core::Result<void> appended = this->store().append(future, "");

  ASSERT_FALSE(appended.has_value());
  EXPECT_EQ(appended.error().code, core::ErrorCode::kFailedPrecondition);
  EXPECT_NE(appended.error().message.find("format version 3"), std::string::npos) << appended.error().message;
  EXPECT_FALSE(this->store().head("t")->has_value());
}

TYPED_TEST(CheckpointerConformance, StoredBytesGrowLinearlyWithAppendOnlyHistory) {
  const std::string kilobyte(1024, 'x');
  std::uint64_t at_50 = 0;

  for (std::int64_t step = 0; step < 100; ++step) {
    this->append_next(
        make_record("t", step, {append("messages", Json::array({kilobyte})), replace("n", step)}));
    if (step == 49) at_50 = *this->store().stored_bytes("t");
  }
  const std::uint64_t at_100 = *this->store().stored_bytes("t");

  EXPECT_GT(at_50, 50u * 1024u);
  EXPECT_LT(at_100, 100u * (1024u + 300u));  // a record and its writes cost well under 300 bytes of overhead
  EXPECT_NEAR(static_cast<double>(at_100) / static_cast<double>(at_50), 2.0, 0.05);
}

TYPED_TEST(CheckpointerConformance, ConcurrentAppendsToDifferentThreadsAllLand) {
  constexpr int kWriters = 4;
  constexpr std::int64_t kSteps = 40;
  std::vector<std::thread> writers;
  std::vector<std::string> failures(kWriters);

  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      const std::string thread = "w" + std::to_string(w);
      for (std::int64_t step = 0; step < kSteps; ++step) {
        const CheckpointRecord record =
            make_record(thread, step, {replace("step", step), append("log", Json::array({step}))});
        if (core::Result<void> r = this->store().append(record, record.parent_id); !r) {
          failures[w] = r.error().describe();
          return;
        }
      }
    });
  }
  for (std::thread& writer : writers) writer.join();

  for (int w = 0; w < kWriters; ++w) {
    const std::string thread = "w" + std::to_string(w);
    EXPECT_EQ(failures[w], "");
    EXPECT_EQ((*this->store().head(thread))->step, kSteps - 1);
    EXPECT_EQ(this->state_at(thread, id_of(thread, kSteps - 1))["log"].size(),
              static_cast<std::size_t>(kSteps));
  }
}

TYPED_TEST(CheckpointerConformance, RacingAppendsAfterOneHeadHaveExactlyOneWinner) {
  this->write_chain("t", 1);
  constexpr int kRacers = 4;
  std::vector<std::thread> racers;
  std::vector<core::ErrorCode> outcomes(kRacers);
  std::vector<bool> won(kRacers, false);

  for (int r = 0; r < kRacers; ++r) {
    racers.emplace_back([&, r] {
      CheckpointRecord record = make_record("t", 1, {replace("winner", r)});
      record.checkpoint_id = "t-racer" + std::to_string(r);
      core::Result<void> appended = this->store().append(record, "t-c0");
      won[r] = appended.has_value();
      if (!appended) outcomes[r] = appended.error().code;
    });
  }
  for (std::thread& racer : racers) racer.join();

  int winners = 0;
  for (int r = 0; r < kRacers; ++r) {
    if (won[r]) {
      ++winners;
    } else {
      EXPECT_EQ(outcomes[r], core::ErrorCode::kConflict);
    }
  }
  EXPECT_EQ(winners, 1);
  EXPECT_EQ(this->store().history("t")->size(), 2u);
}

}  // namespace
}  // namespace planfirst::graph
