// tokenize splits text into lower-case word tokens for matching questions against names: runs of
// ASCII letters and digits, split at every other ASCII byte. Bytes >= 0x80 (UTF-8) are kept inside
// tokens unchanged, so any input is safe. A pure function.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace planfirst::core {

struct TokenizerOptions {
  bool keep_underscores = false;  // true: "order_id" is one token; false: "order", "id"
  bool split_camel_case = false;  // true: "orderId" -> "order", "id"; "HTTPServer" -> "http", "server"
};

std::vector<std::string> tokenize(std::string_view text, const TokenizerOptions& options = {});

// Where each token of tokenize(text, options) stands in `text`: bytes [begin, end).
struct TokenSpan {
  std::size_t begin = 0;
  std::size_t end = 0;
};
std::vector<TokenSpan> token_spans(std::string_view text, const TokenizerOptions& options = {});

// For each token of tokenize(text, options), the index one past the last token of its sentence. A
// sentence ends at '.', '?', '!' or ';' before a space or the end, except a '.' after one letter
// ("Ph.D.", "U.S.") or a common short form ("sorted by avg. cost", "vs.", "no.").
std::vector<std::size_t> sentence_ends(std::string_view text, const TokenizerOptions& options = {});

}  // namespace planfirst::core
