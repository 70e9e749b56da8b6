#include "pipelines/autoviz/understand/abbreviated_value.hpp"

#include <algorithm>

#include "core/ascii_case.hpp"
#include "core/tokenizer.hpp"
#include "pipelines/autoviz/understand/text_filter.hpp"

namespace planfirst::autoviz {
namespace {

constexpr std::size_t kShortestPart = 3;  // "Mr" or "No" abbreviates too many words

}  // namespace

bool abbreviates(std::string_view part, std::string_view word) {
  if (part.size() < kShortestPart || word.size() < part.size()) return false;
  if (word.starts_with(part)) return true;
  if (word.size() > part.size() && word.back() == 's' && part.back() != 's') word.remove_suffix(1);
  if (part.front() != word.front() || part.back() != word.back()) return false;
  std::size_t found = 0;
  for (char c : word) {
    if (found < part.size() && c == part[found]) ++found;
  }
  return found == part.size();
}

AbbreviatedValue abbreviated_value(std::string_view value) {
  AbbreviatedValue out;
  if (value.find(' ') != std::string_view::npos) return out;  // words the plain match reads
  std::string compact;
  for (char c : value) {
    if (is_word_byte(c)) compact.push_back(c);
  }
  const auto letters =
      std::count_if(compact.begin(), compact.end(), [](char c) { return !(c >= '0' && c <= '9'); });
  if (letters >= 3 && compact.size() < value.size())
    out.compact = core::ascii_lower(compact);  // not "U.S." or "1.0"
  std::vector<std::string> parts =
      core::tokenize(value, {.keep_underscores = false, .split_camel_case = true});
  if (parts.size() >= 2) out.parts = std::move(parts);
  return out;
}

std::size_t spelled_out_at(const std::vector<std::string>& tokens, std::size_t at,
                           const AbbreviatedValue& value) {
  if (at >= tokens.size()) return 0;
  if (!value.compact.empty() && tokens[at] == value.compact) return 1;
  if (value.parts.empty() || at + value.parts.size() > tokens.size()) return 0;
  for (std::size_t i = 0; i < value.parts.size(); ++i) {
    if (!abbreviates(value.parts[i], tokens[at + i])) return 0;
  }
  return value.parts.size();
}

}  // namespace planfirst::autoviz
