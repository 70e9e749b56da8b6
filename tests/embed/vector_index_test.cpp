#include "embed/vector_index.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "embed/hashed_embedder.hpp"

namespace planfirst::embed {
namespace {

const std::vector<std::string> kTools = {
    "aggregate: group rows and compute totals, sums and averages of metrics by dimension",
    "plot_line: line chart of a metric over time, time series trend",
    "plot_bar: bar chart comparing a metric across categories",
    "detect_anomalies: find outliers and unusual spikes in a metric",
    "compute_summary_stats: summary statistics, mean, median, standard deviation",
    "plot_histogram: histogram of the distribution of a numeric column",
};

EmbeddingMatrix embed_texts(const std::vector<std::string>& texts) {
  core::Result<EmbeddingMatrix> m = HashedEmbedder().embed(texts);
  EXPECT_TRUE(m.has_value());
  return m ? std::move(*m) : EmbeddingMatrix{};
}

// Unit vectors from a fixed xorshift sequence: the same floats on every platform.
EmbeddingMatrix pseudo_random_unit_rows(std::size_t rows, std::size_t dimensions) {
  EmbeddingMatrix m{rows, dimensions, std::vector<float>(rows * dimensions)};
  std::uint64_t state = 0x9e3779b97f4a7c15ULL;
  for (std::size_t r = 0; r < rows; ++r) {
    double norm = 0.0;
    for (std::size_t d = 0; d < dimensions; ++d) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      const float v = static_cast<float>(static_cast<double>(state >> 11) / 9007199254740992.0 - 0.5);
      m.values[r * dimensions + d] = v;
      norm += static_cast<double>(v) * v;
    }
    for (std::size_t d = 0; d < dimensions; ++d)
      m.values[r * dimensions + d] /= static_cast<float>(std::sqrt(norm));
  }
  return m;
}

std::vector<std::int64_t> ids_of(const std::vector<SearchHit>& hits) {
  std::vector<std::int64_t> ids;
  for (const SearchHit& hit : hits) ids.push_back(hit.id);
  return ids;
}

TEST(VectorIndex, FindsTheToolWhoseDescriptionMatchesTheQuery) {
  core::Result<VectorIndex> index = VectorIndex::build(embed_texts(kTools));
  ASSERT_TRUE(index.has_value()) << index.error().describe();
  const EmbeddingMatrix query = embed_texts({"line chart of revenue over time"});

  core::Result<std::vector<SearchHit>> hits = index->search(query.row(0), 3);

  ASSERT_TRUE(hits.has_value()) << hits.error().describe();
  ASSERT_EQ(hits->size(), 3u);
  EXPECT_EQ((*hits)[0].id, 1);
  EXPECT_GE((*hits)[0].score, (*hits)[1].score);
  EXPECT_GE((*hits)[1].score, (*hits)[2].score);
  EXPECT_EQ(index->kind(), IndexKind::kFlat);
}

TEST(VectorIndex, BreaksScoreTiesByAscendingId) {
  // Rows 7, 3, 5 and 1 are the same vector; the query is that vector, so four rows tie at the top.
  EmbeddingMatrix rows = pseudo_random_unit_rows(10, 16);
  for (const std::size_t copy : {3u, 5u, 1u}) {
    std::copy_n(rows.values.begin() + 7 * 16, 16,
                rows.values.begin() + static_cast<std::ptrdiff_t>(copy) * 16);
  }
  core::Result<VectorIndex> index = VectorIndex::build(rows);
  ASSERT_TRUE(index.has_value());

  core::Result<std::vector<SearchHit>> hits = index->search(rows.row(7), 3);

  ASSERT_TRUE(hits.has_value());
  EXPECT_EQ(ids_of(*hits), (std::vector<std::int64_t>{1, 3, 5}));
  EXPECT_EQ((*hits)[0].score, (*hits)[2].score);
}

TEST(VectorIndex, ReturnsEveryRowWhenKExceedsTheSize) {
  core::Result<VectorIndex> index = VectorIndex::build(embed_texts(kTools));
  ASSERT_TRUE(index.has_value());
  const EmbeddingMatrix query = embed_texts({"histogram"});

  core::Result<std::vector<SearchHit>> hits = index->search(query.row(0), 100);

  ASSERT_TRUE(hits.has_value());
  EXPECT_EQ(hits->size(), kTools.size());
  EXPECT_EQ((*hits)[0].id, 5);
}

TEST(VectorIndex, RefusesAQueryOfTheWrongLength) {
  core::Result<VectorIndex> index = VectorIndex::build(embed_texts(kTools));
  ASSERT_TRUE(index.has_value());
  const std::vector<float> query(100, 0.1f);

  core::Result<std::vector<SearchHit>> hits = index->search(query, 3);

  ASSERT_FALSE(hits.has_value());
  EXPECT_EQ(hits.error().code, core::ErrorCode::kInvalidArgument);
  EXPECT_NE(hits.error().message.find("100 dimensions"), std::string::npos);
}

TEST(VectorIndex, RefusesAMatrixWhoseSizeDoesNotMatchItsShape) {
  const EmbeddingMatrix broken{3, 4, std::vector<float>(11, 0.5f)};

  core::Result<VectorIndex> index = VectorIndex::build(broken);

  ASSERT_FALSE(index.has_value());
  EXPECT_EQ(index.error().code, core::ErrorCode::kInvalidArgument);
}

TEST(VectorIndex, SearchesAnEmptyIndexWithoutHits) {
  core::Result<VectorIndex> index = VectorIndex::build(EmbeddingMatrix{0, 8, {}});
  ASSERT_TRUE(index.has_value());
  const std::vector<float> query(8, 0.0f);

  core::Result<std::vector<SearchHit>> hits = index->search(query, 5);

  ASSERT_TRUE(hits.has_value());
  EXPECT_TRUE(hits->empty());
}

TEST(VectorIndex, ScoresEachRowAsTheProductsAddedInDimensionOrder) {
  const EmbeddingMatrix rows = pseudo_random_unit_rows(37, 384);  // two full blocks and a partial one
  core::Result<VectorIndex> index = VectorIndex::build(rows);
  ASSERT_TRUE(index.has_value());
  const EmbeddingMatrix query = embed_texts({"line chart of revenue over time"});  // mostly zeros

  core::Result<std::vector<SearchHit>> hits = index->search(query.row(0), rows.rows);

  ASSERT_TRUE(hits.has_value());
  ASSERT_EQ(hits->size(), rows.rows);
  for (const SearchHit& hit : *hits) {
    const std::span<const float> row = rows.row(static_cast<std::size_t>(hit.id));
    float sum = 0.0f;
    for (std::size_t i = 0; i < 384; ++i) sum += query.row(0)[i] * row[i];
    EXPECT_EQ(hit.score, sum) << "row " << hit.id;
  }
}

TEST(VectorIndex, ABatchFindsWhatEachQueryFindsAlone) {
  const EmbeddingMatrix rows = pseudo_random_unit_rows(50, 384);
  core::Result<VectorIndex> index = VectorIndex::build(rows);
  ASSERT_TRUE(index.has_value());
  const EmbeddingMatrix queries = embed_texts({"find outliers", "", "bar chart by region", "top 5 products"});

  core::Result<std::vector<std::vector<SearchHit>>> batch = index->search(queries, 7);

  ASSERT_TRUE(batch.has_value()) << batch.error().describe();
  ASSERT_EQ(batch->size(), queries.rows);
  for (std::size_t q = 0; q < queries.rows; ++q) {
    EXPECT_EQ((*batch)[q], *index->search(queries.row(q), 7)) << "query " << q;
  }
  EXPECT_EQ(ids_of((*batch)[1]), (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6}));  // all zero: ties by id
}

TEST(VectorIndex, RefusesRowsThatHoldANaN) {
  EmbeddingMatrix rows = pseudo_random_unit_rows(4, 8);
  rows.values[9] = std::nanf("");

  core::Result<VectorIndex> index = VectorIndex::build(rows);

  ASSERT_FALSE(index.has_value());
  EXPECT_EQ(index.error().code, core::ErrorCode::kInvalidArgument);
}

TEST(VectorIndex, SwitchesToHnswAboveTheThresholdAndStillFindsEachRow) {
  const EmbeddingMatrix rows = pseudo_random_unit_rows(2000, 32);
  const VectorIndexOptions options{.hnsw_threshold = 1000};

  core::Result<VectorIndex> index = VectorIndex::build(rows, options);

  ASSERT_TRUE(index.has_value()) << index.error().describe();
  EXPECT_EQ(index->kind(), IndexKind::kHnsw);
  EXPECT_EQ(index->size(), 2000u);
  for (const std::int64_t id : {0, 17, 999, 1500, 1999}) {
    core::Result<std::vector<SearchHit>> hits = index->search(rows.row(static_cast<std::size_t>(id)), 5);
    ASSERT_TRUE(hits.has_value());
    ASSERT_EQ(hits->size(), 5u);
    EXPECT_EQ((*hits)[0].id, id);
    EXPECT_NEAR((*hits)[0].score, 1.0f, 1e-5);
    EXPECT_GE((*hits)[0].score, (*hits)[4].score);
  }
}

TEST(VectorIndex, AgreesWithExactSearchOnTheTopHitWhenHnsw) {
  const EmbeddingMatrix rows = pseudo_random_unit_rows(3000, 16);
  const EmbeddingMatrix queries = pseudo_random_unit_rows(3020, 16);  // the last 20 rows are new
  core::Result<VectorIndex> exact = VectorIndex::build(rows);
  core::Result<VectorIndex> approximate = VectorIndex::build(rows, {.hnsw_threshold = 100});
  ASSERT_TRUE(exact.has_value() && approximate.has_value());

  int agreed = 0;
  for (std::size_t q = 3000; q < 3020; ++q) {
    core::Result<std::vector<SearchHit>> a = exact->search(queries.row(q), 1);
    core::Result<std::vector<SearchHit>> b = approximate->search(queries.row(q), 1);
    ASSERT_TRUE(a.has_value() && b.has_value());
    agreed += (*a)[0].id == (*b)[0].id ? 1 : 0;
  }

  EXPECT_EQ(exact->kind(), IndexKind::kFlat);
  EXPECT_GE(agreed, 18);  // HNSW is approximate; at these settings it should rarely miss
}

TEST(VectorIndex, RoundTripsThroughSerialize) {
  core::Result<VectorIndex> index = VectorIndex::build(embed_texts(kTools));
  ASSERT_TRUE(index.has_value());
  core::Result<std::vector<std::uint8_t>> bytes = index->serialize();
  ASSERT_TRUE(bytes.has_value());
  const EmbeddingMatrix query = embed_texts({"find outliers"});

  core::Result<VectorIndex> loaded = VectorIndex::deserialize(*bytes, IndexKind::kFlat, kTools.size(), 384);

  ASSERT_TRUE(loaded.has_value()) << loaded.error().describe();
  EXPECT_EQ(*loaded->search(query.row(0), 6), *index->search(query.row(0), 6));
}

TEST(VectorIndex, RefusesSerializedBytesOfAnotherShapeOrKind) {
  core::Result<VectorIndex> index = VectorIndex::build(embed_texts(kTools));
  ASSERT_TRUE(index.has_value());
  core::Result<std::vector<std::uint8_t>> bytes = index->serialize();
  ASSERT_TRUE(bytes.has_value());

  core::Result<VectorIndex> wrong_rows = VectorIndex::deserialize(*bytes, IndexKind::kFlat, 7, 384);
  core::Result<VectorIndex> wrong_kind = VectorIndex::deserialize(*bytes, IndexKind::kHnsw, 6, 384);
  core::Result<VectorIndex> garbage =
      VectorIndex::deserialize(std::vector<std::uint8_t>{'n', 'o', 'p', 'e'}, IndexKind::kFlat, 6, 384);

  EXPECT_FALSE(wrong_rows.has_value());
  EXPECT_FALSE(wrong_kind.has_value());
  ASSERT_FALSE(garbage.has_value());
  EXPECT_NE(garbage.error().message.find("FAISS"), std::string::npos);
}

}  // namespace
}  // namespace planfirst::embed
