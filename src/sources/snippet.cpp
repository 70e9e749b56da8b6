#include "sources/snippet.hpp"

#include <algorithm>

namespace planfirst::sources {
namespace {

// Whether text[i] ends a sentence: a '.', '!' or '?' (or `colon` and ':') before a space, a line
// break or the end, not the inner dots of "e.g." and "i.e.".
bool sentence_end(std::string_view text, std::size_t i, bool colon) {
  const char c = text[i];
  if (c != '.' && c != '!' && c != '?' && !(colon && c == ':')) return false;
  if (i + 1 < text.size() && text[i + 1] != ' ' && text[i + 1] != '\n') return false;
  return !(c == '.' && i >= 2 && text[i - 2] == '.');
}

// Whether text[at] may start a list item ('-', '*' or a digit): a line break before it ends a block.
bool starts_item(std::string_view text, std::size_t at) {
  if (at >= text.size()) return false;
  const char c = text[at];
  return c == '-' || c == '*' || (c >= '0' && c <= '9');
}

// Where a block (a paragraph or a list item) or a sentence ends in `text`, up to `limit`: the offset
// just after it, the last such offset not beyond `limit`; 0 when there is none.
std::size_t last_boundary(std::string_view text, std::size_t limit) {
  std::size_t best = 0;
  for (std::size_t i = 0; i < text.size() && i < limit; ++i) {
    const char c = text[i];
    const bool sentence = sentence_end(text, i, true);
    const bool block = c == '\n' && i + 1 < text.size() && (text[i + 1] == '\n' || starts_item(text, i + 1));
    if (sentence && i + 1 <= limit) best = i + 1;
    if (block) best = i;
  }
  if (text.size() <= limit) best = text.size();
  return best;
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n')) text.remove_suffix(1);
  while (!text.empty() && (text.front() == ' ' || text.front() == '\n')) text.remove_prefix(1);
  return text;
}

}  // namespace

std::string snippet_of(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
  return std::string(text.substr(0, cut)) + "...";
}

std::string passage_of(std::string_view text, std::size_t max_bytes) {
  text = trimmed(text);
  if (text.size() <= max_bytes) return std::string(text);
  const std::size_t end = last_boundary(text, max_bytes);
  if (end == 0) return snippet_of(text, max_bytes);
  return std::string(trimmed(text.substr(0, end))) + " ...";
}

std::string lead_statement(std::string_view text, std::size_t max_bytes) {
  text = trimmed(text);
  std::size_t end = text.size();
  const bool item =
      text.starts_with("- ") || text.starts_with("* ") || (!text.empty() && text[0] >= '0' && text[0] <= '9');
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool last = i + 1 == text.size();
    if (!item && sentence_end(text, i, false)) {
      end = i + 1;
      break;
    }
    if (!item && c == ':' && !last && text[i + 1] == '\n') {  // "the steps:" introduces a list: keep it
      std::size_t list_start = i + 1;
      while (list_start < text.size() && text[list_start] == '\n') ++list_start;
      const std::size_t list_end = text.find("\n\n", list_start);
      end = list_end == std::string_view::npos ? text.size() : list_end;
      break;
    }
    if (c == '\n' && !last && (text[i + 1] == '\n' || (item && starts_item(text, i + 1)))) {
      end = i;
      break;
    }
  }
  std::string_view lead = trimmed(text.substr(0, end));
  if (lead.starts_with("- ") || lead.starts_with("* ")) lead.remove_prefix(2);
  std::string statement(lead);
  std::replace(statement.begin(), statement.end(), '\n', ' ');
  std::string squeezed;
  for (const char c : statement) {
    if (!(c == ' ' && !squeezed.empty() && squeezed.back() == ' ')) squeezed += c;
  }
  return passage_of(squeezed, max_bytes);
}

}  // namespace planfirst::sources
