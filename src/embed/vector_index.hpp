// VectorIndex finds the stored vectors with the highest inner product to a query (cosine, for the
// L2-normalized rows embedders give): exact search up to a size threshold, then FAISS's approximate
// IndexHNSWFlat. Exact search keeps the rows in blocks and scores a whole batch of queries in one
// pass over them, each score summed in float in dimension order (IndexFlatIP's reference sum, so
// the same bytes on every platform); it is stored and cached in IndexFlatIP's format. Ids are row
// numbers of the built matrix; hits are sorted by score, ties by id. FAISS errors come back as
// Result errors. search() is const and thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "embed/embedder.hpp"

namespace planfirst::embed {

enum class IndexKind : std::uint32_t { kFlat = 0, kHnsw = 1 };  // values are stored in cache files
std::string_view to_string(IndexKind kind);                     // "flat", "hnsw"

struct VectorIndexOptions {
  std::size_t hnsw_threshold = 50000;  // more rows than this: HNSW instead of exact search
  int hnsw_neighbors = 32;             // HNSW M
  int hnsw_ef_construction = 80;
  int hnsw_ef_search = 64;  // raised to k when a search asks for more
};

struct SearchHit {
  std::int64_t id = 0;  // row of the matrix the index was built from
  float score = 0.0f;   // inner product with the query
  bool operator==(const SearchHit&) const = default;
};

class VectorIndex {
 public:
  // REQUIRES for every member but the move operations: not moved from.
  // kInvalidArgument for a matrix whose size does not match its shape, or that holds a NaN or
  // infinite value.
  static core::Result<VectorIndex> build(const EmbeddingMatrix& vectors,
                                         const VectorIndexOptions& options = {});
  // Reads what serialize() wrote; checks kind and shape against the arguments.
  static core::Result<VectorIndex> deserialize(std::span<const std::uint8_t> bytes, IndexKind kind,
                                               std::size_t rows, std::size_t dimensions,
                                               const VectorIndexOptions& options = {});

  VectorIndex(VectorIndex&&) noexcept;
  VectorIndex& operator=(VectorIndex&&) noexcept;
  ~VectorIndex();

  // The min(k, size()) best rows; kInvalidArgument when the query has the wrong length or holds a
  // NaN or infinite value.
  core::Result<std::vector<SearchHit>> search(std::span<const float> query, std::size_t k) const;
  // search() for each row of `queries`, in order, with the same hits; exact search reads the stored
  // rows once for the whole batch.
  core::Result<std::vector<std::vector<SearchHit>>> search(const EmbeddingMatrix& queries,
                                                           std::size_t k) const;

  std::size_t size() const;
  std::size_t dimensions() const;
  IndexKind kind() const;
  core::Result<std::vector<std::uint8_t>> serialize() const;  // FAISS's own format

 private:
  struct State;
  explicit VectorIndex(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace planfirst::embed
