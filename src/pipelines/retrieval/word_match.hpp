// Word-level matching for the retrieval rules: a question as its words (outer punctuation trimmed,
// inner '-', '/', '.', '_' kept, so "billing-api" and "group/app" stay whole) and phrases as runs of
// words where "*" matches any one word and "#" any number. Pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace planfirst::retrieval {

using Words = std::vector<std::string>;

struct QuestionWords {
  Words raw;    // as written
  Words lower;  // ASCII lower case, same positions
};

QuestionWords question_words(std::string_view text);
Words split_phrase(std::string_view phrase);  // at spaces; "last # days" -> last, #, days
bool phrase_at(const Words& words, std::size_t at, const Words& phrase);
bool is_number(std::string_view word);

}  // namespace planfirst::retrieval
