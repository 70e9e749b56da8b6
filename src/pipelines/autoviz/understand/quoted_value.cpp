#include "pipelines/autoviz/understand/quoted_value.hpp"

#include <algorithm>
#include <optional>

#include "core/tokenizer.hpp"

namespace planfirst::autoviz {
namespace {

constexpr std::size_t kColumnReach = 5;  // tokens between a column and the value it is compared with
constexpr std::size_t kNegationReach =
    4;  // tokens before the column a negation may stand ("do not belong to the")

struct Quote {
  std::string_view open, close;
};
const Quote kQuotes[] = {
    {"\"", "\""}, {"'", "'"}, {"\xE2\x80\x9C", "\xE2\x80\x9D"}, {"\xE2\x80\x98", "\xE2\x80\x99"}};

// The quote that opens at `at`, if one does (after a space or the start of the question).
std::optional<Quote> opening_at(std::string_view text, std::size_t at) {
  if (at > 0 && is_word_byte(text[at - 1])) return std::nullopt;
  for (const Quote& quote : kQuotes) {
    if (text.substr(at, quote.open.size()) == quote.open) return quote;
  }
  return std::nullopt;
}

// Where in `tokens`, from `from`, the run `words` starts; npos when it does not occur.
std::size_t find_run(const std::vector<std::string>& tokens, const std::vector<std::string>& words,
                     std::size_t from) {
  for (std::size_t at = from; !words.empty() && at + words.size() <= tokens.size(); ++at) {
    if (std::equal(words.begin(), words.end(), tokens.begin() + static_cast<std::ptrdiff_t>(at))) return at;
  }
  return std::string::npos;
}

// The column named nearest before token `begin` within reach, else right after token `end`.
const ColumnSpan* column_of(std::size_t begin, std::size_t end, const std::vector<ColumnSpan>& columns) {
  if (const ColumnSpan* best = column_ending_before(begin, kColumnReach, columns)) return best;
  for (const ColumnSpan& span : columns) {
    if (span.begin >= end && span.begin <= end + 1) return &span;
  }
  return nullptr;
}

}  // namespace

std::vector<std::string> quoted_texts(std::string_view question) {
  std::vector<std::string> texts;
  for (std::size_t at = 0; at < question.size(); ++at) {
    const std::optional<Quote> quote = opening_at(question, at);
    if (!quote) continue;
    const std::size_t start = at + quote->open.size();
    for (std::size_t close = question.find(quote->close, start); close != std::string_view::npos;
         close = question.find(quote->close, close + 1)) {
      const std::size_t after = close + quote->close.size();
      if (after < question.size() && is_word_byte(question[after])) continue;  // an apostrophe inside a word
      if (close > start) texts.emplace_back(question.substr(start, close - start));
      at = after - 1;
      break;
    }
  }
  return texts;
}

std::vector<QuotedSpan> quoted_spans(std::string_view question, const std::vector<std::string>& tokens) {
  std::vector<QuotedSpan> spans;
  std::size_t from = 0;
  for (std::string& text : quoted_texts(question)) {
    const std::vector<std::string> words = core::tokenize(text);
    const std::size_t begin = find_run(tokens, words, from);
    if (begin == std::string::npos) continue;
    from = begin + words.size();
    spans.push_back({std::move(text), begin, from});
  }
  return spans;
}

std::vector<Constraint> find_quoted_filters(std::string_view question, const std::vector<std::string>& tokens,
                                            const Stems& stems, const std::vector<ColumnSpan>& columns,
                                            const Stems& negations) {
  std::vector<Constraint> filters;
  for (const auto& [text, begin, end] : quoted_spans(question, tokens)) {
    const ColumnSpan* column = column_of(begin, end, columns);
    if (column == nullptr) continue;
    const std::size_t first = std::min(column->begin, begin) >= kNegationReach
                                  ? std::min(column->begin, begin) - kNegationReach
                                  : 0;
    const bool negated =
        std::any_of(stems.begin() + static_cast<std::ptrdiff_t>(first),
                    stems.begin() + static_cast<std::ptrdiff_t>(begin), [&](const std::string& s) {
                      return std::find(negations.begin(), negations.end(), s) != negations.end();
                    });
    filters.push_back(
        {"filter", column->column, negated ? "!=" : "=", ParamValue{{ParamScalar(text)}, false}, "", 0});
  }
  return filters;
}

}  // namespace planfirst::autoviz
