// Question is one question as the requirement passes read it: its tokens, their stems and spans,
// and the table's and columns' words, stemmed once. A Mention is a run of its tokens naming a
// column. Built once per question by RuleRequirementExtractor::extract; passes read it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/tokenizer.hpp"
#include "data/schema_profile.hpp"
#include "pipelines/autoviz/understand/abbreviated_value.hpp"
#include "pipelines/autoviz/understand/phrase_match.hpp"

namespace planfirst::core {
class Stemmer;
}  // namespace planfirst::core

namespace planfirst::autoviz::extraction {

struct KnownValue {
  std::string value;
  Stems stems;                   // its words, stemmed
  AbbreviatedValue short_forms;  // "AsstProf" read as asst, prof
};

struct Question {
  std::vector<std::string> tokens;
  std::vector<core::TokenSpan>
      spans;                        // where each token stands in the question; empty when they do not line up
  std::vector<bool> point_after;    // token i and i + 1 are the two parts of one decimal ("99.5")
  std::vector<std::int64_t> scale;  // what token i multiplies the number before it by ("million"); 0: none
  Stems stems;
  Stems table;                 // the words of the table's name, stemmed ("artists" -> artist)
  std::vector<Stems> columns;  // the words of each column's name, stemmed, in the profile's order
  // The values the profile knows (all listed values, else the samples), read once per question:
  std::set<std::string> value_words;  // every word of every column's values, for the WordNet tier
  std::vector<std::vector<KnownValue>> categorical_values;  // by column; empty unless categorical
};

struct Mention {
  std::size_t begin = 0;
  std::size_t end = 0;  // one past the last token
  const data::ColumnProfile* column = nullptr;
};

template <typename T>
void add_unique(std::vector<T>& list, const T& value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
}

// Whether a mention covers token `at`.
bool in_mention(const std::vector<Mention>& mentions, std::size_t at);

// Whether `stem` is one of `list`.
bool listed(const Stems& list, const std::string& stem);

// One word's stem.
std::string stem_of(const std::string& word);

// The words of `column`'s name (a column of `profile`), stemmed, as the question read them once.
const Stems& column_stems(const Question& q, const data::SchemaProfile& profile,
                          const data::ColumnProfile& column);

// `text` read as a Question over `profile`: its tokens stemmed with `stemmer`, each token's scale
// (`number_scales`: stem -> multiplier), the columns' and categorical values' words; every value's
// words too when `with_value_words` (only the WordNet tier reads them).
Question read_question(std::string_view text, const data::SchemaProfile& profile,
                       const std::map<std::string, std::int64_t>& number_scales, bool with_value_words,
                       core::Stemmer& stemmer);

}  // namespace planfirst::autoviz::extraction
