// FtsQueryBuilder turns a user's question into a safe SQLite FTS5 MATCH expression: words as
// core::tokenize splits them, lower-cased, stop words dropped, duplicates removed, each quoted as an
// FTS5 string and joined with OR ("\"release\" OR \"hotfix\""). No FTS5 operator, column filter or
// syntax character of the question survives, so any input is a valid query. Immutable; share freely.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace planfirst::core {
class AssetStore;
}

namespace planfirst::sources {

class FtsQueryBuilder {
 public:
  // The stop words and term cap of assets/sources/document_search.yaml; kInvalidArgument naming
  // the file and line when it is malformed, kNotFound when it is missing.
  static core::Result<FtsQueryBuilder> load(const core::AssetStore& assets);
  FtsQueryBuilder(std::set<std::string, std::less<>> stop_words, std::size_t max_terms);

  // The words searched for `question`, in order of first appearance, at most max_terms.
  std::vector<std::string> terms(std::string_view question) const;
  // The MATCH expression for `question`; "" when no word is left (the caller returns no hits).
  std::string build(std::string_view question) const;
  // The MATCH expression for one of terms()' words.
  static std::string term_query(std::string_view word);

 private:
  std::set<std::string, std::less<>> stop_words_;
  std::size_t max_terms_;
};

}  // namespace planfirst::sources
