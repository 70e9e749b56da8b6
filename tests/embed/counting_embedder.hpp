// CountingEmbedder wraps a real Embedder and counts the embed() calls and texts that reach it, so a
// test can tell a cache hit from a rebuild. FailingEmbedder refuses every batch with kUnavailable.
// Test helpers; the counters are atomic, so threads may share one.
#pragma once

#include <atomic>
#include <string>

#include "embed/embedder.hpp"

namespace planfirst::embed::testing {

class CountingEmbedder final : public Embedder {
 public:
  explicit CountingEmbedder(const Embedder& inner) : inner_(inner) {}

  std::string identity() const override { return inner_.identity(); }
  std::size_t dimensions() const override { return inner_.dimensions(); }
  core::Result<EmbeddingMatrix> embed(std::span<const std::string> texts) const override {
    calls_.fetch_add(1);
    texts_.fetch_add(texts.size());
    return inner_.embed(texts);
  }

  int calls() const { return calls_.load(); }
  std::size_t texts() const { return texts_.load(); }

 private:
  const Embedder& inner_;
  mutable std::atomic<int> calls_{0};
  mutable std::atomic<std::size_t> texts_{0};
};

class FailingEmbedder final : public Embedder {
 public:
  std::string identity() const override { return "failing:0:8"; }
  std::size_t dimensions() const override { return 8; }
  core::Result<EmbeddingMatrix> embed(std::span<const std::string>) const override {
    return core::unavailable("embedding server is down");
  }
};

}  // namespace planfirst::embed::testing
