// Embedder turns texts into fixed-length float vectors, one row per text, for similarity search.
// identity() names kind, model and dimensions ("hashed:v1:384"): the index cache keys on it, so two
// embedders with one identity must give the same vectors. embed() is const; implementations here
// are safe to share between threads.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "core/result.hpp"

namespace planfirst::embed {

// A dense row-major matrix: `rows` vectors of `dimensions` floats each.
struct EmbeddingMatrix {
  std::size_t rows = 0;
  std::size_t dimensions = 0;
  std::vector<float> values;  // rows * dimensions floats, row after row

  std::span<const float> row(std::size_t i) const { return {values.data() + i * dimensions, dimensions}; }
};

class Embedder {
 public:
  virtual ~Embedder() = default;

  virtual std::string identity() const = 0;
  virtual std::size_t dimensions() const = 0;
  // One row per text, in order; an empty batch gives an empty matrix with dimensions() columns.
  virtual core::Result<EmbeddingMatrix> embed(std::span<const std::string> texts) const = 0;
};

// Cosine similarity of two equally long vectors; 0 when either is all zeros.
double cosine_similarity(std::span<const float> a, std::span<const float> b);

}  // namespace planfirst::embed
