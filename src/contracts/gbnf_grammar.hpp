// GbnfGrammar is a parsed llama.cpp GBNF grammar: rules of literals, character classes, rule
// references, groups, alternatives and repetitions (* + ? {m} {m,} {m,n}). parse() checks that the
// rule set is well formed (a root rule, every referenced rule defined); accepts() tells whether a
// text matches root, so tests and tools can check a grammar without a model. Immutable; shareable.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace planfirst::contracts {

class GbnfGrammar {
 public:
  // kInvalidArgument with "line N" for a syntax error, a missing root or an undefined rule.
  static core::Result<GbnfGrammar> parse(std::string_view text);

  GbnfGrammar(GbnfGrammar&&) noexcept;
  GbnfGrammar& operator=(GbnfGrammar&&) noexcept;
  ~GbnfGrammar();

  std::vector<std::string> rule_names() const;  // in order of first mention
  // Whether all of `text` matches the root rule. Left-recursive rules match nothing.
  bool accepts(std::string_view text) const;

  struct Rules;  // the parsed rules; defined in gbnf_grammar.cpp

 private:
  explicit GbnfGrammar(std::unique_ptr<const Rules> rules);

  std::unique_ptr<const Rules> rules_;
};

}  // namespace planfirst::contracts
