// WordNetSynonyms gives the single words WordNet files beside a word in its noun and adjective
// synsets ("area" -> country, region, ...), lower case, for grounding question words. Thread-safe:
// the WordNet library keeps process-wide state, so every lookup goes through one lock, and answers
// (of() and knows()) are cached per word.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace planfirst::core {

class WordNetSynonyms {
 public:
  // The one lexicon of the process (WordNet's database is opened once). kUnavailable when the
  // WordNet database (Debian's wordnet-base) cannot be opened.
  static Result<std::shared_ptr<const WordNetSynonyms>> open();

  // Synonyms of `word` (lower case, any inflection WordNet knows: "regions" reads as "region"),
  // sorted, without `word` itself (an inflected word lists its base form), multi-word lemmas or
  // proper names; empty for unknown words.
  std::vector<std::string> of(std::string_view word) const;

  // Whether WordNet lists `word` (lower case) itself as a word of any part of speech, with or
  // without synonyms: "lat" and "budget" are words, "cust" and "amt" are not.
  bool knows(std::string_view word) const;

  WordNetSynonyms() = default;  // use open()

 private:
  mutable std::mutex mutex_;
  mutable std::map<std::string, std::vector<std::string>, std::less<>> cache_;  // guarded by mutex_
  mutable std::map<std::string, bool, std::less<>> known_;                      // guarded by mutex_
};

}  // namespace planfirst::core
