// SQL text at the level a rule-based rewrite needs: the top-level clauses of one SELECT (quotes,
// comments and parentheses skipped), its top-level AND conjuncts and comma-separated items, and
// edits applied back to front. Byte offsets into the text given; pure functions.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace planfirst::sqlopt {

struct Span {
  std::size_t begin = 0;
  std::size_t end = 0;  // exclusive
  std::string_view of(std::string_view text) const { return text.substr(begin, end - begin); }
};

// The contents of each top-level clause of a SELECT (after its keyword, up to the next clause).
struct SelectClauses {
  Span select;  // the select list (DISTINCT included)
  std::optional<Span> from, where, group_by, having, order_by, limit;
  bool set_operation = false;  // a top-level UNION/INTERSECT/EXCEPT follows
};

// A byte of an SQL word: ASCII letter, digit or underscore.
bool word_char(char c);

// When a quoted string or name, or a comment, starts at byte `at`: the index of its last byte, or
// `end` when it does not close before `end`. None when none starts there.
std::optional<std::size_t> quoted_end(std::string_view text, std::size_t at, std::size_t end);

// The byte just past the parenthesis that closes the one at `open` (quotes and comments skipped), or
// npos when unbalanced.
std::size_t matching_paren(std::string_view sql, std::size_t open);

// kInvalidArgument when `body` is not a SELECT at its top level.
core::Result<SelectClauses> split_select(std::string_view body);

// Top-level AND operands of `span` (BETWEEN ... AND ... kept whole), trimmed.
std::vector<Span> split_conjuncts(std::string_view text, Span span);
// Top-level comma-separated items of `span`, trimmed.
std::vector<Span> split_items(std::string_view text, Span span);

// The first top-level keyword `word` (case-insensitive, whole word) in `span`, or none.
std::optional<Span> find_keyword(std::string_view text, Span span, std::string_view word);

struct Edit {
  std::size_t begin = 0;
  std::size_t end = 0;  // replace [begin, end) with `text`; begin == end inserts
  std::string text;
};
// Applies edits (non-overlapping) from the last to the first.
std::string apply_edits(std::string_view text, std::vector<Edit> edits);

// Lower-cased text with runs of blanks as one space, trimmed: for comparing expressions.
std::string normalized(std::string_view text);
Span trimmed(std::string_view text, Span span);

}  // namespace planfirst::sqlopt
