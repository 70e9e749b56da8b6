#include "embed/embedder.hpp"

#include <algorithm>
#include <cmath>

namespace planfirst::embed {

double cosine_similarity(std::span<const float> a, std::span<const float> b) {
  double dot = 0.0;
  double norm_a = 0.0;
  double norm_b = 0.0;
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    dot += static_cast<double>(a[i]) * b[i];
    norm_a += static_cast<double>(a[i]) * a[i];
    norm_b += static_cast<double>(b[i]) * b[i];
  }
  if (norm_a == 0.0 || norm_b == 0.0) return 0.0;
  return dot / (std::sqrt(norm_a) * std::sqrt(norm_b));
}

}  // namespace planfirst::embed
