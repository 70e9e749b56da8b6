// Text filters a question states about a column: "whose address contains TN", "first name does
// not contain the letter M", "with the letter a in their names", "who have TN in their address". Each becomes
// a contains or not_contains filter on the column, with the value spelled as the question spells it. The
// phrases come from assets/autoviz/requirement_rules.yaml (`text_filters`). Pure.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "pipelines/autoviz/requirements.hpp"
#include "pipelines/autoviz/understand/phrase_match.hpp"

namespace planfirst::autoviz {

struct TextFilterPhrases {
  Phrases verbs;      // contain, include, ...: "<column> contains <value>"
  Phrases markers;    // the letter, the letters, ...: "the letter <value> in their <column>"
  Phrases negations;  // not, without, ...: within two words before the verb or marker
  Phrases links;      // in, their, its, ...: words between a value and the column after it
  Phrases holders;    // have, with, ...: "who have <value> in their <column>" ("in" and an owner required)
  Phrases owners;     // their, its, ...: right after that "in"
};

struct ColumnSpan {  // a text column the question names, tokens [begin, end)
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string column;
};

// The column whose name ends nearest before token `at`, at most `reach` tokens before it; nullptr if none.
const ColumnSpan* column_ending_before(std::size_t at, std::size_t reach,
                                       const std::vector<ColumnSpan>& columns);
// Whether byte `c` is an ASCII letter or digit, so that a word or a quote cannot start or end next to it.
bool is_word_byte(char c);

// The text filters of `question`, tokenized as `tokens` and stemmed as `stems`, on `columns`.
// "the letters D or S" is one filter with the list [D, S]: contains either (not_contains: neither).
std::vector<Constraint> find_text_filters(std::string_view question, const std::vector<std::string>& tokens,
                                          const Stems& stems, const std::vector<ColumnSpan>& columns,
                                          const TextFilterPhrases& phrases);

}  // namespace planfirst::autoviz
