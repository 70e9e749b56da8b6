#include "pipelines/sqlopt/sql_text.hpp"

#include <algorithm>
#include <cctype>

namespace planfirst::sqlopt {

bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

namespace {

// Calls visit(position) for every byte at parenthesis depth 0 outside quotes and comments that
// starts a word; stops when visit returns false.
template <typename F>
void top_level_words(std::string_view text, Span span, F&& visit) {
  int depth = 0;
  for (std::size_t i = span.begin; i < span.end; ++i) {
    if (const std::optional<std::size_t> last = quoted_end(text, i, span.end)) {
      i = *last;
      continue;
    }
    const char c = text[i];
    if (c == '(') ++depth;
    if (c == ')') --depth;
    const bool word_start = word_char(c) && (i == span.begin || !word_char(text[i - 1]));
    if (depth == 0 && (word_start || c == ',')) {
      if (!visit(i)) return;
    }
  }
}

bool word_at(std::string_view text, std::size_t at, std::size_t end, std::string_view word) {
  if (at + word.size() > end) return false;
  for (std::size_t k = 0; k < word.size(); ++k)
    if (std::tolower(static_cast<unsigned char>(text[at + k])) != word[k]) return false;
  return at + word.size() == end || !word_char(text[at + word.size()]);
}

// "group by" with any blanks between the words; returns the end of the phrase or npos.
std::size_t phrase_at(std::string_view text, std::size_t at, std::size_t end, std::string_view first,
                      std::string_view second) {
  if (!word_at(text, at, end, first)) return std::string_view::npos;
  std::size_t i = at + first.size();
  while (i < end && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  if (second.empty()) return at + first.size();
  if (!word_at(text, i, end, second)) return std::string_view::npos;
  return i + second.size();
}

}  // namespace

std::optional<std::size_t> quoted_end(std::string_view text, std::size_t at, std::size_t end) {
  const char c = text[at];
  std::size_t last = std::string_view::npos;
  if (c == '\'' || c == '"') {
    last = text.find(c, at + 1);
  } else if (c == '-' && at + 1 < end && text[at + 1] == '-') {
    last = text.find('\n', at);
  } else if (c == '/' && at + 1 < end && text[at + 1] == '*') {
    const std::size_t close = text.find("*/", at + 2);
    last = close == std::string_view::npos ? close : close + 1;
  } else {
    return std::nullopt;
  }
  return last == std::string_view::npos || last >= end ? end : last;
}

std::size_t matching_paren(std::string_view sql, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < sql.size(); ++i) {
    if (const std::optional<std::size_t> last = quoted_end(sql, i, sql.size())) {
      i = *last;
    } else if (sql[i] == '(') {
      ++depth;
    } else if (sql[i] == ')' && --depth == 0) {
      return i + 1;
    }
  }
  return std::string_view::npos;
}

Span trimmed(std::string_view text, Span span) {
  while (span.begin < span.end && std::isspace(static_cast<unsigned char>(text[span.begin]))) ++span.begin;
  while (span.end > span.begin && std::isspace(static_cast<unsigned char>(text[span.end - 1]))) --span.end;
  return span;
}

std::string normalized(std::string_view text) {
  std::string out;
  bool blank = false;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      blank = !out.empty();
      continue;
    }
    if (blank) out += ' ';
    blank = false;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

core::Result<SelectClauses> split_select(std::string_view body) {
  SelectClauses clauses;
  Span all = trimmed(body, {0, body.size()});
  // Leading comments are no part of the statement.
  while (true) {
    if (body.substr(all.begin, 2) == "--") {
      const std::size_t eol = body.find('\n', all.begin);
      all.begin = eol == std::string_view::npos ? all.end : eol + 1;
    } else if (body.substr(all.begin, 2) == "/*") {
      const std::size_t close = body.find("*/", all.begin + 2);
      all.begin = close == std::string_view::npos ? all.end : close + 2;
    } else {
      break;
    }
    all = trimmed(body, all);
  }
  if (word_at(body, all.begin, all.end, "with"))
    return core::invalid_argument("a WITH query is not a plain SELECT");
  if (!word_at(body, all.begin, all.end, "select")) return core::invalid_argument("not a SELECT");
  struct Mark {
    std::size_t keyword_begin, content_begin;
    int clause;
  };
  std::vector<Mark> marks;
  marks.push_back({all.begin, all.begin + 6, 0});
  static constexpr std::pair<std::string_view, std::string_view> kClauses[] = {
      {"from", ""},  {"where", ""},     {"group", "by"}, {"having", ""}, {"order", "by"}, {"limit", ""},
      {"union", ""}, {"intersect", ""}, {"except", ""},  {"window", ""}, {"offset", ""},  {"fetch", ""}};
  top_level_words(body, {all.begin + 6, all.end}, [&](std::size_t at) {
    for (int k = 0; k < static_cast<int>(std::size(kClauses)); ++k) {
      const std::size_t end = phrase_at(body, at, all.end, kClauses[k].first, kClauses[k].second);
      if (end != std::string_view::npos) {
        marks.push_back({at, end, k + 1});
        break;
      }
    }
    return true;
  });
  // Clauses 1-6 of kClauses fill these slots (the first of each counts); 7-9 are set operations.
  std::optional<Span>* const slots[] = {&clauses.from,   &clauses.where,    &clauses.group_by,
                                        &clauses.having, &clauses.order_by, &clauses.limit};
  for (std::size_t m = 0; m < marks.size(); ++m) {
    const std::size_t stop = m + 1 < marks.size() ? marks[m + 1].keyword_begin : all.end;
    const Span content = trimmed(body, {marks[m].content_begin, stop});
    const int clause = marks[m].clause;
    if (clause == 0) {
      clauses.select = content;
    } else if (clause <= 6) {
      if (!*slots[clause - 1]) *slots[clause - 1] = content;
    } else if (clause <= 9) {
      clauses.set_operation = true;
      break;
    }
  }
  return clauses;
}

std::vector<Span> split_conjuncts(std::string_view text, Span span) {
  std::vector<Span> parts;
  std::size_t start = span.begin;
  bool between = false;
  top_level_words(text, span, [&](std::size_t at) {
    if (word_at(text, at, span.end, "between")) {
      between = true;
    } else if (word_at(text, at, span.end, "and")) {
      if (between) {
        between = false;
      } else {
        parts.push_back(trimmed(text, {start, at}));
        start = at + 3;
      }
    }
    return true;
  });
  parts.push_back(trimmed(text, {start, span.end}));
  return parts;
}

std::vector<Span> split_items(std::string_view text, Span span) {
  std::vector<Span> parts;
  std::size_t start = span.begin;
  top_level_words(text, span, [&](std::size_t at) {
    if (text[at] == ',') {
      parts.push_back(trimmed(text, {start, at}));
      start = at + 1;
    }
    return true;
  });
  parts.push_back(trimmed(text, {start, span.end}));
  return parts;
}

std::optional<Span> find_keyword(std::string_view text, Span span, std::string_view word) {
  std::optional<Span> found;
  top_level_words(text, span, [&](std::size_t at) {
    if (word_at(text, at, span.end, word)) {
      found = Span{at, at + word.size()};
      return false;
    }
    return true;
  });
  return found;
}

std::string apply_edits(std::string_view text, std::vector<Edit> edits) {
  std::stable_sort(edits.begin(), edits.end(),
                   [](const Edit& a, const Edit& b) { return a.begin > b.begin; });
  std::string out(text);
  for (const Edit& edit : edits) out.replace(edit.begin, edit.end - edit.begin, edit.text);
  return out;
}

}  // namespace planfirst::sqlopt
