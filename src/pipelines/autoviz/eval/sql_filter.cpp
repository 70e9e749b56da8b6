#include "pipelines/autoviz/eval/sql_filter.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <set>
#include <string>

#include "core/ascii_case.hpp"

namespace planfirst::autoviz {
namespace {

struct Token {
  enum Kind { kWord, kString, kNumber, kSymbol } kind = kWord;
  std::string text;
};

// The number `text` spells whole: an integer when it fits, else a double; nothing otherwise
// ("1.2.3", or beyond a double's range).
std::optional<ParamScalar> number_of(std::string_view text) {
  const char* end = text.data() + text.size();
  std::int64_t n = 0;
  if (auto [ptr, ec] = std::from_chars(text.data(), end, n); ec == std::errc() && ptr == end) return n;
  double d = 0;
  if (auto [ptr, ec] = std::from_chars(text.data(), end, d); ec == std::errc() && ptr == end) return d;
  return std::nullopt;
}

core::Result<std::vector<Token>> lex(std::string_view where) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < where.size()) {
    const char c = where[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '\'' || c == '"') {
      const std::size_t close = where.find(c, i + 1);
      if (close == std::string_view::npos)
        return core::invalid_argument("unterminated string in filter", std::string(where.substr(i)));
      tokens.push_back({Token::kString, std::string(where.substr(i + 1, close - i - 1))});
      i = close + 1;
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '-' && i + 1 < where.size() && std::isdigit(static_cast<unsigned char>(where[i + 1])))) {
      std::size_t end = i + 1;
      while (end < where.size() &&
             (std::isdigit(static_cast<unsigned char>(where[end])) || where[end] == '.'))
        ++end;
      if (!number_of(where.substr(i, end - i))) {
        return core::invalid_argument("not a number: " + std::string(where.substr(i, end - i)) + " in filter",
                                      std::string(where.substr(i)));
      }
      tokens.push_back({Token::kNumber, std::string(where.substr(i, end - i))});
      i = end;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t end = i + 1;
      while (end < where.size() &&
             (std::isalnum(static_cast<unsigned char>(where[end])) || where[end] == '_' || where[end] == '.'))
        ++end;
      tokens.push_back({Token::kWord, std::string(where.substr(i, end - i))});
      i = end;
    } else {
      std::string symbol(1, c);
      if (i + 1 < where.size() && (where[i + 1] == '=' || (c == '<' && where[i + 1] == '>')))
        symbol += where[i + 1];
      if (symbol != "=" && symbol != "!=" && symbol != "<>" && symbol != "<" && symbol != "<=" &&
          symbol != ">" && symbol != ">=" && symbol != "(" && symbol != ")" && symbol != ",") {
        return core::invalid_argument("unexpected '" + symbol + "' in filter", std::string(where.substr(i)));
      }
      tokens.push_back({Token::kSymbol, symbol});
      i += symbol.size();
    }
  }
  return tokens;
}

// REQUIRES: a number token came out of lex(), which checks number_of.
ParamScalar scalar_of(const Token& token) {
  return token.kind == Token::kNumber ? *number_of(token.text) : ParamScalar(token.text);
}

bool is_value(const Token& token) {
  return token.kind == Token::kString || token.kind == Token::kNumber;
}

class FilterParser {
 public:
  explicit FilterParser(std::vector<Token> tokens, std::string_view where)
      : tokens_(std::move(tokens)), where_(where) {}

  // Groups of atoms: the groups are ORed, the atoms of a group ANDed.
  core::Result<std::vector<std::vector<FilterAtom>>> parse() {
    std::vector<std::vector<FilterAtom>> groups(1);
    while (true) {
      core::Result<FilterAtom> atom = parse_atom();
      if (!atom) return atom.error();
      groups.back().push_back(std::move(*atom));
      if (at_ == tokens_.size()) return groups;
      const std::string connector = core::ascii_upper(tokens_[at_++].text);
      if (connector == "OR") {
        groups.emplace_back();
      } else if (connector != "AND") {
        return fail("expected AND or OR");
      }
    }
  }

 private:
  core::Result<FilterAtom> parse_atom() {
    if (at_ >= tokens_.size() || tokens_[at_].kind != Token::kWord) return fail("expected a column");
    FilterAtom atom;
    atom.column = tokens_[at_++].text;
    bool negated = false;
    if (peek_word("NOT")) {
      negated = true;
      ++at_;
    }
    if (peek_word("LIKE")) {
      ++at_;
      if (at_ >= tokens_.size() || tokens_[at_].kind != Token::kString)
        return fail("expected a LIKE pattern");
      std::string pattern = tokens_[at_++].text;
      if (pattern.size() < 2 || pattern.front() != '%' || pattern.back() != '%')
        return fail("only LIKE '%text%' is read");
      atom.op = negated ? "not_contains" : "contains";
      atom.value = ParamValue{{pattern.substr(1, pattern.size() - 2)}, false};
      return atom;
    }
    if (peek_word("BETWEEN") && !negated) {
      ++at_;
      if (at_ + 2 >= tokens_.size() || !is_value(tokens_[at_]) ||
          core::ascii_upper(tokens_[at_ + 1].text) != "AND" || !is_value(tokens_[at_ + 2])) {
        return fail("expected BETWEEN a AND b");
      }
      atom.op = "between";
      atom.value = ParamValue{{scalar_of(tokens_[at_]), scalar_of(tokens_[at_ + 2])}, true};
      at_ += 3;
      return atom;
    }
    if (peek_word("IN")) {
      ++at_;
      atom.op = negated ? "not_in" : "in";
      atom.value.is_list = true;
      if (at_ >= tokens_.size() || tokens_[at_++].text != "(") return fail("expected ( after IN");
      while (at_ < tokens_.size() && is_value(tokens_[at_])) {
        atom.value.items.push_back(scalar_of(tokens_[at_++]));
        if (at_ < tokens_.size() && tokens_[at_].text == ",") ++at_;
      }
      if (at_ >= tokens_.size() || tokens_[at_++].text != ")") return fail("expected ) after the IN list");
      return atom;
    }
    if (negated || at_ + 1 >= tokens_.size() || tokens_[at_].kind != Token::kSymbol ||
        !is_value(tokens_[at_ + 1])) {
      return fail("expected a comparison");
    }
    atom.op = tokens_[at_].text == "<>" ? "!=" : tokens_[at_].text;
    atom.value = ParamValue{{scalar_of(tokens_[at_ + 1])}, false};
    at_ += 2;
    return atom;
  }

  bool peek_word(std::string_view word) const {
    return at_ < tokens_.size() && tokens_[at_].kind == Token::kWord &&
           core::ascii_upper(tokens_[at_].text) == word;
  }
  core::Error fail(std::string_view what) const {
    const std::string near = at_ < tokens_.size() ? " near '" + tokens_[at_].text + "'" : " at the end";
    return core::invalid_argument(std::string(what) + near + " in filter", std::string(where_));
  }

  std::vector<Token> tokens_;
  std::string_view where_;
  std::size_t at_ = 0;
};

std::optional<double> numeric_value(const ParamScalar& value) {
  if (const auto* n = std::get_if<std::int64_t>(&value)) return static_cast<double>(*n);
  if (const auto* d = std::get_if<double>(&value)) return *d;
  return std::nullopt;
}

// One atom that holds exactly when one of `groups` holds, for ORs of single atoms on one column:
// equalities -> in, contains -> contains any of, "c > a OR c < b" (b <= a) -> not_between [b, a].
std::optional<FilterAtom> fold_disjunction(const std::vector<std::vector<FilterAtom>>& groups) {
  const std::string& column = groups.front().front().column;
  std::set<std::string> ops;
  for (const std::vector<FilterAtom>& group : groups) {
    if (group.size() != 1 || group.front().column != column || group.front().value.is_list)
      return std::nullopt;
    ops.insert(group.front().op);
  }
  const auto value_of = [&](std::string_view op) {
    return std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.front().op == op; })
        ->front()
        .value.items.front();
  };
  if (ops == std::set<std::string>{">", "<"} && groups.size() == 2) {
    const ParamScalar above = value_of(">"), below = value_of("<");
    if (!numeric_value(above) || !numeric_value(below) || *numeric_value(below) > *numeric_value(above))
      return std::nullopt;
    return FilterAtom{column, "not_between", ParamValue{{below, above}, true}};
  }
  if (ops.size() != 1 || (*ops.begin() != "=" && *ops.begin() != "contains")) return std::nullopt;
  FilterAtom any{column, *ops.begin() == "=" ? "in" : "contains", ParamValue{{}, true}};
  for (const std::vector<FilterAtom>& group : groups)
    any.value.items.push_back(group.front().value.items.front());
  return any;
}

}  // namespace

core::Result<std::vector<FilterAtom>> parse_sql_filter(std::string_view where) {
  core::Result<std::vector<Token>> tokens = lex(where);
  if (!tokens) return tokens.error();
  if (tokens->empty()) return std::vector<FilterAtom>{};
  core::Result<std::vector<std::vector<FilterAtom>>> groups = FilterParser(std::move(*tokens), where).parse();
  if (!groups) return groups.error();
  if (groups->size() == 1) return std::move(groups->front());
  std::optional<FilterAtom> folded = fold_disjunction(*groups);
  if (!folded)
    return core::invalid_argument("filter: a disjunction that is not one atom on one column",
                                  std::string(where));
  return std::vector<FilterAtom>{std::move(*folded)};
}

}  // namespace planfirst::autoviz
