#include "embed/hashed_embedder.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "core/content_hash.hpp"
#include "core/stems.hpp"
#include "core/tokenizer.hpp"

namespace planfirst::embed {
using core::fmix64;
using core::fnv1a64;
namespace {

// Each feature family hashes under its own prefix, so the word "abc" and the 3-gram "abc" differ.
constexpr std::string_view kUnigramPrefix = "w\x1f";
constexpr std::string_view kBigramPrefix = "b\x1f";
constexpr std::string_view kCharNgramPrefix = "c\x1f";
constexpr std::size_t kMinCharNgram = 3;
constexpr std::size_t kMaxCharNgram = 5;

class FeatureAccumulator {
 public:
  explicit FeatureAccumulator(std::vector<double>& sums) : sums_(sums) {}

  void add(std::string_view prefix, std::string_view a, std::string_view b, double weight) {
    std::uint64_t state = fnv1a64(prefix);
    state = fnv1a64(a, state);
    if (!b.empty()) state = fnv1a64(b, fnv1a64(" ", state));
    const std::uint64_t h = fmix64(state);
    const double sign = (h >> 63) != 0 ? -1.0 : 1.0;
    sums_[h % sums_.size()] += sign * weight;
  }

 private:
  std::vector<double>& sums_;
};

void embed_one(std::string_view text, const HashedEmbedderOptions& options, core::Stemmer& stemmer,
               float* out) {
  std::vector<double> sums(options.dimensions, 0.0);
  FeatureAccumulator features(sums);
  const std::vector<std::string> words = core::tokenize(text, {.split_camel_case = true});

  const std::vector<std::string> stems = core::stems_of(words, stemmer);
  for (std::size_t i = 0; i < stems.size(); ++i) {
    features.add(kUnigramPrefix, stems[i], {}, options.unigram_weight);
    if (i + 1 < stems.size()) features.add(kBigramPrefix, stems[i], stems[i + 1], options.bigram_weight);
  }
  for (const std::string& word : words) {
    const std::string marked = "<" + word + ">";
    for (std::size_t n = kMinCharNgram; n <= kMaxCharNgram && n <= marked.size(); ++n) {
      for (std::size_t start = 0; start + n <= marked.size(); ++start) {
        features.add(kCharNgramPrefix, std::string_view(marked).substr(start, n), {},
                     options.char_ngram_weight);
      }
    }
  }

  double norm = 0.0;
  for (const double v : sums) norm += v * v;
  norm = std::sqrt(norm);
  for (std::size_t d = 0; d < sums.size(); ++d) {
    out[d] = norm > 0.0 ? static_cast<float>(sums[d] / norm) : 0.0f;
  }
}

}  // namespace

HashedEmbedder::HashedEmbedder(HashedEmbedderOptions options) : options_(options) {
  if (options_.dimensions == 0) throw std::invalid_argument("HashedEmbedder needs at least one dimension");
}

std::string HashedEmbedder::identity() const {
  const HashedEmbedderOptions defaults;
  std::string id = fmt::format("hashed:v1:{}", options_.dimensions);
  if (options_.unigram_weight != defaults.unigram_weight ||
      options_.bigram_weight != defaults.bigram_weight ||
      options_.char_ngram_weight != defaults.char_ngram_weight) {
    id += fmt::format(":w{},{},{}", options_.unigram_weight, options_.bigram_weight,
                      options_.char_ngram_weight);
  }
  return id;
}

core::Result<EmbeddingMatrix> HashedEmbedder::embed(std::span<const std::string> texts) const {
  EmbeddingMatrix matrix;
  matrix.rows = texts.size();
  matrix.dimensions = options_.dimensions;
  matrix.values.assign(texts.size() * options_.dimensions, 0.0f);
  core::Stemmer stemmer;  // per call: libstemmer is not thread-safe, and this keeps embed() const
  for (std::size_t i = 0; i < texts.size(); ++i) {
    embed_one(texts[i], options_, stemmer, matrix.values.data() + i * options_.dimensions);
  }
  return matrix;
}

}  // namespace planfirst::embed
