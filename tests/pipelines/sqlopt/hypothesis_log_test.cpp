#include "pipelines/sqlopt/hypothesis_log.hpp"

#include <gtest/gtest.h>

#include "support/temp_dir.hpp"

namespace planfirst::sqlopt {
namespace {

TEST(HypothesisLog, MovesEachHypothesisThroughItsLifecycleAndRanksTransforms) {
  const test_support::TempDir dir;
  core::Result<HypothesisLog> log = HypothesisLog::open((dir.path() / "hypotheses.sqlite").string());
  ASSERT_TRUE(log.has_value()) << log.error().describe();
  const std::string query = query_fingerprint("SELECT 1");

  const core::Result<long long> win =
      log->hypothesize(query, "duckdb", "decorrelation", "scalar_aggregate_to_join");
  const core::Result<long long> loss =
      log->hypothesize(query, "duckdb", "union_consolidation", "disjoint_union_to_union_all");
  const core::Result<long long> open =
      log->hypothesize(query, "postgresql", "decorrelation", "scalar_aggregate_to_join");
  ASSERT_TRUE(win && loss && open);
  ASSERT_TRUE(log->settle(*win, true, 2.5, "WIN").has_value());
  ASSERT_TRUE(log->settle(*loss, true, 1.02, "NEUTRAL").has_value());

  EXPECT_EQ(*log->status(*win), "CONFIRMED");
  EXPECT_EQ(*log->status(*loss), "REJECTED");
  EXPECT_EQ(*log->status(*open), "HYPOTHESIZED");
  const core::Result<std::vector<LeaderboardRow>> board = log->leaderboard();
  ASSERT_TRUE(board.has_value());
  ASSERT_EQ(board->size(), 2u);
  EXPECT_EQ((*board)[0].transform, "decorrelation");
  EXPECT_DOUBLE_EQ((*board)[0].success_rate, 1.0);
  EXPECT_EQ((*board)[1].transform, "union_consolidation");
  EXPECT_EQ((*board)[1].confirmed, 0);
}

TEST(HypothesisLog, FingerprintsAreStable) {
  EXPECT_EQ(query_fingerprint("SELECT 1"), query_fingerprint("SELECT 1"));
  EXPECT_NE(query_fingerprint("SELECT 1"), query_fingerprint("SELECT 2"));
  EXPECT_EQ(query_fingerprint("SELECT 1").size(), 16u);
}

}  // namespace
}  // namespace planfirst::sqlopt
