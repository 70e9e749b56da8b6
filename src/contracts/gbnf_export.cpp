#include "contracts/gbnf_export.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "contracts/contract.hpp"

namespace planfirst::contracts {
namespace {

using Schema = nlohmann::ordered_json;  // key order matters: properties come out as written

// The JSON primitives, as llama.cpp's json-schema-to-grammar writes them; emitted only when used.
const std::vector<std::pair<std::string, std::string>>& primitive_rules() {
  static const std::vector<std::pair<std::string, std::string>> kRules = {
      {"space", R"(| " " | "\n" [ \t]{0,20})"},
      {"boolean", R"(("true" | "false") space)"},
      {"null", R"("null" space)"},
      {"char", R"([^"\\\x7F\x00-\x1F] | [\\] (["\\bfnrt] | "u" [0-9a-fA-F]{4}))"},
      {"string", R"("\"" char* "\"" space)"},
      {"integral-part", R"([0] | [1-9] [0-9]{0,15})"},
      {"decimal-part", R"([0-9]{1,16})"},
      {"number", R"(("-"? integral-part) ("." decimal-part)? ([eE] [-+]? integral-part)? space)"},
      {"integer", R"(("-"? integral-part) space)"},
      {"nonnegative-integer", R"(integral-part space)"},
      {"positive-integer", R"([1-9] [0-9]{0,15} space)"},
      {"unit-interval", R"(("0" ("." decimal-part)? | "1" ("." "0"{1,16})?) space)"},
      {"value", R"(object | array | string | number | boolean | null)"},
      {"object", R"("{" space ( string ":" space value ("," space string ":" space value)* )? "}" space)"},
      {"array", R"("[" space ( value ("," space value)* )? "]" space)"},
  };
  return kRules;
}

// Which primitives each primitive uses, to emit the closure of what the contract needs.
const std::map<std::string, std::vector<std::string>>& primitive_uses() {
  static const std::map<std::string, std::vector<std::string>> kUses = {
      {"boolean", {"space"}},
      {"null", {"space"}},
      {"string", {"char", "space"}},
      {"number", {"integral-part", "decimal-part", "space"}},
      {"integer", {"integral-part", "space"}},
      {"nonnegative-integer", {"integral-part", "space"}},
      {"positive-integer", {"space"}},
      {"unit-interval", {"decimal-part", "space"}},
      {"value", {"object", "array", "string", "number", "boolean", "null"}},
      {"object", {"string", "space", "value"}},
      {"array", {"value", "space"}},
  };
  return kUses;
}

std::string gbnf_literal(std::string_view bytes) {
  std::string out = "\"";
  for (char c : bytes) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7F) {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 0xF];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string json_literal(const Schema& value) {
  return gbnf_literal(value.dump(-1, ' ', false, Schema::error_handler_t::replace)) + " space";
}

std::string repetition(long long min, long long max) {  // max < 0: unbounded
  if (min == 0 && max < 0) return "*";
  if (min == 1 && max < 0) return "+";
  if (min == 0 && max == 1) return "?";
  if (max < 0) return "{" + std::to_string(min) + ",}";
  if (min == max) return "{" + std::to_string(min) + "}";
  return "{" + std::to_string(min) + "," + std::to_string(max) + "}";
}

std::string rule_name(std::string_view hint) {
  std::string name;
  for (char c : hint) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    name += ok ? c : '-';
  }
  return name.empty() ? "rule" : name;
}

// Translates an anchored regular expression made of literals, classes, groups, alternation and
// quantifiers into a GBNF expression for a JSON string's content; nullopt for anything else.
class PatternTranslator {
 public:
  explicit PatternTranslator(std::string_view pattern) : p_(pattern) {}

  std::optional<std::string> translate() {
    if (!p_.starts_with('^') || !p_.ends_with('$') || p_.ends_with("\\$")) return std::nullopt;
    p_ = p_.substr(1, p_.size() - 2);
    std::optional<std::string> body = alternatives();
    if (!body || pos_ != p_.size()) return std::nullopt;
    return body;
  }

 private:
  static bool plain(char c) {  // stands for itself in a JSON string and needs no GBNF escape
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x7F && c != '"' && c != '\\';
  }

  std::optional<std::string> alternatives() {
    std::vector<std::string> alts;
    while (true) {
      std::optional<std::string> seq = sequence();
      if (!seq) return std::nullopt;
      alts.push_back(*seq);
      if (pos_ < p_.size() && p_[pos_] == '|') {
        ++pos_;
        continue;
      }
      break;
    }
    if (alts.size() == 1) return alts.front();
    std::string out = "(";
    for (std::size_t i = 0; i < alts.size(); ++i) out += (i ? " | " : "") + alts[i];
    return out + ")";
  }

  std::optional<std::string> sequence() {
    std::vector<std::string> parts;
    std::string text;  // consecutive plain characters, emitted as one literal
    auto flush = [&] {
      if (!text.empty()) parts.push_back(gbnf_literal(text));
      text.clear();
    };
    while (pos_ < p_.size() && p_[pos_] != '|' && p_[pos_] != ')') {
      std::optional<char> single = literal_char();
      std::optional<std::string> atom = single ? gbnf_literal(std::string(1, *single)) : this->atom();
      if (!atom) return std::nullopt;
      std::optional<std::string> quantifier = this->quantifier();
      if (!quantifier) return std::nullopt;
      if (single && quantifier->empty()) {
        text += *single;
        continue;
      }
      flush();
      parts.push_back(*atom + *quantifier);
    }
    flush();
    if (parts.empty()) return std::string("\"\"");
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? " " : "") + parts[i];
    return out;
  }

  // A character that stands for itself (plain or escaped punctuation), consumed; nullopt otherwise.
  std::optional<char> literal_char() {
    const char c = p_[pos_];
    if (c == '\\') {
      if (pos_ + 1 >= p_.size()) return std::nullopt;
      const char e = p_[pos_ + 1];
      const bool punctuation = !((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') || (e >= '0' && e <= '9'));
      if (!punctuation || !plain(e)) return std::nullopt;  // \d, \w, \s, \b ... are not translated
      pos_ += 2;
      return e;
    }
    if (c == '(' || c == '[' || c == '.' || c == '*' || c == '+' || c == '?' || c == '{' || c == '^' ||
        c == '$' || !plain(c)) {
      return std::nullopt;
    }
    ++pos_;
    return c;
  }

  std::optional<std::string> atom() {  // a group or a class; literal_char() takes the rest
    if (p_[pos_] == '(') {
      ++pos_;
      if (p_.substr(pos_).starts_with("?:")) pos_ += 2;
      std::optional<std::string> inner = alternatives();
      if (!inner || pos_ >= p_.size() || p_[pos_] != ')') return std::nullopt;
      ++pos_;
      return "(" + *inner + ")";
    }
    if (p_[pos_] == '[') return char_class();
    return std::nullopt;
  }

  std::optional<std::string> char_class() {
    ++pos_;                                                        // '['
    if (pos_ < p_.size() && p_[pos_] == '^') return std::nullopt;  // a negated class would admit '"'
    std::string out = "[";
    bool first = true;
    while (pos_ < p_.size() && (p_[pos_] != ']' || first)) {
      char c = p_[pos_];
      if (c == '\\') {
        if (pos_ + 1 >= p_.size()) return std::nullopt;
        c = p_[pos_ + 1];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return std::nullopt;
        ++pos_;
      }
      if (!plain(c) || c == '[') return std::nullopt;
      const bool range = c != '-' && pos_ + 2 < p_.size() && p_[pos_ + 1] == '-' && p_[pos_ + 2] != ']';
      out += (c == ']' || c == '-' || c == '^') ? std::string("\\") + c : std::string(1, c);
      if (range) {
        const char high = p_[pos_ + 2];
        if (!plain(high) || high == '\\' || high == '[') return std::nullopt;
        out += '-';
        out += (high == ']' || high == '-' || high == '^') ? std::string("\\") + high : std::string(1, high);
        pos_ += 2;
      }
      ++pos_;
      first = false;
    }
    if (pos_ >= p_.size()) return std::nullopt;
    ++pos_;  // ']'
    return out + "]";
  }

  std::optional<std::string> quantifier() {
    if (pos_ >= p_.size()) return std::string();
    const char c = p_[pos_];
    if (c == '*' || c == '+' || c == '?') {
      ++pos_;
      if (pos_ < p_.size() && (p_[pos_] == '?' || p_[pos_] == '+')) return std::nullopt;  // lazy/possessive
      return std::string(1, c);
    }
    if (c != '{') return std::string();
    const std::size_t close = p_.find('}', pos_);
    if (close == std::string_view::npos) return std::nullopt;
    const std::string_view inside = p_.substr(pos_ + 1, close - pos_ - 1);
    if (inside.empty() || inside.find_first_not_of("0123456789,") != std::string_view::npos ||
        inside.front() == ',') {
      return std::nullopt;
    }
    pos_ = close + 1;
    return "{" + std::string(inside) + "}";
  }

  std::string_view p_;
  std::size_t pos_ = 0;
};

class GbnfWriter {
 public:
  GbnfWriter(const Schema& doc, std::string name) : doc_(doc), name_(std::move(name)) {}

  core::Result<std::string> write() {
    names_.insert("root");
    const std::string root = expression(doc_, "root", "");
    if (error_) return *error_;
    if (root != "root") set_rule("root", root);
    return render();
  }

 private:
  void fail(const std::string& pointer, const std::string& what) {
    if (!error_) {
      error_ = core::invalid_argument("cannot export " + what + " to GBNF",
                                      "contract " + name_ + " schema #" + pointer);
    }
  }

  std::string use(const std::string& primitive) {
    used_.insert(primitive);
    return primitive;
  }

  // Defines a rule named after `hint` (or the name reserved for it) and returns its name.
  std::string define(const std::string& hint, const std::string& body) {
    const std::string name = name_for(hint);
    set_rule(name, body);
    return name;
  }

  // The name a new rule for `hint` gets: the one reference() reserved for it, "root", or a fresh one.
  std::string name_for(const std::string& hint) {
    if (!reserved_.empty() && hint == reserved_) {
      reserved_.clear();
      return hint;
    }
    return hint == "root" ? hint : unique_name(hint);
  }

  std::string unique_name(const std::string& hint) {
    std::string base = rule_name(hint);
    std::string name = base;
    for (int i = 2; names_.contains(name) || is_primitive(name); ++i) name = base + "-" + std::to_string(i);
    names_.insert(name);
    return name;
  }

  static bool is_primitive(const std::string& name) {
    for (const auto& [primitive, unused] : primitive_rules()) {
      if (primitive == name) return true;
    }
    return false;
  }

  void set_rule(const std::string& name, const std::string& body) {
    for (auto& [existing, text] : rules_) {
      if (existing == name) {
        text = body;
        return;
      }
    }
    rules_.emplace_back(name, body);
  }

  void approximate(const Schema& schema, std::initializer_list<const char*> keywords) {
    for (const char* keyword : keywords) {
      if (schema.contains(keyword)) approximated_.insert(keyword);
    }
  }

  // A GBNF expression for `schema`; complex shapes become named rules.
  std::string expression(const Schema& schema, const std::string& hint, const std::string& pointer) {
    if (error_) return "value";
    if (schema.is_boolean()) {
      if (!schema.get<bool>()) fail(pointer, "a false schema");
      return use("value");
    }
    if (!schema.is_object()) {
      fail(pointer, "a schema that is not an object");
      return "value";
    }
    for (const char* keyword :
         {"allOf", "not", "if", "then", "else", "patternProperties", "dependencies", "propertyNames",
          "contains", "additionalItems", "minProperties", "maxProperties"}) {
      if (schema.contains(keyword)) {
        fail(pointer + "/" + keyword, std::string("the keyword ") + keyword);
        return "value";
      }
    }
    if (schema.contains("$ref")) return reference(schema["$ref"], pointer);
    if (schema.contains("const")) return json_literal(schema["const"]);
    if (schema.contains("enum")) {
      const Schema& values = schema["enum"];
      if (!values.is_array() || values.empty()) {
        fail(pointer + "/enum", "an empty enum");
        return "value";
      }
      std::string out = "(";
      for (std::size_t i = 0; i < values.size(); ++i) {
        out +=
            (i ? " | " : "") + gbnf_literal(values[i].dump(-1, ' ', false, Schema::error_handler_t::replace));
      }
      return out + ") " + use("space");
    }
    for (const char* combinator : {"oneOf", "anyOf"}) {
      if (!schema.contains(combinator)) continue;
      const Schema& branches = schema[combinator];
      if (!branches.is_array() || branches.empty()) {
        fail(pointer + "/" + combinator, std::string("an empty ") + combinator);
        return "value";
      }
      std::string out = "(";
      for (std::size_t i = 0; i < branches.size(); ++i) {
        out += (i ? " | " : "") + expression(branches[i], hint + "-" + std::to_string(i),
                                             pointer + "/" + combinator + "/" + std::to_string(i));
      }
      if (schema.contains("type") || schema.contains("properties"))
        approximated_.insert("siblings of " + std::string(combinator));
      return define(hint, out + ")");
    }
    std::vector<std::string> types;
    if (schema.contains("type")) {
      if (schema["type"].is_string()) {
        types.push_back(schema["type"].get<std::string>());
      } else {
        for (const Schema& t : schema["type"]) types.push_back(t.get<std::string>());
      }
    } else if (schema.contains("properties") || schema.contains("additionalProperties") ||
               schema.contains("required")) {
      types.push_back("object");
    } else if (schema.contains("items") || schema.contains("minItems") || schema.contains("maxItems")) {
      types.push_back("array");
    } else if (schema.contains("pattern") || schema.contains("minLength") || schema.contains("maxLength")) {
      types.push_back("string");
    } else {
      return use("value");
    }
    if (types.size() == 1) return typed(schema, types.front(), hint, pointer);
    std::string out = "(";
    for (std::size_t i = 0; i < types.size(); ++i)
      out += (i ? " | " : "") + typed(schema, types[i], hint, pointer);
    return out + ")";
  }

  std::string typed(const Schema& schema, const std::string& type, const std::string& hint,
                    const std::string& pointer) {
    if (type == "string") return string_rule(schema, hint);
    if (type == "boolean") return use("boolean");
    if (type == "null") return use("null");
    if (type == "integer" || type == "number") return number_rule(schema, type);
    if (type == "object") return object_rule(schema, hint, pointer);
    if (type == "array") return array_rule(schema, hint, pointer);
    fail(pointer + "/type", "the type " + type);
    return "value";
  }

  std::string string_rule(const Schema& schema, const std::string& hint) {
    approximate(schema, {"format"});
    if (schema.contains("pattern") && schema["pattern"].is_string()) {
      if (std::optional<std::string> body =
              PatternTranslator(schema["pattern"].get<std::string>()).translate()) {
        approximate(schema, {"minLength", "maxLength"});
        return define(hint, "\"\\\"\" " + *body + " \"\\\"\" " + use("space"));
      }
      approximated_.insert("pattern");
    }
    const long long min = schema.value("minLength", 0LL);
    const long long max = schema.contains("maxLength") ? schema["maxLength"].get<long long>() : -1;
    if (min == 0 && max < 0) return use("string");
    use("char");
    return define(hint, "\"\\\"\" char" + repetition(min, max) + " \"\\\"\" " + use("space"));
  }

  std::string number_rule(const Schema& schema, const std::string& type) {
    const auto bound = [&](const char* keyword) -> std::optional<double> {
      if (!schema.contains(keyword) || !schema[keyword].is_number()) return std::nullopt;
      return schema[keyword].get<double>();
    };
    const std::optional<double> minimum = bound("minimum");
    const std::optional<double> maximum = bound("maximum");
    approximate(schema, {"exclusiveMinimum", "exclusiveMaximum", "multipleOf"});
    if (type == "integer") {
      if (maximum) approximated_.insert("maximum");
      if (minimum && *minimum >= 1) {
        if (*minimum > 1) approximated_.insert("minimum");
        use("space");
        return use("positive-integer");
      }
      if (minimum && *minimum >= 0) {
        if (*minimum > 0) approximated_.insert("minimum");
        use("integral-part");
        use("space");
        return use("nonnegative-integer");
      }
      if (minimum) approximated_.insert("minimum");
      use("integral-part");
      use("space");
      return use("integer");
    }
    if (minimum && maximum && *minimum == 0 && *maximum == 1) return use("unit-interval");
    if (minimum) approximated_.insert("minimum");
    if (maximum) approximated_.insert("maximum");
    return use("number");
  }

  std::string key_value(const std::string& key, const Schema& value, const std::string& hint,
                        const std::string& pointer) {
    const std::string expr =
        expression(value, hint == "root" ? key : hint + "-" + key, pointer + "/properties/" + key);
    return gbnf_literal(Schema(key).dump()) + " " + use("space") + " \":\" space " + expr;
  }

  std::string object_rule(const Schema& schema, const std::string& hint, const std::string& pointer) {
    static const Schema kEmpty = Schema::object();
    const Schema& properties = schema.contains("properties") ? schema["properties"] : kEmpty;
    const Schema additional =
        schema.contains("additionalProperties") ? schema["additionalProperties"] : Schema(true);
    std::set<std::string> required;
    if (schema.contains("required")) {
      for (const Schema& name : schema["required"]) required.insert(name.get<std::string>());
    }
    for (const std::string& name : required) {
      if (!properties.contains(name)) {
        fail(pointer + "/required", "a required property without a schema (" + name + ")");
        return "value";
      }
    }
    use("space");
    if (properties.empty()) {
      if (additional.is_boolean() && !additional.get<bool>()) return define(hint, "\"{\" space \"}\" space");
      if (additional.is_boolean() || additional.empty()) return use("object");
      const std::string value = expression(additional, hint + "-value", pointer + "/additionalProperties");
      const std::string pair = use("string") + " \":\" space " + value;
      return define(hint, "\"{\" space ( " + pair + " ( \",\" space " + pair + " )* )? \"}\" space");
    }
    if (!(additional.is_boolean() && !additional.get<bool>())) approximated_.insert("additionalProperties");

    std::vector<std::string> required_kv;
    std::vector<std::string> optional_kv;
    const std::string name = name_for(hint);
    for (const auto& [key, value] : properties.items()) {
      std::string kv = key_value(key, value, name, pointer);
      (required.contains(key) ? required_kv : optional_kv).push_back(std::move(kv));
    }
    std::string body = "\"{\" space";
    for (std::size_t i = 0; i < required_kv.size(); ++i) body += (i ? " \",\" space " : " ") + required_kv[i];
    if (!optional_kv.empty()) {
      // tail-i: optional properties i.. in order, each one present or not, each after a comma.
      std::vector<std::string> tails(optional_kv.size());
      const std::size_t first_tail = required_kv.empty() ? 1 : 0;  // without required ones, no comma first
      for (std::size_t i = optional_kv.size(); i-- > first_tail;) {
        std::string tail_body = "( \",\" space " + optional_kv[i] + " )?";
        if (i + 1 < optional_kv.size()) tail_body += " " + tails[i + 1];
        tails[i] = define(name + "-tail-" + std::to_string(i), tail_body);
      }
      if (!required_kv.empty()) {
        body += " " + tails.front();
      } else {
        body += " (";
        for (std::size_t i = 0; i < optional_kv.size(); ++i) {
          body += (i ? " | " : " ") + optional_kv[i] + (i + 1 < optional_kv.size() ? " " + tails[i + 1] : "");
        }
        body += " )?";
      }
    }
    body += " \"}\" space";
    set_rule(name, body);
    return name;
  }

  std::string array_rule(const Schema& schema, const std::string& hint, const std::string& pointer) {
    approximate(schema, {"uniqueItems"});
    if (schema.contains("items") && schema["items"].is_array()) {
      fail(pointer + "/items", "tuple items");
      return "value";
    }
    const std::string item = schema.contains("items")
                                 ? expression(schema["items"], hint + "-item", pointer + "/items")
                                 : use("value");
    const long long min = schema.value("minItems", 0LL);
    const long long max = schema.contains("maxItems") ? schema["maxItems"].get<long long>() : -1;
    use("space");
    if (max == 0) return define(hint, "\"[\" space \"]\" space");
    const long long more_min = min > 0 ? min - 1 : 0;
    const long long more_max = max < 0 ? -1 : max - 1;
    std::string items = item;
    if (more_max != 0) items += " ( \",\" space " + item + " )" + repetition(more_min, more_max);
    const std::string body =
        min > 0 ? "\"[\" space " + items + " \"]\" space" : "\"[\" space ( " + items + " )? \"]\" space";
    return define(hint, body);
  }

  std::string reference(const Schema& ref, const std::string& pointer) {
    if (!ref.is_string() || !ref.get<std::string>().starts_with("#")) {
      fail(pointer + "/$ref", "a $ref outside the contract");
      return "value";
    }
    const std::string target = ref.get<std::string>().substr(1);
    if (auto it = by_ref_.find(target); it != by_ref_.end()) return it->second;
    const Schema* node = nullptr;
    try {
      node = &doc_.at(Schema::json_pointer(target));
    } catch (const std::exception&) {
      fail(pointer + "/$ref", "a $ref to a missing definition (" + target + ")");
      return "value";
    }
    const std::string hint = target.empty() ? "root" : target.substr(target.rfind('/') + 1);
    if (target.empty()) {
      by_ref_.emplace(target, "root");
      return "root";
    }
    const std::string name = unique_name(hint);
    by_ref_.emplace(target, name);
    set_rule(name, "value");  // placeholder: a definition may refer to itself
    // The definition's own rule, if it makes one, takes this name; an outer reservation waits.
    const std::string outer = std::exchange(reserved_, name);
    const std::string body = expression(*node, name, target);
    reserved_ = outer;
    if (body != name) set_rule(name, body);
    return name;
  }

  std::string render() {
    std::set<std::string> needed = used_;
    for (bool grew = true; grew;) {
      grew = false;
      for (const std::string& name : std::set<std::string>(needed)) {
        auto uses = primitive_uses().find(name);
        if (uses == primitive_uses().end()) continue;
        for (const std::string& used : uses->second) grew |= needed.insert(used).second;
      }
    }
    std::string out =
        "# " + name_ + ": llama.cpp GBNF generated by planfirst from contracts/" + name_ + ".schema.json\n";
    if (!approximated_.empty()) {
      out += "# approximated (validate() checks them after generation):";
      for (const std::string& keyword : approximated_) out += " " + keyword;
      out += "\n";
    }
    for (const auto& [name, body] : rules_) {
      if (name == "root") out += name + " ::= " + body + "\n";
    }
    for (const auto& [name, body] : rules_) {
      if (name != "root") out += name + " ::= " + body + "\n";
    }
    for (const auto& [name, body] : primitive_rules()) {
      if (needed.contains(name)) out += name + " ::= " + body + "\n";
    }
    return out;
  }

  const Schema& doc_;
  std::string name_;
  std::vector<std::pair<std::string, std::string>> rules_;  // in order of definition
  std::map<std::string, std::string> by_ref_;
  std::set<std::string> names_;
  std::set<std::string> used_;
  std::set<std::string> approximated_;
  std::string reserved_;  // set by reference() while it generates a definition
  std::optional<core::Error> error_;
};

}  // namespace

core::Result<std::string> schema_to_gbnf(std::string_view name, std::string_view schema_text) {
  Schema doc;
  try {
    doc = Schema::parse(schema_text);
  } catch (const std::exception& e) {
    return core::invalid_argument(std::string("the schema is not JSON: ") + e.what(),
                                  "contract " + std::string(name));
  }
  try {
    return GbnfWriter(doc, std::string(name)).write();
  } catch (const std::exception& e) {  // e.g. a "required" entry that is not a string
    return core::invalid_argument(std::string("cannot export the schema to GBNF: ") + e.what(),
                                  "contract " + std::string(name));
  }
}

core::Result<std::string> to_gbnf(const Contract& contract) {
  return schema_to_gbnf(contract.name(), contract.schema_text());
}

}  // namespace planfirst::contracts
