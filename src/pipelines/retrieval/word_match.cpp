#include "pipelines/retrieval/word_match.hpp"

#include <algorithm>

#include "core/ascii_case.hpp"

namespace planfirst::retrieval {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

// Punctuation a word loses at either end; '-', '/', '.' and '_' inside it stay.
bool is_outer_punctuation(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  if (u >= 0x80) return false;
  const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  return !alnum && c != '_' && c != '#';
}

template <typename Visit>
void for_each_piece(std::string_view text, Visit visit) {
  std::size_t at = 0;
  while (at < text.size()) {
    while (at < text.size() && is_space(text[at])) ++at;
    std::size_t end = at;
    while (end < text.size() && !is_space(text[end])) ++end;
    if (end > at) visit(text.substr(at, end - at));
    at = end;
  }
}

}  // namespace

QuestionWords question_words(std::string_view text) {
  QuestionWords words;
  for_each_piece(text, [&](std::string_view piece) {
    std::size_t begin = 0;
    std::size_t end = piece.size();
    while (begin < end && is_outer_punctuation(piece[begin])) ++begin;
    while (end > begin && is_outer_punctuation(piece[end - 1])) --end;
    if (begin == end) return;
    words.raw.emplace_back(piece.substr(begin, end - begin));
    words.lower.push_back(core::ascii_lower(words.raw.back()));
  });
  return words;
}

Words split_phrase(std::string_view phrase) {
  Words words;
  for_each_piece(phrase, [&](std::string_view piece) { words.emplace_back(piece); });
  return words;
}

bool is_number(std::string_view word) {
  return !word.empty() && std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool phrase_at(const Words& words, std::size_t at, const Words& phrase) {
  if (phrase.empty() || at + phrase.size() > words.size()) return false;
  for (std::size_t i = 0; i < phrase.size(); ++i) {
    const std::string& want = phrase[i];
    const std::string& word = words[at + i];
    if (want == "*") continue;
    if (want == "#" ? !is_number(word) : want != word) return false;
  }
  return true;
}

}  // namespace planfirst::retrieval
