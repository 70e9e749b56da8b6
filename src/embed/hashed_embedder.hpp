// HashedEmbedder is the built-in embedder: no model files, no network, same bytes everywhere.
// Features of a text: its stemmed word unigrams and bigrams plus character 3-5-grams of each
// lower-case word (with '<' '>' boundary marks), each hashed with fmix64(FNV-1a 64) to a
// dimension and a sign, summed with fixed weights, then L2-normalized. A text without words gives
// the zero vector. Immutable; threads may share one.
#pragma once

#include <cstddef>
#include <string>

#include "embed/embedder.hpp"

namespace planfirst::embed {

struct HashedEmbedderOptions {
  std::size_t dimensions = 384;
  double unigram_weight = 1.0;
  double bigram_weight = 0.5;
  double char_ngram_weight = 0.2;  // per n-gram; a word has many
};

class HashedEmbedder final : public Embedder {
 public:
  // REQUIRES: options.dimensions > 0.
  explicit HashedEmbedder(HashedEmbedderOptions options = {});

  std::string identity() const override;  // "hashed:v1:<dimensions>" (+ ":w<weights>" when not default)
  std::size_t dimensions() const override { return options_.dimensions; }
  core::Result<EmbeddingMatrix> embed(std::span<const std::string> texts) const override;

 private:
  HashedEmbedderOptions options_;
};

}  // namespace planfirst::embed
