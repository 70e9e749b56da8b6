// Phrase matching for the rule strategies: text and phrases as runs of Snowball stems, so "totals"
// matches "total" and "broken down by" matches as one phrase. Pure functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/stems.hpp"

namespace planfirst::autoviz {

using Stems = std::vector<std::string>;
using Phrases = std::vector<Stems>;
using LabelledPhrases = std::vector<std::pair<std::string, Phrases>>;  // label -> phrases, in order

// Stemming is core's (core/stems.hpp), named here for this folder's matchers.
using core::stems_of;       // tokens stemmed
using core::stems_of_text;  // tokenized, then stemmed
// The words of a column name, snake_case and camelCase split: "productCategory_id" -> product, category, id.
std::vector<std::string> column_words(std::string_view name);
Phrases phrases_of(const std::vector<std::string>& texts);

bool phrase_at(const Stems& text, std::size_t at, const Stems& phrase);
bool contains_phrase(const Stems& text, const Phrases& phrases);
// The length of a phrase of `phrases` that ends exactly before `end`, or 0.
std::size_t phrase_ending_at(const Stems& text, std::size_t end, const Phrases& phrases);
// The length of a phrase of `phrases` that starts at `at`, or 0.
std::size_t phrase_starting_at(const Stems& text, std::size_t at, const Phrases& phrases);
// The first label one of whose phrases `text` contains, or "".
std::string first_label(const Stems& text, const LabelledPhrases& labelled);
// The count at `at`: positive digits ("30"), or a number word, whose index in `number_words`
// ("zero", "one", ...) is its value; nothing for other words and for zero.
std::optional<std::int64_t> count_at(const Stems& text, std::size_t at, const Stems& number_words);

}  // namespace planfirst::autoviz
