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
constexpr std::array<std::string_view, 22> kAbbreviations = {
    "approx", "avg", "co",  "dept", "dr",  "e.g", "etc", "i.e", "inc", "jr", "max",
    "min",    "mr",  "mrs", "no",   "nos", "qty", "sr",  "st",  "tot", "vs", "amt"};

// The word (letters and inner '.') ending right before text[i], lower-cased.
std::string word_before(std::string_view text, std::size_t i) {
  std::size_t start = i;
  while (start > 0 && (is_upper(text[start - 1]) || is_lower(text[start - 1]) || text[start - 1] == '.'))
    --start;
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
  const bool letter =
      word.size() == 1 || (word.size() >= 2 && word[word.size() - 2] == '.');  // "Ph.D.", "U.S."
  return !letter && std::find(kAbbreviations.begin(), kAbbreviations.end(), word) == kAbbreviations.end();
}

}  // namespace

std::vector<TokenSpan> token_spans(std::string_view text, const TokenizerOptions& options) {
  std::vector<TokenSpan> spans;
  std::size_t begin = 0;
  bool open = false;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const bool token_byte = i < text.size() && is_token_byte(text[i], options);
    const bool split = token_byte && open && options.split_camel_case && starts_camel_word(text, i);
    if (open && (!token_byte || split)) spans.push_back({begin, i});
    if (token_byte && (!open || split)) begin = i;
    open = token_byte;
  }
  return spans;
}

std::vector<std::string> tokenize(std::string_view text, const TokenizerOptions& options) {
  std::vector<std::string> tokens;
  for (const TokenSpan& span : token_spans(text, options)) {
    std::string token(text.substr(span.begin, span.end - span.begin));
    for (char& c : token) c = to_lower(c);
    tokens.push_back(std::move(token));
  }
  return tokens;
}

std::vector<std::size_t> sentence_ends(std::string_view text, const TokenizerOptions& options) {
  const std::vector<TokenSpan> spans = token_spans(text, options);
  std::vector<std::size_t> ends(spans.size());
  std::size_t first = 0;  // the first token of the current sentence
  std::size_t next = 0;   // the next token to place
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && !ends_sentence(text, i)) continue;
    while (next < spans.size() && spans[next].begin < i) ++next;  // the tokens before the sentence's end
    std::fill(ends.begin() + static_cast<std::ptrdiff_t>(first),
              ends.begin() + static_cast<std::ptrdiff_t>(next), next);
    first = next;
  }
  return ends;
}

}  // namespace planfirst::core
