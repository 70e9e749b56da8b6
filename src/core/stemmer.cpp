#include "core/stemmer.hpp"

#include <libstemmer.h>

#include <new>

namespace planfirst::core {

void Stemmer::Deleter::operator()(sb_stemmer* stemmer) const {
  sb_stemmer_delete(stemmer);
}

Stemmer::Stemmer() : stemmer_(sb_stemmer_new("english", nullptr)) {
  if (!stemmer_) throw std::bad_alloc();
}

std::string Stemmer::stem(std::string_view word) {
  if (word.empty()) return {};
  const auto* symbols = reinterpret_cast<const sb_symbol*>(word.data());
  const sb_symbol* stemmed = sb_stemmer_stem(stemmer_.get(), symbols, static_cast<int>(word.size()));
  if (stemmed == nullptr) throw std::bad_alloc();
  return std::string(reinterpret_cast<const char*>(stemmed),
                     static_cast<std::size_t>(sb_stemmer_length(stemmer_.get())));
}

}  // namespace planfirst::core
