// Stemmer reduces an English word to its Snowball (Porter2) stem, "running" -> "run", so question
// words match column and document words. Owns one libstemmer instance; not thread-safe: give each
// thread its own Stemmer. Movable, not copyable; a moved-from Stemmer may only be destroyed.
#pragma once

#include <memory>
#include <string>
#include <string_view>

struct sb_stemmer;

namespace planfirst::core {

class Stemmer {
 public:
  Stemmer();  // std::bad_alloc when libstemmer cannot allocate

  // The stem of `word`, a lower-case UTF-8 token as tokenize() gives.
  std::string stem(std::string_view word);

 private:
  struct Deleter {
    void operator()(sb_stemmer* stemmer) const;
  };
  std::unique_ptr<sb_stemmer, Deleter> stemmer_;
};

}  // namespace planfirst::core
