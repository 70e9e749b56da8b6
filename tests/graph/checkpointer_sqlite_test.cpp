// SqliteCheckpointer beyond the conformance suite: the file's schema version, records of a newer
// format, reopening, two connections to one file, and a child process killed mid-chain.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "graph/child/child_process.hpp"
#include "graph/sqlite_checkpointer.hpp"
#include "graph/state_assembler.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::graph {
namespace {

using core::Json;

// Runs `sql` on the file with a raw connection; returns the first column of the first row.
std::string raw_sql(const std::filesystem::path& file, const std::string& sql) {
  sqlite3* db = nullptr;
  std::string first;
  if (sqlite3_open(file.c_str(), &db) == SQLITE_OK) {
    sqlite3_exec(
        db, sql.c_str(),
        [](void* out, int columns, char** values, char**) {
          auto* text = static_cast<std::string*>(out);
          if (text->empty() && columns > 0 && values[0] != nullptr) *text = values[0];
          return 0;
        },
        &first, nullptr);
  }
  sqlite3_close(db);
  return first;
}

CheckpointRecord record_at(std::int64_t step, std::vector<KeyWrite> writes = {}) {
  CheckpointRecord record;
  record.thread_id = "t";
  record.checkpoint_id = "t-" + std::to_string(step);
  record.parent_id = step > 0 ? "t-" + std::to_string(step - 1) : "";
  record.step = step;
  record.node = "worker";
  record.created_at = std::chrono::system_clock::now();
  record.writes = std::move(writes);
  return record;
}

std::unique_ptr<SqliteCheckpointer> open_or_fail(const std::filesystem::path& file) {
  auto opened = SqliteCheckpointer::open(file);
  EXPECT_TRUE(opened.has_value()) << opened.error().describe();
  return opened ? std::move(*opened) : nullptr;
}

TEST(SqliteCheckpointer, ADeletedThreadGivesItsPagesBackToTheFileSystem) {
  const test_support::TempDir dir;
  const auto file = dir.path() / "c.sqlite";
  {
    auto store = open_or_fail(file);
    ASSERT_NE(store, nullptr);
    const Json big = std::string(4 << 20, 'x');
    ASSERT_TRUE(store->append(record_at(0, {{"table", WriteKind::kReplace, big.dump()}}), "").has_value());
  }
  const std::uintmax_t with_thread = std::filesystem::file_size(file);
  {
    auto store = open_or_fail(file);
    ASSERT_NE(store, nullptr);

    ASSERT_TRUE(store->delete_thread("t").has_value());
  }

  EXPECT_GT(with_thread, std::uintmax_t{4} << 20);
  EXPECT_LT(std::filesystem::file_size(file), std::uintmax_t{256} << 10);
  EXPECT_EQ(raw_sql(file, "PRAGMA auto_vacuum"), "2");  // incremental
}

TEST(SqliteCheckpointer, RefusesAFileWithANewerSchemaVersion) {
  const test_support::TempDir dir;
  const auto file = dir.path() / "c.sqlite";
  ASSERT_NE(open_or_fail(file), nullptr);
  raw_sql(file, "UPDATE planfirst_schema SET version = 9 WHERE component = 'checkpoints'");

  auto reopened = SqliteCheckpointer::open(file);

  ASSERT_FALSE(reopened.has_value());
  EXPECT_EQ(reopened.error().code, core::ErrorCode::kFailedPrecondition);
  EXPECT_NE(reopened.error().message.find("schema version 9"), std::string::npos) << reopened.error().message;
  EXPECT_NE(reopened.error().message.find("upgrade planfirst"), std::string::npos);
}

TEST(SqliteCheckpointer, RefusesToReadARecordOfANewerFormat) {
  const test_support::TempDir dir;
  const auto file = dir.path() / "c.sqlite";
  auto store = open_or_fail(file);
  ASSERT_TRUE(store->append(record_at(0, {{"a", WriteKind::kReplace, "1"}}), "").has_value());
  raw_sql(file, "UPDATE planfirst_checkpoints SET format_version = 3");

  auto head = store->head("t");
  auto writes = store->writes_for_state("t", "t-0");

  ASSERT_FALSE(head.has_value());
  EXPECT_EQ(head.error().code, core::ErrorCode::kFailedPrecondition);
  EXPECT_NE(head.error().message.find("format version 3"), std::string::npos) << head.error().message;
  ASSERT_FALSE(writes.has_value());
  EXPECT_EQ(writes.error().code, core::ErrorCode::kFailedPrecondition);
}

TEST(SqliteCheckpointer, AFileThatIsNotADatabaseIsAClearError) {
  const test_support::TempDir dir;
  const auto file = dir.write("junk.sqlite", std::string(8192, 'j'));

  auto opened = SqliteCheckpointer::open(file);

  ASSERT_FALSE(opened.has_value());
  EXPECT_EQ(opened.error().where, file.string());
  EXPECT_NE(opened.error().message.find("not a database"), std::string::npos) << opened.error().message;
}

TEST(SqliteCheckpointer, StateSurvivesReopeningTheFile) {
  const test_support::TempDir dir;
  const auto file = dir.path() / "c.sqlite";
  {
    auto store = open_or_fail(file);
    ASSERT_TRUE(store->append(record_at(0, {{"log", WriteKind::kAppend, "[1]"}}), "").has_value());
    ASSERT_TRUE(store->append(record_at(1, {{"log", WriteKind::kAppend, "[2]"}}), "t-0").has_value());
  }

  auto store = open_or_fail(file);
  auto writes = store->writes_for_state("t", "t-1");

  ASSERT_TRUE(writes.has_value());
  EXPECT_EQ(*assemble_state(*writes), Json::parse(R"({"log":[1,2]})"));
  EXPECT_EQ(raw_sql(file, "PRAGMA journal_mode"), "wal");
}

TEST(SqliteCheckpointer, TwoConnectionsToOneFileShareOneHead) {
  const test_support::TempDir dir;
  const auto file = dir.path() / "c.sqlite";
  auto first = open_or_fail(file);
  auto second = open_or_fail(file);
  ASSERT_TRUE(first->append(record_at(0), "").has_value());
  ASSERT_TRUE(second->append(record_at(1), "t-0").has_value());

  CheckpointRecord stale = record_at(1);
  stale.checkpoint_id = "t-stale";
  auto refused = first->append(stale, "t-0");

  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code, core::ErrorCode::kConflict);
  EXPECT_EQ((*first->head("t"))->checkpoint_id, "t-1");
}

// The final state of `thread` in the file, or null when it cannot be read.
Json final_state(Checkpointer& store, const std::string& thread) {
  auto head = store.head(thread);
  if (!head || !head->has_value()) return nullptr;
  auto writes = store.writes_for_state(thread, (*head)->checkpoint_id);
  if (!writes) return nullptr;
  auto state = assemble_state(*writes);
  return state ? *state : Json(nullptr);
}

// Checks what a killed child left: an intact file whose head is a whole record, a state that
// matches its step, one side effect per completed step, and an unbroken chain back to step 0.
void expect_consistent(const std::filesystem::path& file, const std::string& thread,
                       std::int64_t* head_step) {
  EXPECT_EQ(raw_sql(file, "PRAGMA integrity_check"), "ok");
  auto store = open_or_fail(file);
  ASSERT_NE(store, nullptr);
  auto head = store->head(thread);
  ASSERT_TRUE(head.has_value()) << head.error().describe();
  *head_step = -1;
  if (!head->has_value()) return;  // killed before its first commit
  *head_step = (*head)->step;
  const Json state = final_state(*store, thread);
  ASSERT_TRUE(state.is_object());
  EXPECT_EQ(state["counter"], *head_step);
  Json expected_effects = Json::array();
  for (std::int64_t step = 1; step <= *head_step; ++step) expected_effects.push_back(step);
  EXPECT_EQ(state["side_effects"], expected_effects);
  auto history = store->history(thread);
  ASSERT_TRUE(history.has_value());
  ASSERT_EQ(history->size(), static_cast<std::size_t>(*head_step + 1));
  for (std::size_t i = 0; i + 1 < history->size(); ++i) {
    EXPECT_EQ((*history)[i].parent_id, (*history)[i + 1].checkpoint_id);
  }
}

// Waits until the child has committed a step after `step` to `file` (at most 20 s), so that a kill
// lands mid-chain however slowly the child starts (a sanitizer build, a loaded machine).
void wait_for_commit_after(const std::filesystem::path& file, std::int64_t step) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    if (std::filesystem::exists(file)) {
      const std::string head =
          raw_sql(file, "SELECT max(step) FROM planfirst_checkpoints WHERE thread_id = 'run'");
      if (!head.empty() && std::stoll(head) > step) return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

TEST(SqliteCheckpointer, KilledMidChainResumesToTheSameStateWithoutRepeatingSideEffects) {
  constexpr int kTrials = 24;
  constexpr std::int64_t kSteps = 4000;
  const test_support::TempDir dir;
  const std::string child = PLANFIRST_CHECKPOINTER_CHILD;
  const auto reference_file = dir.path() / "reference.sqlite";
  const auto crashed_file = dir.path() / "crashed.sqlite";
  std::string out, err;
  ASSERT_EQ(testing::run_to_end(
                {child, "chain", "sqlite:" + reference_file.string(), "run", std::to_string(kSteps)},
                dir.path() / "reference.out", &out, &err),
            0)
      << err;
  std::mt19937 random(20240917);
  std::uniform_int_distribution<int> delay_ms(0, 20);
  int killed_mid_chain = 0;
  std::int64_t last_step = -1;

  for (int trial = 0; trial < kTrials; ++trial) {
    testing::ChildProcess process(
        {child, "chain", "sqlite:" + crashed_file.string(), "run", std::to_string(kSteps)},
        dir.path() / "trial.out");
    ASSERT_TRUE(process.started());
    wait_for_commit_after(crashed_file, last_step);
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms(random)));
    process.kill_now();
    const int code = process.wait();
    std::int64_t step = -1;
    expect_consistent(crashed_file, "run", &step);
    ASSERT_FALSE(::testing::Test::HasFatalFailure()) << "after trial " << trial;
    if (code == -SIGKILL && step > last_step && step < kSteps) ++killed_mid_chain;
    EXPECT_GE(step, last_step) << "trial " << trial << " lost committed steps";
    last_step = step;
  }
  const int finished =
      testing::run_to_end({child, "chain", "sqlite:" + crashed_file.string(), "run", std::to_string(kSteps)},
                          dir.path() / "final.out", &out, &err);

  EXPECT_EQ(finished, 0) << err;
  EXPECT_GE(killed_mid_chain, kTrials / 2) << "too few kills landed mid-chain to mean anything";
  auto reference = open_or_fail(reference_file);
  auto crashed = open_or_fail(crashed_file);
  const Json expected = final_state(*reference, "run");
  const Json actual = final_state(*crashed, "run");
  ASSERT_TRUE(expected.is_object());
  EXPECT_EQ(actual["side_effects"].size(), static_cast<std::size_t>(kSteps));
  EXPECT_TRUE(actual == expected) << "final states differ";
}

}  // namespace
}  // namespace planfirst::graph
