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

using FaissId = faiss::Index::idx_t;

struct VectorIndex::State {
  std::unique_ptr<faiss::Index> index;
  IndexKind kind = IndexKind::kFlat;
  VectorIndexOptions options;
};

namespace {

std::unique_ptr<faiss::Index> new_index(IndexKind kind, int dimensions, const VectorIndexOptions& options) {
  if (kind == IndexKind::kFlat) return std::make_unique<faiss::IndexFlatIP>(dimensions);
  auto hnsw = std::make_unique<faiss::IndexHNSWFlat>(dimensions, options.hnsw_neighbors,
                                                     faiss::METRIC_INNER_PRODUCT);
  hnsw->hnsw.efConstruction = options.hnsw_ef_construction;
  hnsw->hnsw.efSearch = options.hnsw_ef_search;
  return hnsw;
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

bool better(const SearchHit& a, const SearchHit& b) {
  if (a.score != b.score) return a.score > b.score;
  return a.id < b.id;
}

}  // namespace

std::string_view to_string(IndexKind kind) {
  return kind == IndexKind::kFlat ? "flat" : "hnsw";
}

VectorIndex::VectorIndex(std::unique_ptr<State> state) : state_(std::move(state)) {}
VectorIndex::VectorIndex(VectorIndex&&) noexcept = default;
VectorIndex& VectorIndex::operator=(VectorIndex&&) noexcept = default;
VectorIndex::~VectorIndex() = default;

core::Result<VectorIndex> VectorIndex::build(const EmbeddingMatrix& vectors, const VectorIndexOptions& options) {
  if (vectors.dimensions == 0) return core::invalid_argument("cannot index vectors of zero dimensions");
  if (vectors.values.size() != vectors.rows * vectors.dimensions) {
    return core::invalid_argument(fmt::format("matrix holds {} floats, expected {} rows x {} dimensions",
                                              vectors.values.size(), vectors.rows, vectors.dimensions));
  }
  auto state = std::make_unique<State>();
  state->kind = vectors.rows > options.hnsw_threshold ? IndexKind::kHnsw : IndexKind::kFlat;
  state->options = options;
  try {
    state->index = new_index(state->kind, static_cast<int>(vectors.dimensions), options);
    if (vectors.rows > 0) state->index->add(static_cast<FaissId>(vectors.rows), vectors.values.data());
  } catch (const std::exception& e) {
    return core::internal_error(fmt::format("FAISS could not build a {} index: {}", to_string(state->kind), e.what()));
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
    return core::invalid_argument(fmt::format("stored index is not an inner-product {} index", to_string(kind)));
  }
  if (static_cast<std::size_t>(index->ntotal) != rows || static_cast<std::size_t>(index->d) != dimensions) {
    return core::invalid_argument(fmt::format("stored index holds {} x {}, expected {} x {}", index->ntotal,
                                              index->d, rows, dimensions));
  }
  if (reader.position != bytes.size()) {
    return core::invalid_argument(fmt::format("{} unread bytes after the stored index", bytes.size() - reader.position));
  }
  auto state = std::make_unique<State>();
  state->index = std::move(index);
  state->kind = kind;
  state->options = options;
  return VectorIndex(std::move(state));
}

core::Result<std::vector<SearchHit>> VectorIndex::search(std::span<const float> query, std::size_t k) const {
  if (query.size() != dimensions()) {
    return core::invalid_argument(
        fmt::format("query has {} dimensions, the index {}", query.size(), dimensions()));
  }
  if (!std::all_of(query.begin(), query.end(), [](float v) { return std::isfinite(v); })) {
    return core::invalid_argument("query holds a NaN or infinite value");
  }
  const std::size_t n = size();
  const std::size_t wanted = std::min(k, n);
  if (wanted == 0) return std::vector<SearchHit>{};

  // Ask for one more than wanted, and more while the last one still ties the wanted-th: then every
  // row tied at the cut is seen, and sorting by (score, id) decides which are kept.
  std::size_t fetch = std::min(n, wanted + 1);
  std::vector<SearchHit> hits;
  try {
    while (true) {
      std::vector<float> scores(fetch);
      std::vector<FaissId> labels(fetch);
      faiss::SearchParametersHNSW hnsw_params;
      hnsw_params.efSearch = std::max<int>(state_->options.hnsw_ef_search, static_cast<int>(fetch));
      const faiss::SearchParameters* params = state_->kind == IndexKind::kHnsw ? &hnsw_params : nullptr;
      state_->index->search(1, query.data(), static_cast<FaissId>(fetch), scores.data(), labels.data(), params);
      hits.clear();
      for (std::size_t i = 0; i < fetch; ++i) {
        if (labels[i] >= 0) hits.push_back({static_cast<std::int64_t>(labels[i]), scores[i]});
      }
      std::sort(hits.begin(), hits.end(), better);
      const bool saw_all = fetch == n || hits.size() < fetch;
      if (saw_all || hits.size() <= wanted || hits.back().score < hits[wanted - 1].score) break;
      fetch = std::min(n, fetch * 2);
    }
  } catch (const std::exception& e) {
    return core::internal_error(fmt::format("FAISS search failed: {}", e.what()));
  }
  if (hits.size() > wanted) hits.resize(wanted);
  return hits;
}

std::size_t VectorIndex::size() const {
  return static_cast<std::size_t>(state_->index->ntotal);
}

std::size_t VectorIndex::dimensions() const {
  return static_cast<std::size_t>(state_->index->d);
}

IndexKind VectorIndex::kind() const {
  return state_->kind;
}

core::Result<std::vector<std::uint8_t>> VectorIndex::serialize() const {
  faiss::VectorIOWriter writer;
  try {
    faiss::write_index(state_->index.get(), &writer);
  } catch (const std::exception& e) {
    return core::internal_error(fmt::format("FAISS could not write the index: {}", e.what()));
  }
  return std::move(writer.data);
}

}  // namespace planfirst::embed
