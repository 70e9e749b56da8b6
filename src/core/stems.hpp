// Stems of text as the rule matchers compare it: tokenize()'s tokens, each reduced to its Snowball
// stem, so "Totals by regions" reads total, by, region. Pure functions; the overloads without a
// Stemmer make one per call, the others borrow the caller's (a Stemmer is not thread-safe).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/stemmer.hpp"

namespace planfirst::core {

// The stem of each of `tokens`, in order.
std::vector<std::string> stems_of(const std::vector<std::string>& tokens, Stemmer& stemmer);
std::vector<std::string> stems_of(const std::vector<std::string>& tokens);
// The stems of tokenize(text), in order.
std::vector<std::string> stems_of_text(std::string_view text, Stemmer& stemmer);
std::vector<std::string> stems_of_text(std::string_view text);

}  // namespace planfirst::core
