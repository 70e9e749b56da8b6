#include "contracts/gbnf_grammar.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace planfirst::contracts {
namespace {

constexpr int kUnbounded = -1;

struct Element;
using Sequence = std::vector<Element>;
using Alternatives = std::vector<Sequence>;

struct Element {
  enum class Kind { kLiteral, kClass, kRule, kGroup, kAny };
  Kind kind = Kind::kLiteral;
  std::string literal;                                // kLiteral: UTF-8 bytes
  std::vector<std::pair<char32_t, char32_t>> ranges;  // kClass
  bool negated = false;                               // kClass
  std::size_t rule = 0;                               // kRule: index into Rules::bodies
  Alternatives group;                                 // kGroup
  int min = 1;
  int max = 1;  // kUnbounded for * and +
};

// Decodes one UTF-8 code point at `pos`; a malformed byte decodes as itself, one byte long.
std::pair<char32_t, std::size_t> decode_utf8(std::string_view text, std::size_t pos) {
  const auto byte = static_cast<unsigned char>(text[pos]);
  std::size_t length = byte < 0x80           ? 1
                       : (byte >> 5) == 0x6  ? 2
                       : (byte >> 4) == 0xE  ? 3
                       : (byte >> 3) == 0x1E ? 4
                                             : 0;
  if (length == 0 || pos + length > text.size()) return {byte, 1};
  char32_t code = length == 1 ? byte : byte & (0x7F >> length);
  for (std::size_t i = 1; i < length; ++i) {
    const auto next = static_cast<unsigned char>(text[pos + i]);
    if ((next & 0xC0) != 0x80) return {byte, 1};
    code = (code << 6) | (next & 0x3F);
  }
  return {code, length};
}

void append_utf8(std::string& out, char32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A recursive-descent parser for llama.cpp's GBNF (grammar-parser.cpp), errors with line numbers.
class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  core::Result<void> parse_rules(std::vector<std::string>& names, std::vector<Alternatives>& bodies,
                                 std::vector<std::size_t>& referenced_at) {
    names_ = &names;
    referenced_at_ = &referenced_at;
    skip_space(true);
    while (pos_ < text_.size()) {
      const std::string name = parse_name();
      if (name.empty()) return fail("expected a rule name");
      const std::size_t index = rule_index(name);
      skip_space(false);
      if (!text_.substr(pos_).starts_with("::=")) return fail("expected ::= after " + name);
      pos_ += 3;
      skip_space(false);
      std::optional<Alternatives> body = parse_alternatives(false);
      if (!body) return error_;
      if (bodies.size() <= index) bodies.resize(index + 1);
      if (defined_.contains(index)) return fail("rule " + name + " is defined twice");
      defined_.insert(index);
      bodies[index] = std::move(*body);
      if (pos_ < text_.size() && text_[pos_] != '\n')
        return fail("unexpected character '" + std::string(1, text_[pos_]) + "'");
      skip_space(true);
    }
    bodies.resize(names.size());
    return core::ok();
  }

  const std::set<std::size_t>& defined() const { return defined_; }
  std::size_t line_of(std::size_t offset) const {
    return 1 + static_cast<std::size_t>(
                   std::count(text_.begin(), text_.begin() + std::min(offset, text_.size()), '\n'));
  }

 private:
  core::Error fail(const std::string& message) {
    error_ = core::invalid_argument("GBNF: " + message, "line " + std::to_string(line_of(pos_)));
    return error_;
  }

  void skip_space(bool newlines) {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (c == ' ' || c == '\t' || c == '\r' || (newlines && c == '\n')) {
        ++pos_;
      } else {
        break;
      }
    }
  }

  std::string parse_name() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }

  std::size_t rule_index(const std::string& name) {
    auto it = std::find(names_->begin(), names_->end(), name);
    if (it != names_->end()) return static_cast<std::size_t>(it - names_->begin());
    names_->push_back(name);
    referenced_at_->push_back(pos_);
    return names_->size() - 1;
  }

  std::optional<Alternatives> parse_alternatives(bool nested) {
    Alternatives alternatives;
    while (true) {
      std::optional<Sequence> sequence = parse_sequence(nested);
      if (!sequence) return std::nullopt;
      alternatives.push_back(std::move(*sequence));
      skip_space(nested);
      if (pos_ < text_.size() && text_[pos_] == '|') {
        ++pos_;
        skip_space(true);
        continue;
      }
      return alternatives;
    }
  }

  // One escaped or plain code point inside a literal or class.
  std::optional<char32_t> parse_char() {
    if (pos_ >= text_.size()) return std::nullopt;
    if (text_[pos_] != '\\') {
      auto [code, length] = decode_utf8(text_, pos_);
      pos_ += length;
      return code;
    }
    if (pos_ + 1 >= text_.size()) return std::nullopt;
    const char e = text_[pos_ + 1];
    pos_ += 2;
    auto hex = [&](std::size_t digits) -> std::optional<char32_t> {
      if (pos_ + digits > text_.size()) return std::nullopt;
      char32_t code = 0;
      for (std::size_t i = 0; i < digits; ++i) {
        const int v = hex_value(text_[pos_ + i]);
        if (v < 0) return std::nullopt;
        code = code * 16 + static_cast<char32_t>(v);
      }
      pos_ += digits;
      return code;
    };
    switch (e) {
      case 'x': return hex(2);
      case 'u': return hex(4);
      case 'U': return hex(8);
      case 'n': return U'\n';
      case 'r': return U'\r';
      case 't': return U'\t';
      case '\\':
      case '"':
      case '[':
      case ']':
      case '-':
      case '^': return static_cast<char32_t>(e);
      default: return std::nullopt;
    }
  }

  std::optional<Sequence> parse_sequence(bool nested) {
    Sequence sequence;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      Element element;
      if (c == '"') {
        ++pos_;
        while (pos_ < text_.size() && text_[pos_] != '"') {
          std::optional<char32_t> code = parse_char();
          if (!code) {
            fail("bad escape in a literal");
            return std::nullopt;
          }
          append_utf8(element.literal, *code);
        }
        if (pos_ >= text_.size()) {
          fail("unterminated literal");
          return std::nullopt;
        }
        ++pos_;
      } else if (c == '[') {
        element.kind = Element::Kind::kClass;
        ++pos_;
        if (pos_ < text_.size() && text_[pos_] == '^') {
          element.negated = true;
          ++pos_;
        }
        while (pos_ < text_.size() && text_[pos_] != ']') {
          std::optional<char32_t> low = parse_char();
          if (!low) {
            fail("bad character in a class");
            return std::nullopt;
          }
          char32_t high = *low;
          if (pos_ + 1 < text_.size() && text_[pos_] == '-' && text_[pos_ + 1] != ']') {
            ++pos_;
            std::optional<char32_t> end = parse_char();
            if (!end) {
              fail("bad range in a class");
              return std::nullopt;
            }
            high = *end;
          }
          element.ranges.emplace_back(*low, high);
        }
        if (pos_ >= text_.size()) {
          fail("unterminated character class");
          return std::nullopt;
        }
        ++pos_;
      } else if (is_name_char(c)) {
        element.kind = Element::Kind::kRule;
        element.rule = rule_index(parse_name());
      } else if (c == '(') {
        element.kind = Element::Kind::kGroup;
        ++pos_;
        skip_space(true);
        std::optional<Alternatives> group = parse_alternatives(true);
        if (!group) return std::nullopt;
        skip_space(true);
        if (pos_ >= text_.size() || text_[pos_] != ')') {
          fail("expected )");
          return std::nullopt;
        }
        ++pos_;
        element.group = std::move(*group);
      } else if (c == '.') {
        element.kind = Element::Kind::kAny;
        ++pos_;
      } else {
        break;  // '|', ')', a newline or the end of the rule
      }
      if (!parse_repetition(element)) return std::nullopt;
      sequence.push_back(std::move(element));
      skip_space(nested);
    }
    return sequence;
  }

  bool parse_repetition(Element& element) {
    if (pos_ >= text_.size()) return true;
    const char c = text_[pos_];
    if (c == '*' || c == '+' || c == '?') {
      element.min = c == '+' ? 1 : 0;
      element.max = c == '?' ? 1 : kUnbounded;
      ++pos_;
      return true;
    }
    if (c != '{') return true;
    ++pos_;
    auto number = [&]() -> std::optional<int> {
      const std::size_t start = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9' && pos_ - start < 6) ++pos_;
      if (pos_ == start) return std::nullopt;
      return std::stoi(std::string(text_.substr(start, pos_ - start)));
    };
    std::optional<int> low = number();
    if (!low) {
      fail("expected a number after {");
      return false;
    }
    int high = *low;
    if (pos_ < text_.size() && text_[pos_] == ',') {
      ++pos_;
      std::optional<int> upper = number();
      high = upper ? *upper : kUnbounded;
    }
    if (pos_ >= text_.size() || text_[pos_] != '}') {
      fail("expected } in a repetition");
      return false;
    }
    ++pos_;
    if (high != kUnbounded && high < *low) {
      fail("a repetition's upper bound is below its lower bound");
      return false;
    }
    element.min = *low;
    element.max = high;
    return true;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::vector<std::string>* names_ = nullptr;
  std::vector<std::size_t>* referenced_at_ = nullptr;
  std::set<std::size_t> defined_;
  core::Error error_;
};

using Positions = std::set<std::size_t>;

// All end positions of matches of a grammar piece that start at a position, memoized per rule.
class Recognizer {
 public:
  Recognizer(const std::vector<Alternatives>& bodies, std::string_view text) : bodies_(bodies), text_(text) {}

  Positions rule(std::size_t index, std::size_t pos) {
    const auto key = std::make_pair(index, pos);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    memo_[key] = {};  // a left-recursive call sees no match instead of looping
    Positions ends = alternatives(bodies_[index], pos);
    memo_[key] = ends;
    return ends;
  }

 private:
  Positions alternatives(const Alternatives& alts, std::size_t pos) {
    Positions ends;
    for (const Sequence& sequence : alts) {
      Positions reached = this->sequence(sequence, pos);
      ends.insert(reached.begin(), reached.end());
    }
    return ends;
  }

  Positions sequence(const Sequence& sequence, std::size_t pos) {
    Positions current{pos};
    for (const Element& element : sequence) {
      Positions next;
      for (std::size_t p : current) {
        Positions reached = repeated(element, p);
        next.insert(reached.begin(), reached.end());
      }
      current = std::move(next);
      if (current.empty()) break;
    }
    return current;
  }

  Positions repeated(const Element& element, std::size_t pos) {
    Positions ends;
    Positions seen;
    Positions current{pos};
    if (element.min == 0) ends.insert(pos);
    for (int count = 1; element.max == kUnbounded || count <= element.max; ++count) {
      Positions next;
      for (std::size_t p : current) {
        Positions reached = once(element, p);
        for (std::size_t r : reached) {
          if (count > element.min && seen.contains(r)) continue;  // nothing new past the minimum
          next.insert(r);
        }
      }
      if (next.empty()) break;
      if (count >= element.min) {
        ends.insert(next.begin(), next.end());
        seen.insert(next.begin(), next.end());
      }
      current = std::move(next);
    }
    return ends;
  }

  Positions once(const Element& element, std::size_t pos) {
    switch (element.kind) {
      case Element::Kind::kLiteral:
        if (text_.substr(pos).starts_with(element.literal)) return {pos + element.literal.size()};
        return {};
      case Element::Kind::kClass: {
        if (pos >= text_.size()) return {};
        auto [code, length] = decode_utf8(text_, pos);
        const bool in = std::any_of(
            element.ranges.begin(), element.ranges.end(),
            [code = code](const auto& range) { return code >= range.first && code <= range.second; });
        if (in == element.negated) return {};
        return {pos + length};
      }
      case Element::Kind::kAny:
        if (pos >= text_.size()) return {};
        return {pos + decode_utf8(text_, pos).second};
      case Element::Kind::kRule: return rule(element.rule, pos);
      case Element::Kind::kGroup: return alternatives(element.group, pos);
    }
    return {};
  }

  const std::vector<Alternatives>& bodies_;
  std::string_view text_;
  std::map<std::pair<std::size_t, std::size_t>, Positions> memo_;
};

}  // namespace

struct GbnfGrammar::Rules {
  std::vector<std::string> names;
  std::vector<Alternatives> bodies;
  std::size_t root = 0;
};

core::Result<GbnfGrammar> GbnfGrammar::parse(std::string_view text) {
  auto rules = std::make_unique<Rules>();
  std::vector<std::size_t> referenced_at;
  Parser parser(text);
  if (core::Result<void> parsed = parser.parse_rules(rules->names, rules->bodies, referenced_at); !parsed) {
    return parsed.error();
  }
  for (std::size_t i = 0; i < rules->names.size(); ++i) {
    if (!parser.defined().contains(i)) {
      return core::invalid_argument("GBNF: rule " + rules->names[i] + " is referenced but not defined",
                                    "line " + std::to_string(parser.line_of(referenced_at[i])));
    }
  }
  auto root = std::find(rules->names.begin(), rules->names.end(), "root");
  if (root == rules->names.end()) return core::invalid_argument("GBNF: no root rule");
  rules->root = static_cast<std::size_t>(root - rules->names.begin());
  return GbnfGrammar(std::move(rules));
}

GbnfGrammar::GbnfGrammar(std::unique_ptr<const Rules> rules) : rules_(std::move(rules)) {}
GbnfGrammar::GbnfGrammar(GbnfGrammar&&) noexcept = default;
GbnfGrammar& GbnfGrammar::operator=(GbnfGrammar&&) noexcept = default;
GbnfGrammar::~GbnfGrammar() = default;

std::vector<std::string> GbnfGrammar::rule_names() const {
  return rules_->names;
}

bool GbnfGrammar::accepts(std::string_view text) const {
  Recognizer recognizer(rules_->bodies, text);
  return recognizer.rule(rules_->root, 0).contains(text.size());
}

}  // namespace planfirst::contracts
