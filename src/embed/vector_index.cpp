#include "embed/vector_index.hpp"

#include <faiss/IndexFlat.h>
#include <faiss/IndexHNSW.h>
#include <faiss/impl/HNSW.h>
#include <faiss/impl/io.h>
#include <faiss/index_io.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>

namespace planfirst::embed {
namespace {

using FaissId = faiss::Index::idx_t;

// The rows of an exact index in blocks of kBlockRows rows: within a block, each dimension's
// kBlockRows values lie side by side, so one pass over a block scores all its rows at once.
struct BlockedRows {
  static constexpr std::size_t kBlockRows = 16;

  std::size_t rows = 0;
  std::size_t dimensions = 0;
  // (row r, dimension i) at (r / kBlockRows * dimensions + i) * kBlockRows + r % kBlockRows; the
  // last block is padded with zero rows.
  std::vector<float> values;

  // REQUIRES: `row_major` holds rows x dimensions floats.
  static BlockedRows from_rows(const float* row_major, std::size_t rows, std::size_t dimensions) {
    const std::size_t padded = (rows + kBlockRows - 1) / kBlockRows * kBlockRows;
    BlockedRows blocked{rows, dimensions, std::vector<float>(padded * dimensions)};
    for (std::size_t r = 0; r < rows; ++r) {
      float* first = blocked.values.data() + blocked.lane(r);
      for (std::size_t i = 0; i < dimensions; ++i) first[i * kBlockRows] = row_major[r * dimensions + i];
    }
    return blocked;
  }

  std::vector<float> to_rows() const {
    std::vector<float> row_major(rows * dimensions);
    for (std::size_t r = 0; r < rows; ++r) {
      const float* first = values.data() + lane(r);
      for (std::size_t i = 0; i < dimensions; ++i) row_major[r * dimensions + i] = first[i * kBlockRows];
    }
    return row_major;
  }

  // The block that starts at `first_row`, a multiple of kBlockRows.
  const float* block(std::size_t first_row) const { return values.data() + first_row * dimensions; }
  // Where `row`'s first value is; its next ones follow every kBlockRows floats.
  std::size_t lane(std::size_t row) const {
    return row / kBlockRows * kBlockRows * dimensions + row % kBlockRows;
  }
};

bool better(const SearchHit& a, const SearchHit& b) {
  if (a.score != b.score) return a.score > b.score;
  return a.id < b.id;
}

bool all_finite(std::span<const float> values) {
  return std::all_of(values.begin(), values.end(), [](float v) { return std::isfinite(v); });
}

// A query's nonzero dimensions, ascending. Skipping its zero terms leaves every sum bit for bit
// what the full sum gives: a product with a zero is +0 or -0 (stored values are finite), adding
// either to a partial sum leaves it unchanged, and a sum that starts at +0 is never -0 in
// round-to-nearest.
struct SparseQuery {
  std::vector<std::uint32_t> dimensions;
  std::vector<float> values;

  explicit SparseQuery(std::span<const float> query) {
    for (std::size_t i = 0; i < query.size(); ++i) {
      if (query[i] == 0.0f) continue;
      dimensions.push_back(static_cast<std::uint32_t>(i));
      values.push_back(query[i]);
    }
  }
};

// Four floats added and multiplied lane by lane (SSE on x86-64, NEON on ARM).
using Lanes = float __attribute__((vector_size(16)));
constexpr std::size_t kLaneWidth = sizeof(Lanes) / sizeof(float);

// The scores of `query` against the kBlockRows rows of `block`: per row, the products in dimension
// order added one by one to a float that starts at zero, the sum of IndexFlatIP's reference kernel
// (no fused multiply-add: the embed layer builds with -ffp-contract=off).
void score_block(const float* block, const SparseQuery& query, float* scores) {
  constexpr std::size_t kVectors = BlockedRows::kBlockRows / kLaneWidth;
  Lanes sums[kVectors] = {};
  for (std::size_t t = 0; t < query.dimensions.size(); ++t) {
    const Lanes value = Lanes{} + query.values[t];
    const float* row_values = block + static_cast<std::size_t>(query.dimensions[t]) * BlockedRows::kBlockRows;
    for (std::size_t v = 0; v < kVectors; ++v) {
      Lanes stored;
      std::memcpy(&stored, row_values + v * kLaneWidth, sizeof stored);
      sums[v] += value * stored;
    }
  }
  std::memcpy(scores, sums, sizeof sums);
}

// The `wanted` best hits offered so far, by better(): a heap whose front is the worst one kept.
class BestHits {
 public:
  explicit BestHits(std::size_t wanted) : wanted_(wanted) { heap_.reserve(wanted); }

  void offer(const SearchHit& hit) {
    if (heap_.size() < wanted_) {
      heap_.push_back(hit);
      std::push_heap(heap_.begin(), heap_.end(), better);
    } else if (wanted_ > 0 && better(hit, heap_.front())) {
      std::pop_heap(heap_.begin(), heap_.end(), better);
      heap_.back() = hit;
      std::push_heap(heap_.begin(), heap_.end(), better);
    }
  }

  std::vector<SearchHit> take() {
    std::sort_heap(heap_.begin(), heap_.end(), better);
    return std::move(heap_);
  }

 private:
  std::size_t wanted_;
  std::vector<SearchHit> heap_;
};

// Every query's `wanted` best rows in one pass over the blocks.
std::vector<std::vector<SearchHit>> exact_search(const BlockedRows& rows,
                                                 const std::vector<SparseQuery>& queries,
                                                 std::size_t wanted) {
  constexpr std::size_t kLanes = BlockedRows::kBlockRows;
  std::vector<BestHits> best;
  best.reserve(queries.size());
  for (std::size_t q = 0; q < queries.size(); ++q) best.emplace_back(wanted);
  float scores[kLanes];
  for (std::size_t first = 0; wanted > 0 && first < rows.rows; first += kLanes) {
    const float* block = rows.block(first);
    const std::size_t lanes = std::min(kLanes, rows.rows - first);
    if (first + kLanes < rows.rows) {  // fetch the next block (a cache line per dimension) meanwhile
      const float* next = rows.block(first + kLanes);
      for (std::size_t i = 0; i < rows.dimensions; ++i) __builtin_prefetch(next + i * kLanes);
    }
    for (std::size_t q = 0; q < queries.size(); ++q) {
      score_block(block, queries[q], scores);
      for (std::size_t j = 0; j < lanes; ++j) {
        best[q].offer({static_cast<std::int64_t>(first + j), scores[j]});
      }
    }
  }
  std::vector<std::vector<SearchHit>> hits;
  hits.reserve(queries.size());
  for (BestHits& kept : best) hits.push_back(kept.take());
  return hits;
}

std::unique_ptr<faiss::Index> new_hnsw(int dimensions, const VectorIndexOptions& options) {
  auto hnsw =
      std::make_unique<faiss::IndexHNSWFlat>(dimensions, options.hnsw_neighbors, faiss::METRIC_INNER_PRODUCT);
  hnsw->hnsw.efConstruction = options.hnsw_ef_construction;
  hnsw->hnsw.efSearch = options.hnsw_ef_search;
  return hnsw;
}

// One query's `wanted` best rows by HNSW. Asks for one more than wanted, and more while the last
// one still ties the wanted-th: then every row tied at the cut is seen, and sorting by (score, id)
// decides which are kept. FAISS may throw.
std::vector<SearchHit> hnsw_search(const faiss::Index& index, const VectorIndexOptions& options,
                                   const float* query, std::size_t wanted) {
  const std::size_t n = static_cast<std::size_t>(index.ntotal);
  std::size_t fetch = std::min(n, wanted + 1);
  std::vector<SearchHit> hits;
  while (true) {
    std::vector<float> scores(fetch);
    std::vector<FaissId> labels(fetch);
    faiss::SearchParametersHNSW params;
    params.efSearch = std::max<int>(options.hnsw_ef_search, static_cast<int>(fetch));
    index.search(1, query, static_cast<FaissId>(fetch), scores.data(), labels.data(), &params);
    hits.clear();
    for (std::size_t i = 0; i < fetch; ++i) {
      if (labels[i] >= 0) hits.push_back({static_cast<std::int64_t>(labels[i]), scores[i]});
    }
    std::sort(hits.begin(), hits.end(), better);
    const bool saw_all = fetch == n || hits.size() < fetch;
    if (saw_all || hits.size() <= wanted || hits.back().score < hits[wanted - 1].score) break;
    fetch = std::min(n, fetch * 2);
  }
  if (hits.size() > wanted) hits.resize(wanted);
  return hits;
}

bool has_kind(const faiss::Index& index, IndexKind kind) {
  if (index.metric_type != faiss::METRIC_INNER_PRODUCT) return false;
  if (kind == IndexKind::kFlat) return dynamic_cast<const faiss::IndexFlatIP*>(&index) != nullptr;
  return dynamic_cast<const faiss::IndexHNSWFlat*>(&index) != nullptr;
}

// Reads FAISS's format straight from borrowed bytes (VectorIOReader would copy them first).
struct SpanReader final : faiss::IOReader {
  explicit SpanReader(std::span<const std::uint8_t> bytes) : bytes(bytes) {}
  size_t operator()(void* ptr, size_t size, size_t nitems) override {
    if (size == 0) return nitems;
    const std::size_t available = (bytes.size() - position) / size;
    const std::size_t items = std::min(nitems, available);
    if (items > 0) std::memcpy(ptr, bytes.data() + position, items * size);
    position += items * size;
    return items;
  }
  std::span<const std::uint8_t> bytes;
  std::size_t position = 0;
};

}  // namespace

struct VectorIndex::State {
  IndexKind kind = IndexKind::kFlat;
  VectorIndexOptions options;
  BlockedRows flat;                    // kFlat
  std::unique_ptr<faiss::Index> hnsw;  // kHnsw
};

std::string_view to_string(IndexKind kind) {
  return kind == IndexKind::kFlat ? "flat" : "hnsw";
}

VectorIndex::VectorIndex(std::unique_ptr<State> state) : state_(std::move(state)) {}
VectorIndex::VectorIndex(VectorIndex&&) noexcept = default;
VectorIndex& VectorIndex::operator=(VectorIndex&&) noexcept = default;
VectorIndex::~VectorIndex() = default;

core::Result<VectorIndex> VectorIndex::build(const EmbeddingMatrix& vectors,
                                             const VectorIndexOptions& options) {
  if (vectors.dimensions == 0) return core::invalid_argument("cannot index vectors of zero dimensions");
  if (vectors.values.size() != vectors.rows * vectors.dimensions) {
    return core::invalid_argument(fmt::format("matrix holds {} floats, expected {} rows x {} dimensions",
                                              vectors.values.size(), vectors.rows, vectors.dimensions));
  }
  if (!all_finite(vectors.values)) return core::invalid_argument("matrix holds a NaN or infinite value");
  auto state = std::make_unique<State>();
  state->kind = vectors.rows > options.hnsw_threshold ? IndexKind::kHnsw : IndexKind::kFlat;
  state->options = options;
  if (state->kind == IndexKind::kFlat) {
    state->flat = BlockedRows::from_rows(vectors.values.data(), vectors.rows, vectors.dimensions);
    return VectorIndex(std::move(state));
  }
  try {
    state->hnsw = new_hnsw(static_cast<int>(vectors.dimensions), options);
    state->hnsw->add(static_cast<FaissId>(vectors.rows), vectors.values.data());
  } catch (const std::exception& e) {
    return core::internal_error(
        fmt::format("FAISS could not build a {} index: {}", to_string(state->kind), e.what()));
  }
  return VectorIndex(std::move(state));
}

core::Result<VectorIndex> VectorIndex::deserialize(std::span<const std::uint8_t> bytes, IndexKind kind,
                                                   std::size_t rows, std::size_t dimensions,
                                                   const VectorIndexOptions& options) {
  SpanReader reader(bytes);
  std::unique_ptr<faiss::Index> index;
  try {
    index.reset(faiss::read_index(&reader));
  } catch (const std::exception& e) {
    return core::invalid_argument(fmt::format("FAISS could not read the index: {}", e.what()));
  }
  if (!index || !has_kind(*index, kind)) {
    return core::invalid_argument(
        fmt::format("stored index is not an inner-product {} index", to_string(kind)));
  }
  if (static_cast<std::size_t>(index->ntotal) != rows || static_cast<std::size_t>(index->d) != dimensions) {
    return core::invalid_argument(fmt::format("stored index holds {} x {}, expected {} x {}", index->ntotal,
                                              index->d, rows, dimensions));
  }
  if (reader.position != bytes.size()) {
    return core::invalid_argument(
        fmt::format("{} unread bytes after the stored index", bytes.size() - reader.position));
  }
  auto state = std::make_unique<State>();
  state->kind = kind;
  state->options = options;
  if (kind == IndexKind::kHnsw) {
    state->hnsw = std::move(index);
    return VectorIndex(std::move(state));
  }
  const float* stored = static_cast<const faiss::IndexFlatIP&>(*index).get_xb();
  if (!all_finite({stored, rows * dimensions})) {
    return core::invalid_argument("stored index holds a NaN or infinite value");
  }
  state->flat = BlockedRows::from_rows(stored, rows, dimensions);
  return VectorIndex(std::move(state));
}

core::Result<std::vector<SearchHit>> VectorIndex::search(std::span<const float> query, std::size_t k) const {
  core::Result<std::vector<std::vector<SearchHit>>> hits =
      search(EmbeddingMatrix{1, query.size(), std::vector<float>(query.begin(), query.end())}, k);
  if (!hits) return hits.error();
  return std::move(hits->front());
}

core::Result<std::vector<std::vector<SearchHit>>> VectorIndex::search(const EmbeddingMatrix& queries,
                                                                      std::size_t k) const {
  if (queries.dimensions != dimensions()) {
    return core::invalid_argument(
        fmt::format("query has {} dimensions, the index {}", queries.dimensions, dimensions()));
  }
  if (queries.values.size() != queries.rows * queries.dimensions) {
    return core::invalid_argument(
        fmt::format("query matrix holds {} floats, expected {} rows x {} dimensions", queries.values.size(),
                    queries.rows, queries.dimensions));
  }
  if (!all_finite(queries.values)) return core::invalid_argument("query holds a NaN or infinite value");
  const std::size_t wanted = std::min(k, size());
  if (state_->kind == IndexKind::kFlat) {
    std::vector<SparseQuery> sparse;
    sparse.reserve(queries.rows);
    for (std::size_t q = 0; q < queries.rows; ++q) sparse.emplace_back(queries.row(q));
    return exact_search(state_->flat, sparse, wanted);
  }
  std::vector<std::vector<SearchHit>> hits(queries.rows);
  if (wanted == 0) return hits;
  try {
    for (std::size_t q = 0; q < queries.rows; ++q) {
      hits[q] = hnsw_search(*state_->hnsw, state_->options, queries.row(q).data(), wanted);
    }
  } catch (const std::exception& e) {
    return core::internal_error(fmt::format("FAISS search failed: {}", e.what()));
  }
  return hits;
}

std::size_t VectorIndex::size() const {
  if (state_->kind == IndexKind::kFlat) return state_->flat.rows;
  return static_cast<std::size_t>(state_->hnsw->ntotal);
}

std::size_t VectorIndex::dimensions() const {
  if (state_->kind == IndexKind::kFlat) return state_->flat.dimensions;
  return static_cast<std::size_t>(state_->hnsw->d);
}

IndexKind VectorIndex::kind() const {
  return state_->kind;
}

core::Result<std::vector<std::uint8_t>> VectorIndex::serialize() const {
  faiss::VectorIOWriter writer;
  try {
    if (state_->kind == IndexKind::kFlat) {
      faiss::IndexFlatIP flat(static_cast<int>(state_->flat.dimensions));
      const std::vector<float> rows = state_->flat.to_rows();
      if (state_->flat.rows > 0) flat.add(static_cast<FaissId>(state_->flat.rows), rows.data());
      faiss::write_index(&flat, &writer);
    } else {
      faiss::write_index(state_->hnsw.get(), &writer);
    }
  } catch (const std::exception& e) {
    return core::internal_error(fmt::format("FAISS could not write the index: {}", e.what()));
  }
  return std::move(writer.data);
}

}  // namespace planfirst::embed
