// Thread retention over a real store: the newest N threads stay, a thread older than the age limit
// goes whatever its rank, and the thread about to run is never removed.
#include "graph/thread_retention.hpp"

#include <gmock/gmock.h>

#include <chrono>
#include <string>
#include <vector>

#include "graph/checkpointer_test_stores.hpp"

namespace planfirst::graph {
namespace {

using std::chrono::hours;
using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

const std::chrono::system_clock::time_point kNow =
    std::chrono::system_clock::time_point(std::chrono::seconds(1'700'000'000));

class ThreadRetentionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string failure;
    store_ = sqlite_.open(&failure);
    ASSERT_NE(store_, nullptr) << failure;
  }
  // A thread of one checkpoint, made `age` before kNow.
  void add_thread(const std::string& thread, std::chrono::system_clock::duration age) {
    CheckpointRecord record;
    record.thread_id = thread;
    record.checkpoint_id = thread + "-c0";
    record.node = "__input__";
    record.next_node = "";
    record.status = CheckpointStatus::kDone;
    record.created_at = kNow - age;
    record.writes = {{"question", WriteKind::kReplace, "\"q\""}};
    ASSERT_TRUE(store_->append(record, "").has_value()) << thread;
  }
  std::vector<std::string> threads() {
    core::Result<std::vector<std::string>> listed = store_->threads();
    EXPECT_TRUE(listed.has_value());
    return listed ? *listed : std::vector<std::string>();
  }
  testing::SqliteStore sqlite_;
  std::unique_ptr<Checkpointer> store_;
};

TEST_F(ThreadRetentionTest, KeepsTheNewestThreadsAndRemovesTheRest) {
  add_thread("a", hours(4));
  add_thread("b", hours(3));
  add_thread("c", hours(2));
  add_thread("d", hours(1));

  core::Result<ThreadPruneReport> pruned = prune_threads(*store_, {.keep_threads = 2}, kNow);

  ASSERT_TRUE(pruned.has_value()) << pruned.error().describe();
  EXPECT_THAT(pruned->removed, ElementsAre("b", "a"));
  EXPECT_EQ(pruned->kept, 2u);
  EXPECT_THAT(threads(), ElementsAre("c", "d"));
  EXPECT_EQ(describe(*pruned, {.keep_threads = 2}), "removed 2 threads (keeping the newest 2)");
}

TEST_F(ThreadRetentionTest, RemovesThreadsOlderThanTheAgeLimitWhateverTheirRank) {
  add_thread("old", hours(24 * 31));
  add_thread("recent", hours(24 * 2));

  const ThreadRetention retention{.keep_threads = 100, .max_age = hours(24 * 30)};
  core::Result<ThreadPruneReport> pruned = prune_threads(*store_, retention, kNow);

  ASSERT_TRUE(pruned.has_value()) << pruned.error().describe();
  EXPECT_THAT(pruned->removed, ElementsAre("old"));
  EXPECT_THAT(threads(), ElementsAre("recent"));
  EXPECT_EQ(describe(*pruned, retention),
            "removed 1 thread (keeping the newest 100, none older than 30 days)");
}

TEST_F(ThreadRetentionTest, NeverRemovesTheThreadAboutToRun) {
  add_thread("current", hours(24 * 90));
  add_thread("other", hours(24 * 60));
  add_thread("newer", hours(1));

  core::Result<ThreadPruneReport> pruned =
      prune_threads(*store_, {.keep_threads = 1, .max_age = hours(24 * 30)}, kNow, "current");

  ASSERT_TRUE(pruned.has_value()) << pruned.error().describe();
  EXPECT_THAT(pruned->removed, ElementsAre("newer", "other")) << "the running thread is the newest of 1";
  EXPECT_THAT(threads(), UnorderedElementsAre("current"));
}

TEST_F(ThreadRetentionTest, ANewThreadAboutToRunTakesOneOfTheKeptPlaces) {
  add_thread("a", hours(2));
  add_thread("b", hours(1));

  core::Result<ThreadPruneReport> pruned = prune_threads(*store_, {.keep_threads = 2}, kNow, "new");

  ASSERT_TRUE(pruned.has_value()) << pruned.error().describe();
  EXPECT_THAT(pruned->removed, ElementsAre("a"));
  EXPECT_THAT(threads(), ElementsAre("b"));
}

TEST_F(ThreadRetentionTest, NoLimitRemovesNothing) {
  add_thread("a", hours(24 * 365));

  core::Result<ThreadPruneReport> pruned = prune_threads(*store_, {}, kNow);

  ASSERT_TRUE(pruned.has_value()) << pruned.error().describe();
  EXPECT_TRUE(pruned->removed.empty());
  EXPECT_THAT(threads(), ElementsAre("a"));
}

}  // namespace
}  // namespace planfirst::graph
