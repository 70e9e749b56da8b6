#include "embed/index_cache.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "embed/counting_embedder.hpp"
#include "embed/hashed_embedder.hpp"
#include "support/temp_dir.hpp"

namespace planfirst::embed {
namespace {

using testing::CountingEmbedder;
using testing::FailingEmbedder;

const std::vector<std::string> kTools = {
    "aggregate: group rows and compute totals by dimension",
    "plot_line: line chart of a metric over time",
    "detect_anomalies: find outliers and spikes",
    "compute_summary_stats: mean, median, standard deviation",
};

std::string read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

std::vector<SearchHit> search(const VectorIndex& index, const std::string& query) {
  core::Result<EmbeddingMatrix> q = HashedEmbedder().embed(std::vector<std::string>{query});
  EXPECT_TRUE(q.has_value());
  core::Result<std::vector<SearchHit>> hits = index.search(q->row(0), 4);
  EXPECT_TRUE(hits.has_value());
  return hits ? *hits : std::vector<SearchHit>{};
}

class IndexCacheTest : public ::testing::Test {
 protected:
  // Builds the cache file for kTools and returns its path.
  std::filesystem::path store_once() {
    core::Result<CachedIndex> built = cache_.load_or_build(counting_, kTools);
    EXPECT_TRUE(built.has_value());
    return built ? built->file : std::filesystem::path();
  }

  test_support::TempDir dir_;
  IndexCache cache_{dir_.path() / "tool_index"};
  HashedEmbedder hashed_;
  CountingEmbedder counting_{hashed_};
};

TEST_F(IndexCacheTest, BuildsOnceThenLoadsWithoutEmbedding) {
  core::Result<CachedIndex> first = cache_.load_or_build(counting_, kTools);
  ASSERT_TRUE(first.has_value()) << first.error().describe();

  core::Result<CachedIndex> second = IndexCache(dir_.path() / "tool_index").load_or_build(counting_, kTools);

  ASSERT_TRUE(second.has_value()) << second.error().describe();
  EXPECT_EQ(first->outcome, CacheOutcome::kBuilt);
  EXPECT_EQ(second->outcome, CacheOutcome::kLoaded);
  EXPECT_EQ(counting_.calls(), 1);
  EXPECT_EQ(second->key, first->key);
  EXPECT_TRUE(std::filesystem::exists(first->file));
  EXPECT_EQ(search(second->index, "chart over time"), search(first->index, "chart over time"));
  EXPECT_EQ(search(second->index, "chart over time")[0].id, 1);
}

TEST_F(IndexCacheTest, RebuildsUnderANewKeyWhenATextChanges) {
  store_once();
  std::vector<std::string> changed = kTools;
  changed[2] = "detect_anomalies: find outliers, spikes and dips";

  core::Result<CachedIndex> rebuilt = cache_.load_or_build(counting_, changed);

  ASSERT_TRUE(rebuilt.has_value());
  EXPECT_EQ(rebuilt->outcome, CacheOutcome::kBuilt);
  EXPECT_NE(rebuilt->key, index_cache_key(hashed_, kTools));
  EXPECT_EQ(counting_.calls(), 2);
}

TEST_F(IndexCacheTest, KeysOnIdentityDimensionsOrderAndTextBoundaries) {
  const HashedEmbedder small({.dimensions = 64});
  const std::vector<std::string> reordered = {kTools[1], kTools[0], kTools[2], kTools[3]};
  const std::vector<std::string> split_a = {"ab", "c"};
  const std::vector<std::string> split_b = {"a", "bc"};

  const std::string key = index_cache_key(hashed_, kTools);

  EXPECT_EQ(key.size(), 16u);
  EXPECT_EQ(key, index_cache_key(HashedEmbedder(), kTools));
  EXPECT_NE(key, index_cache_key(small, kTools));
  EXPECT_NE(key, index_cache_key(hashed_, reordered));
  EXPECT_NE(index_cache_key(hashed_, split_a), index_cache_key(hashed_, split_b));
}

TEST_F(IndexCacheTest, RebuildsAFileWithAFlippedPayloadByte) {
  const std::filesystem::path file = store_once();
  std::string bytes = read_bytes(file);
  bytes[bytes.size() / 2] ^= 0x01;
  write_bytes(file, bytes);

  core::Result<CachedIndex> reloaded = cache_.load_or_build(counting_, kTools);

  ASSERT_TRUE(reloaded.has_value());
  EXPECT_EQ(reloaded->outcome, CacheOutcome::kRebuilt);
  EXPECT_NE(reloaded->refusal.find("payload checksum"), std::string::npos) << reloaded->refusal;
  EXPECT_EQ(counting_.calls(), 2);
  EXPECT_EQ(search(reloaded->index, "find outliers")[0].id, 2);
}

TEST_F(IndexCacheTest, RebuildsAFileWithAFlippedHeaderByte) {
  const std::filesystem::path file = store_once();
  std::string bytes = read_bytes(file);
  bytes[24] ^= 0x01;  // the row count
  write_bytes(file, bytes);

  core::Result<CachedIndex> reloaded = cache_.load_or_build(counting_, kTools);

  ASSERT_TRUE(reloaded.has_value());
  EXPECT_EQ(reloaded->outcome, CacheOutcome::kRebuilt);
  EXPECT_NE(reloaded->refusal.find("header checksum"), std::string::npos) << reloaded->refusal;
}

TEST_F(IndexCacheTest, RebuildsATruncatedFileAndThenLoadsTheRewrittenOne) {
  const std::filesystem::path file = store_once();
  std::filesystem::resize_file(file, std::filesystem::file_size(file) - 100);

  core::Result<CachedIndex> rebuilt = cache_.load_or_build(counting_, kTools);
  core::Result<CachedIndex> loaded = cache_.load_or_build(counting_, kTools);

  ASSERT_TRUE(rebuilt.has_value() && loaded.has_value());
  EXPECT_EQ(rebuilt->outcome, CacheOutcome::kRebuilt);
  EXPECT_NE(rebuilt->refusal.find("truncated"), std::string::npos) << rebuilt->refusal;
  EXPECT_EQ(loaded->outcome, CacheOutcome::kLoaded);
  EXPECT_EQ(counting_.calls(), 2);
}

TEST_F(IndexCacheTest, RebuildsAFileCutInsideItsHeader) {
  const std::filesystem::path file = store_once();
  std::filesystem::resize_file(file, 20);

  core::Result<CachedIndex> rebuilt = cache_.load_or_build(counting_, kTools);

  ASSERT_TRUE(rebuilt.has_value());
  EXPECT_EQ(rebuilt->outcome, CacheOutcome::kRebuilt);
  EXPECT_NE(rebuilt->refusal.find("truncated header"), std::string::npos) << rebuilt->refusal;
}

TEST_F(IndexCacheTest, RebuildsAForeignFileStoredUnderAnotherKey) {
  const std::filesystem::path file = store_once();
  const std::vector<std::string> other = {"plot_bar: bar chart by category", "plot_histogram: distribution"};
  std::filesystem::copy_file(file, cache_.file_for(index_cache_key(hashed_, other)));

  core::Result<CachedIndex> rebuilt = cache_.load_or_build(counting_, other);

  ASSERT_TRUE(rebuilt.has_value());
  EXPECT_EQ(rebuilt->outcome, CacheOutcome::kRebuilt);
  EXPECT_NE(rebuilt->refusal.find("foreign"), std::string::npos) << rebuilt->refusal;
  EXPECT_EQ(rebuilt->index.size(), 2u);
}

TEST_F(IndexCacheTest, RebuildsAFileThatIsNotAnIndexAtAll) {
  const std::filesystem::path file = cache_.file_for(index_cache_key(hashed_, kTools));
  std::filesystem::create_directories(file.parent_path());
  write_bytes(file, std::string(200, 'x'));

  core::Result<CachedIndex> rebuilt = cache_.load_or_build(counting_, kTools);

  ASSERT_TRUE(rebuilt.has_value());
  EXPECT_EQ(rebuilt->outcome, CacheOutcome::kRebuilt);
  EXPECT_NE(rebuilt->refusal.find("bad magic"), std::string::npos) << rebuilt->refusal;
}

TEST_F(IndexCacheTest, RebuildsWhenTheThresholdNowAsksForAnotherIndexKind) {
  const std::filesystem::path file = store_once();
  const IndexCache hnsw_cache(dir_.path() / "tool_index", {.hnsw_threshold = 2});

  core::Result<CachedIndex> rebuilt = hnsw_cache.load_or_build(counting_, kTools);
  core::Result<CachedIndex> loaded = hnsw_cache.load_or_build(counting_, kTools);

  ASSERT_TRUE(rebuilt.has_value() && loaded.has_value());
  EXPECT_EQ(rebuilt->outcome, CacheOutcome::kRebuilt);
  EXPECT_EQ(rebuilt->index.kind(), IndexKind::kHnsw);
  EXPECT_EQ(loaded->outcome, CacheOutcome::kLoaded);
  EXPECT_EQ(loaded->index.kind(), IndexKind::kHnsw);
  EXPECT_EQ(search(loaded->index, "line chart over time")[0].id, 1);
}

TEST_F(IndexCacheTest, StillReturnsTheIndexWhenTheDirectoryCannotBeWritten) {
  const std::filesystem::path blocker = dir_.write("not_a_dir", "a file where the cache folder should be");
  const IndexCache blocked(blocker / "tool_index");

  core::Result<CachedIndex> built = blocked.load_or_build(counting_, kTools);

  ASSERT_TRUE(built.has_value()) << built.error().describe();
  EXPECT_EQ(built->outcome, CacheOutcome::kBuilt);
  EXPECT_FALSE(built->store_error.empty());
  EXPECT_EQ(built->index.size(), kTools.size());
}

TEST_F(IndexCacheTest, PassesOnTheEmbeddersError) {
  const FailingEmbedder failing;

  core::Result<CachedIndex> result = cache_.load_or_build(failing, kTools);

  ASSERT_FALSE(result.has_value());
  EXPECT_EQ(result.error().code, core::ErrorCode::kUnavailable);
  EXPECT_FALSE(std::filesystem::exists(cache_.file_for(index_cache_key(failing, kTools))));
}

}  // namespace
}  // namespace planfirst::embed
