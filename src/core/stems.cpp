#include "core/stems.hpp"

#include "core/tokenizer.hpp"

namespace planfirst::core {

std::vector<std::string> stems_of(const std::vector<std::string>& tokens, Stemmer& stemmer) {
  std::vector<std::string> stems;
  stems.reserve(tokens.size());
  for (const std::string& token : tokens) stems.push_back(stemmer.stem(token));
  return stems;
}

std::vector<std::string> stems_of(const std::vector<std::string>& tokens) {
  Stemmer stemmer;
  return stems_of(tokens, stemmer);
}

std::vector<std::string> stems_of_text(std::string_view text, Stemmer& stemmer) {
  return stems_of(tokenize(text), stemmer);
}

std::vector<std::string> stems_of_text(std::string_view text) {
  Stemmer stemmer;
  return stems_of_text(text, stemmer);
}

}  // namespace planfirst::core
