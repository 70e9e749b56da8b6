#include "core/tokenizer.hpp"

#include <algorithm>
#include <array>

namespace planfirst::core {
namespace {

bool is_upper(char c) {
  return c >= 'A' && c <= 'Z';
}
bool is_lower(char c) {
  return c >= 'a' && c <= 'z';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_non_ascii(char c) {
  return static_cast<unsigned char>(c) >= 0x80;
}

bool is_token_byte(char c, const TokenizerOptions& options) {
  return is_upper(c) || is_lower(c) || is_digit(c) || is_non_ascii(c) ||
         (options.keep_underscores && c == '_');
}

char to_lower(char c) {
  return is_upper(c) ? static_cast<char>(c - 'A' + 'a') : c;
}

// A camelCase boundary before text[i]: "rI" in "orderId", "PS" in "HTTPServer" (before the S).
bool starts_camel_word(std::string_view text, std::size_t i) {
  if (i == 0 || !is_upper(text[i])) return false;
  const char before = text[i - 1];
  if (is_lower(before) || is_digit(before)) return true;
  return is_upper(before) && i + 1 < text.size() && is_lower(text[i + 1]);
}

// Words written short with a '.' that rarely end a sentence ("sorted by avg. cost").
constexpr std::array<std::string_view, 22> kAbbreviations = {"approx", "avg", "co",  "dept", "dr",  "e.g", "etc", "i.e",
                                                             "inc",    "jr",  "max", "min",  "mr",  "mrs", "no",  "nos",
                                                             "qty",    "sr",  "st",  "tot",  "vs",  "amt"};

// The word (letters and inner '.') ending right before text[i], lower-cased.
std::string word_before(std::string_view text, std::size_t i) {
  std::size_t start = i;
  while (start > 0 && (is_upper(text[start - 1]) || is_lower(text[start - 1]) || text[start - 1] == '.')) --start;
  std::string word;
  for (std::size_t k = start; k < i; ++k) word += to_lower(text[k]);
  return word;
}

bool ends_sentence(std::string_view text, std::size_t i) {
  const char c = text[i];
  if (c != '.' && c != '?' && c != '!' && c != ';') return false;
  if (i + 1 < text.size() && text[i + 1] != ' ' && text[i + 1] != '\t' && text[i + 1] != '\n') return false;
  if (c != '.') return true;
  const std::string word = word_before(text, i);
  const bool letter = word.size() == 1 || (word.size() >= 2 && word[word.size() - 2] == '.');  // "Ph.D.", "U.S."
  return !letter && std::find(kAbbreviations.begin(), kAbbreviations.end(), word) == kAbbreviations.end();
}

}  // namespace

std::vector<std::size_t> sentence_ends(std::string_view text, const TokenizerOptions& options) {
  std::vector<std::size_t> ends;
  std::size_t start = 0;      // first token of the current sentence
  std::size_t piece = 0;      // first byte of the current sentence
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && !ends_sentence(text, i)) continue;
    const std::size_t count = tokenize(text.substr(piece, i - piece), options).size();
    ends.resize(start + count, start + count);
    start += count;
    piece = i + 1;
  }
  return ends;
}

std::vector<std::string> tokenize(std::string_view text, const TokenizerOptions& options) {
  std::vector<std::string> tokens;
  std::string current;
  auto flush = [&] {
    if (!current.empty()) tokens.push_back(std::move(current));
    current.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (!is_token_byte(c, options)) {
      flush();
      continue;
    }
    if (options.split_camel_case && starts_camel_word(text, i)) flush();
    current += to_lower(c);
  }
  flush();
  return tokens;
}

}  // namespace planfirst::core
