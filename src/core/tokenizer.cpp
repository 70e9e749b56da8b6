#include "core/tokenizer.hpp"

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

bool ends_sentence(std::string_view text, std::size_t i) {
  const char c = text[i];
  if (c != '.' && c != '?' && c != '!' && c != ';') return false;
  std::size_t next = i + 1;
  if (next < text.size() && text[next] != ' ' && text[next] != '\t' && text[next] != '\n') return false;
  if (c != '.') return true;
  while (next < text.size() && (text[next] == ' ' || text[next] == '\t' || text[next] == '\n')) ++next;
  return next == text.size() || is_upper(text[next]);  // "by avg. cost" goes on; ". Show a chart" starts anew
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
