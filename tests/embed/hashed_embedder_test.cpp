#include "embed/hashed_embedder.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/content_hash.hpp"

namespace planfirst::embed {
using core::fnv1a64;
using core::kFnv1aOffsetBasis;
using core::to_hex;
namespace {

EmbeddingMatrix embed_all(const Embedder& embedder, const std::vector<std::string>& texts) {
  core::Result<EmbeddingMatrix> matrix = embedder.embed(texts);
  EXPECT_TRUE(matrix.has_value()) << (matrix ? "" : matrix.error().describe());
  return matrix ? std::move(*matrix) : EmbeddingMatrix{};
}

double norm(std::span<const float> v) {
  double sum = 0.0;
  for (const float x : v) sum += static_cast<double>(x) * x;
  return std::sqrt(sum);
}

TEST(HashedEmbedder, GivesIdenticalBytesForIdenticalTextAcrossRunsAndInstances) {
  const std::vector<std::string> texts = {"plot a line chart over time", "aggregate revenue by region",
                                          "plot a line chart over time"};

  const EmbeddingMatrix first = embed_all(HashedEmbedder(), texts);
  const EmbeddingMatrix second = embed_all(HashedEmbedder(), texts);

  ASSERT_EQ(first.values.size(), 3u * 384u);
  ASSERT_EQ(second.values.size(), first.values.size());
  EXPECT_EQ(std::memcmp(first.values.data(), second.values.data(), first.values.size() * sizeof(float)), 0);
  EXPECT_EQ(std::memcmp(first.row(0).data(), first.row(2).data(), 384 * sizeof(float)), 0);
}

TEST(HashedEmbedder, PinsTheVectorOfAKnownText) {
  // Guards portability: these values change only if the features, weights or hash change, which
  // must also change identity() (and so every cache key).
  const EmbeddingMatrix matrix = embed_all(HashedEmbedder(), {"time series line plot"});

  std::uint64_t digest = kFnv1aOffsetBasis;
  for (const float v : matrix.values) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    for (int i = 0; i < 4; ++i) digest = fnv1a64(std::string(1, static_cast<char>(bits >> (8 * i))), digest);
  }

  EXPECT_EQ(HashedEmbedder().identity(), "hashed:v1:384");
  EXPECT_EQ(to_hex(digest), "15c5957f7545c79b");
}

TEST(HashedEmbedder, ReturnsUnitLengthRowsAndZeroForTextWithoutWords) {
  const HashedEmbedder embedder;

  const EmbeddingMatrix matrix = embed_all(embedder, {"Revenue totals by region", "x", "  ,;!  ", ""});

  ASSERT_EQ(matrix.rows, 4u);
  EXPECT_EQ(matrix.dimensions, 384u);
  EXPECT_NEAR(norm(matrix.row(0)), 1.0, 1e-6);
  EXPECT_NEAR(norm(matrix.row(1)), 1.0, 1e-6);
  EXPECT_EQ(norm(matrix.row(2)), 0.0);
  EXPECT_EQ(norm(matrix.row(3)), 0.0);
}

TEST(HashedEmbedder, IgnoresCaseAndPunctuation) {
  const HashedEmbedder embedder;

  const EmbeddingMatrix matrix =
      embed_all(embedder, {"Plot a LINE chart, over time!", "plot a line chart over time"});

  EXPECT_EQ(std::memcmp(matrix.row(0).data(), matrix.row(1).data(), 384 * sizeof(float)), 0);
}

TEST(HashedEmbedder, PlacesSimilarToolDescriptionsCloserThanUnrelatedOnes) {
  const HashedEmbedder embedder;

  const EmbeddingMatrix m =
      embed_all(embedder, {"plot a line chart over time", "time series line plot", "detect anomalies",
                           "aggregate metrics grouped by region", "summarize totals by group"});

  EXPECT_GT(cosine_similarity(m.row(0), m.row(1)), cosine_similarity(m.row(0), m.row(2)));
  EXPECT_GT(cosine_similarity(m.row(0), m.row(1)), cosine_similarity(m.row(0), m.row(3)));
  EXPECT_GT(cosine_similarity(m.row(3), m.row(4)), cosine_similarity(m.row(3), m.row(2)));
}

TEST(HashedEmbedder, MatchesInflectedFormsThroughStemming) {
  const HashedEmbedder embedder;

  const EmbeddingMatrix m = embed_all(embedder, {"detecting anomalies", "detect anomaly", "draw charts"});

  EXPECT_GT(cosine_similarity(m.row(0), m.row(1)), 0.5);
  EXPECT_LT(cosine_similarity(m.row(0), m.row(2)), 0.2);
}

TEST(HashedEmbedder, NamesNonDefaultSettingsInItsIdentity) {
  const HashedEmbedder small({.dimensions = 64});
  const HashedEmbedder reweighted({.bigram_weight = 1.0});

  const EmbeddingMatrix m = embed_all(small, {"a b c"});

  EXPECT_EQ(small.identity(), "hashed:v1:64");
  EXPECT_EQ(reweighted.identity(), "hashed:v1:384:w1,1,0.2");
  EXPECT_EQ(m.values.size(), 64u);
}

TEST(HashedEmbedder, EmbedsAnEmptyBatchAsAnEmptyMatrix) {
  const HashedEmbedder embedder;

  const EmbeddingMatrix m = embed_all(embedder, {});

  EXPECT_EQ(m.rows, 0u);
  EXPECT_EQ(m.dimensions, 384u);
  EXPECT_TRUE(m.values.empty());
}

}  // namespace
}  // namespace planfirst::embed
