// The valijson adapter: compiles schemas, runs the validator, and turns its errors (a context path
// and an English sentence) into Violations with a JSON pointer, a keyword and a plainer message.
// Every valijson and nlohmann exception stops here.
#define VALIJSON_USE_EXCEPTIONS 1

#include "contracts/contract.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <unordered_map>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validation_visitor.hpp>

namespace planfirst::contracts {
namespace {

using core::Json;

// --- JSON pointers --------------------------------------------------------------------------------

std::string escape_token(std::string_view token) {
  std::string out;
  for (char c : token) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<std::string> split_pointer(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  std::size_t pos = 1;
  while (true) {
    const std::size_t slash = pointer.find('/', pos);
    const std::string_view raw =
        pointer.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos);
    std::string token;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '~' && i + 1 < raw.size() && (raw[i + 1] == '0' || raw[i + 1] == '1')) {
        token += raw[i + 1] == '0' ? '~' : '/';
        ++i;
      } else {
        token += raw[i];
      }
    }
    tokens.push_back(std::move(token));
    if (slash == std::string_view::npos) break;
    pos = slash + 1;
  }
  return tokens;
}

bool is_index(const std::string& token) {
  return !token.empty() && token.size() < 10 &&
         std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; });
}

const Json* value_at(const Json& root, std::string_view pointer) {
  const Json* node = &root;
  for (const std::string& token : split_pointer(pointer)) {
    if (node->is_object()) {
      auto it = node->find(token);
      if (it == node->end()) return nullptr;
      node = &*it;
    } else if (node->is_array() && is_index(token) && std::stoul(token) < node->size()) {
      node = &(*node)[std::stoul(token)];
    } else {
      return nullptr;
    }
  }
  return node;
}

bool at_or_under(std::string_view pointer, std::string_view ancestor) {
  return pointer == ancestor || (pointer.starts_with(ancestor) && pointer.size() > ancestor.size() &&
                                 pointer[ancestor.size()] == '/');
}

// --- Walking a schema along an instance pointer ---------------------------------------------------

struct SchemaNode {
  const Json* node = nullptr;
  std::string pointer;  // where `node` sits in the schema document
};

// Follows local "$ref"s ("#/definitions/x"); nullopt for remote or dangling ones.
std::optional<SchemaNode> resolve_refs(const Json& doc, SchemaNode at) {
  for (int hops = 0; hops < 32; ++hops) {
    if (!at.node->is_object()) return at;
    auto ref = at.node->find("$ref");
    if (ref == at.node->end() || !ref->is_string()) return at;
    const std::string target = ref->get<std::string>();
    if (!target.starts_with("#")) return std::nullopt;
    const Json* next = value_at(doc, target.substr(1));
    if (!next) return std::nullopt;
    at = {next, target.substr(1)};
  }
  return std::nullopt;
}

// The schema that governs the value at `instance_pointer`, when properties/items/
// additionalProperties and local $refs lead to exactly one (not through combinators).
std::optional<SchemaNode> schema_at(const Json& doc, std::string_view instance_pointer) {
  std::optional<SchemaNode> at = resolve_refs(doc, {&doc, ""});
  for (const std::string& token : split_pointer(instance_pointer)) {
    if (!at || !at->node->is_object()) return std::nullopt;
    const Json& schema = *at->node;
    SchemaNode next;
    auto properties = schema.find("properties");
    auto items = schema.find("items");
    auto additional = schema.find("additionalProperties");
    if (properties != schema.end() && properties->is_object() && properties->contains(token)) {
      next = {&(*properties)[token], at->pointer + "/properties/" + escape_token(token)};
    } else if (items != schema.end() && items->is_object() && is_index(token)) {
      next = {&*items, at->pointer + "/items"};
    } else if (items != schema.end() && items->is_array() && is_index(token) &&
               std::stoul(token) < items->size()) {
      next = {&(*items)[std::stoul(token)], at->pointer + "/items/" + token};
    } else if (additional != schema.end() && additional->is_object()) {
      next = {&*additional, at->pointer + "/additionalProperties"};
    } else {
      return std::nullopt;
    }
    at = resolve_refs(doc, next);
  }
  return at;
}

const Json* keyword_of(const std::optional<SchemaNode>& schema, const char* keyword) {
  if (!schema || !schema->node->is_object()) return nullptr;
  auto it = schema->node->find(keyword);
  return it == schema->node->end() ? nullptr : &*it;
}

// --- Words for values -----------------------------------------------------------------------------

std::string short_dump(const Json& value) {
  std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

std::string type_name(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return "boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: return "integer";
    case Json::value_t::number_float: return "number";
    case Json::value_t::string: return "string";
    case Json::value_t::array: return "array";
    case Json::value_t::object: return "object";
    default: return "value";
  }
}

std::string join_dumps(const Json& values, std::size_t max_listed = 12) {
  std::string text;
  std::size_t listed = 0;
  for (const Json& v : values) {
    if (listed == max_listed) return text + ", ...";
    if (listed++ > 0) text += ", ";
    text += short_dump(v);
  }
  return text;
}

std::string join_types(const Json& type) {
  if (type.is_string()) return type.get<std::string>();
  std::string text;
  for (const Json& t : type) {
    if (!text.empty()) text += " or ";
    text += t.is_string() ? t.get<std::string>() : short_dump(t);
  }
  return text;
}

// The property named at the end of valijson's sentence, e.g. "... constraints: 'ddl'." -> "ddl".
std::string quoted_name(const std::string& description) {
  for (std::string_view lead_in : {"Missing required property '", "constraints: '", "property name '"}) {
    const std::size_t at = description.find(lead_in);
    if (at == std::string::npos) continue;
    std::string name = description.substr(at + lead_in.size());
    if (name.ends_with("'.")) name.resize(name.size() - 2);
    return name;
  }
  return "";
}

std::vector<std::size_t> numbers_after_hash(const std::string& description) {
  std::vector<std::size_t> numbers;
  for (std::size_t pos = description.find('#'); pos != std::string::npos;
       pos = description.find('#', pos + 1)) {
    std::size_t end = pos + 1;
    while (end < description.size() && description[end] >= '0' && description[end] <= '9') ++end;
    if (end > pos + 1 && end - pos < 12)
      numbers.push_back(std::stoul(description.substr(pos + 1, end - pos - 1)));
  }
  return numbers;
}

// --- valijson's sentences -> keywords --------------------------------------------------------------

enum class Kind {
  kSpecific,      // names a failed keyword at the reported place
  kRequired,      // "Missing required property 'x'.": points at the missing property
  kAdditional,    // "Object contains a property ... 'x'.": points at the unwanted property
  kUnique,        // "Elements at indexes #i and #j ...": points at the repeated item
  kIntoProperty,  // a child property failed; its own errors say why
  kIntoItem,      // a child item failed; its own errors say why
  kIntoSelf,      // a subschema at the same place failed; its own errors say why
};

struct Sentence {
  std::string_view prefix;
  std::string_view keyword;
  Kind kind;
};

// Longer prefixes first where one starts another ("less than or equal" before "less than").
constexpr Sentence kSentences[] = {
    {"Missing required property", "required", Kind::kRequired},
    {"Object contains a property that could not be validated", "additionalProperties", Kind::kAdditional},
    {"Elements at indexes", "uniqueItems", Kind::kUnique},
    {"Failed to match against any enum values", "enum", Kind::kSpecific},
    {"Failed to match expected value set by 'const'", "const", Kind::kSpecific},
    {"Target value and comparison value are not equal", "const", Kind::kSpecific},
    {"Value type not permitted by 'type'", "type", Kind::kSpecific},
    {"Failed to match regex", "pattern", Kind::kSpecific},
    {"Array should contain no more than", "maxItems", Kind::kSpecific},
    {"Array should contain no fewer than", "minItems", Kind::kSpecific},
    {"String should be no more than", "maxLength", Kind::kSpecific},
    {"String should be no fewer than", "minLength", Kind::kSpecific},
    {"Object should have no more than", "maxProperties", Kind::kSpecific},
    {"Object should have no fewer than", "minProperties", Kind::kSpecific},
    {"Expected number less than or equal to", "maximum", Kind::kSpecific},
    {"Expected number less than", "exclusiveMaximum", Kind::kSpecific},
    {"Expected number greater than or equal to", "minimum", Kind::kSpecific},
    {"Expected number greater than", "exclusiveMinimum", Kind::kSpecific},
    {"Value should be a multiple of", "multipleOf", Kind::kSpecific},
    {"Value could not be converted", "multipleOf", Kind::kSpecific},
    {"Failed to validate against any child schemas allowed by oneOf", "oneOf", Kind::kSpecific},
    {"Failed to validate against exactly one child schema", "oneOf", Kind::kSpecific},
    {"Failed to validate against any schemas allowed by anyOf", "anyOf", Kind::kSpecific},
    {"Target should not validate against schema specified in 'not'", "not", Kind::kSpecific},
    {"Failed to any values against subschema in 'contains'", "contains", Kind::kSpecific},
    {"Array contains more items than allowed by items constraint", "additionalItems", Kind::kSpecific},
    {"Cannot validate item #", "additionalItems", Kind::kSpecific},
    {"Missing dependency", "dependencies", Kind::kSpecific},
    {"String should be a valid", "format", Kind::kSpecific},
    {"Failed to validate against schema associated with property name", "properties", Kind::kIntoProperty},
    {"Failed to validate item #", "items", Kind::kIntoItem},  // "in array." and "against ... schema."
    {"Failed to validate against schema associated with pattern", "patternProperties", Kind::kIntoSelf},
    {"Failed to validate against additional properties schema", "additionalProperties", Kind::kIntoSelf},
    {"Failed to validate against a conditional schema", "if", Kind::kIntoSelf},
    {"Failed to validate against dependent schema", "dependencies", Kind::kIntoSelf},
    {"Failed to validate against child schema #", "allOf", Kind::kIntoSelf},
};

struct RawError {
  std::string pointer;  // where the fault is (the property or item for kRequired/kAdditional/kUnique)
  std::string parent;   // where valijson reported it
  std::string keyword;
  Kind kind = Kind::kSpecific;
  std::string description;
  std::string detail;  // the property name, or the first index of a repeated item
};

RawError translate(const valijson::ValidationResults::Error& error) {
  RawError raw;
  for (std::size_t i = 1; i < error.context.size(); ++i) {  // context[0] is "<root>"
    const std::string& part = error.context[i];
    const std::string token = part.size() >= 2 ? part.substr(1, part.size() - 2) : part;  // "[x]" -> "x"
    raw.parent += "/" + escape_token(token);
  }
  raw.pointer = raw.parent;
  raw.description = error.description;
  raw.keyword = "schema";
  for (const Sentence& sentence : kSentences) {
    if (!error.description.starts_with(sentence.prefix)) continue;
    raw.keyword = std::string(sentence.keyword);
    raw.kind = sentence.kind;
    break;
  }
  if (raw.kind == Kind::kRequired || raw.kind == Kind::kAdditional || raw.kind == Kind::kIntoProperty) {
    raw.detail = quoted_name(error.description);
    raw.pointer = raw.parent + "/" + escape_token(raw.detail);
  } else if (raw.kind == Kind::kUnique) {
    const std::vector<std::size_t> indexes = numbers_after_hash(error.description);
    if (indexes.size() == 2) {
      raw.detail = std::to_string(indexes[0]);
      raw.pointer = raw.parent + "/" + std::to_string(indexes[1]);
    }
  } else if (raw.kind == Kind::kIntoItem && error.description.ends_with("in array.")) {
    const std::vector<std::size_t> indexes = numbers_after_hash(error.description);
    if (!indexes.empty()) raw.pointer = raw.parent + "/" + std::to_string(indexes[0]);
  }
  return raw;
}

// The plain message for a specific error, from the schema and the value where it applies.
std::string plain_message(const RawError& raw, const Json& schema_doc, const Json& value) {
  const std::optional<SchemaNode> schema = schema_at(schema_doc, raw.parent);
  const Json* at = value_at(value, raw.pointer);
  const auto limit = [&](const char* keyword) -> std::string {
    const Json* bound = keyword_of(schema, keyword);
    return bound ? short_dump(*bound) : "the limit";
  };
  if (raw.keyword == "required") return "missing required property \"" + raw.detail + "\"";
  if (raw.keyword == "additionalProperties" && raw.kind == Kind::kAdditional) {
    std::string message = "property \"" + raw.detail + "\" is not allowed here";
    if (const Json* properties = keyword_of(schema, "properties"); properties && properties->is_object()) {
      std::string allowed;
      for (const auto& [name, unused] : properties->items()) allowed += (allowed.empty() ? "" : ", ") + name;
      message += allowed.empty() ? "; no properties are allowed" : "; allowed: " + allowed;
    }
    return message;
  }
  if (raw.keyword == "uniqueItems")
    return "repeats the item at index " + raw.detail + "; items must be unique";
  if (!at) return raw.description;
  if (raw.keyword == "enum") {
    const Json* values = keyword_of(schema, "enum");
    return short_dump(*at) + " is not one of " +
           (values ? join_dumps(*values) : std::string("the allowed values"));
  }
  if (raw.keyword == "const") {
    const Json* expected = keyword_of(schema, "const");
    return expected ? "must be " + short_dump(*expected) + ", not " + short_dump(*at)
                    : "is not the required constant";
  }
  if (raw.keyword == "type") {
    const Json* expected = keyword_of(schema, "type");
    return "expected " + (expected ? join_types(*expected) : std::string("another type")) + ", got " +
           type_name(*at);
  }
  if (raw.keyword == "pattern") {
    const Json* pattern = keyword_of(schema, "pattern");
    return short_dump(*at) + " does not match the pattern " +
           (pattern ? pattern->get<std::string>() : std::string("?"));
  }
  if (raw.keyword == "maxItems" && at->is_array()) {
    return "has " + std::to_string(at->size()) + " items; at most " + limit("maxItems") + " allowed";
  }
  if (raw.keyword == "minItems" && at->is_array()) {
    return "has " + std::to_string(at->size()) + " items; at least " + limit("minItems") + " required";
  }
  if (raw.keyword == "maxLength") return "is longer than " + limit("maxLength") + " characters";
  if (raw.keyword == "minLength") return "is shorter than " + limit("minLength") + " characters";
  if (raw.keyword == "maxProperties") return "has more than " + limit("maxProperties") + " properties";
  if (raw.keyword == "minProperties") return "has fewer than " + limit("minProperties") + " properties";
  if (raw.keyword == "maximum") return short_dump(*at) + " is above the maximum " + limit("maximum");
  if (raw.keyword == "exclusiveMaximum")
    return short_dump(*at) + " is not below " + limit("exclusiveMaximum");
  if (raw.keyword == "minimum") return short_dump(*at) + " is below the minimum " + limit("minimum");
  if (raw.keyword == "exclusiveMinimum")
    return short_dump(*at) + " is not above " + limit("exclusiveMinimum");
  if (raw.keyword == "multipleOf") return short_dump(*at) + " is not a multiple of " + limit("multipleOf");
  if (raw.keyword == "oneOf") {
    return raw.description.find("exactly one") != std::string::npos
               ? "matches more than one of the allowed shapes"
               : "matches none of the allowed shapes";
  }
  if (raw.keyword == "anyOf") return "matches none of the allowed shapes";
  if (raw.keyword == "not") return "matches a shape it must not match";
  if (raw.kind == Kind::kIntoProperty || raw.kind == Kind::kIntoItem || raw.kind == Kind::kIntoSelf) {
    return "is not allowed here";
  }
  std::string description = raw.description;
  if (description.ends_with('.')) description.pop_back();
  return description;
}

// --- Compiled schemas -----------------------------------------------------------------------------

struct CompiledSchema {
  Json doc;
  valijson::Schema schema;
  std::unordered_map<std::string, std::regex> regexes;  // copied per call: valijson may add to it
};

void collect_patterns(const Json& node, std::unordered_map<std::string, std::regex>& regexes) {
  std::vector<const Json*> pending{&node};
  while (!pending.empty()) {
    const Json* current = pending.back();
    pending.pop_back();
    if (current->is_object()) {
      auto pattern = current->find("pattern");
      if (pattern != current->end() && pattern->is_string() &&
          !regexes.contains(pattern->get<std::string>())) {
        const std::string text = pattern->get<std::string>();
        // The polynomial (breadth-first) executor matches long strings without deep recursion.
        try {
          regexes.emplace(text,
                          std::regex(text, std::regex::ECMAScript | std::regex_constants::__polynomial));
        } catch (const std::regex_error&) {
          // Back-references need the default executor; valijson compiles that one itself.
        }
      }
    }
    if (current->is_structured()) {
      for (const Json& child : *current) pending.push_back(&child);
    }
  }
}

core::Result<std::unique_ptr<CompiledSchema>> compile_schema(Json doc, const std::string& name) {
  auto compiled = std::make_unique<CompiledSchema>();
  compiled->doc = std::move(doc);
  try {
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    valijson::adapters::NlohmannJsonAdapter adapter(compiled->doc);
    parser.populateSchema(adapter, compiled->schema);
    collect_patterns(compiled->doc, compiled->regexes);
  } catch (const std::exception& e) {
    return core::invalid_argument(std::string("cannot compile the schema: ") + e.what(), "contract " + name);
  }
  return compiled;
}

// A oneOf whose branches are objects told apart by one property's const value (e.g. "type":
// "filter" | "sort" | "limit"): a value that fails it is checked against its own branch only.
struct Variant {
  Json tag;
  std::unique_ptr<CompiledSchema> schema;  // the whole document, rooted at the branch by "$ref"
};
struct TaggedUnion {
  std::string key;
  std::vector<Variant> variants;
};

std::optional<TaggedUnion> tagged_union(const Json& doc, const Json& one_of,
                                        const std::string& one_of_pointer, const std::string& name) {
  if (!one_of.is_array() || one_of.empty()) return std::nullopt;
  std::vector<SchemaNode> branches;
  for (std::size_t i = 0; i < one_of.size(); ++i) {
    std::optional<SchemaNode> branch =
        resolve_refs(doc, {&one_of[i], one_of_pointer + "/" + std::to_string(i)});
    if (!branch || !branch->node->is_object() || branch->pointer.empty()) return std::nullopt;
    branches.push_back(*branch);
  }
  auto tag_of = [](const SchemaNode& branch, const std::string& key) -> const Json* {
    auto properties = branch.node->find("properties");
    if (properties == branch.node->end() || !properties->is_object() || !properties->contains(key))
      return nullptr;
    const Json& property = (*properties)[key];
    auto value = property.is_object() ? property.find("const") : property.end();
    return property.is_object() && value != property.end() ? &*value : nullptr;
  };
  auto first_properties = branches.front().node->find("properties");
  if (first_properties == branches.front().node->end() || !first_properties->is_object()) return std::nullopt;
  for (const auto& [key, unused] : first_properties->items()) {
    TaggedUnion result{key, {}};
    for (const SchemaNode& branch : branches) {
      const Json* tag = tag_of(branch, key);
      if (!tag) break;
      Json rooted = doc;
      if (!rooted.is_object()) break;
      rooted["$ref"] = "#" + branch.pointer;
      core::Result<std::unique_ptr<CompiledSchema>> compiled = compile_schema(std::move(rooted), name);
      if (!compiled) break;
      result.variants.push_back({*tag, std::move(*compiled)});
    }
    if (result.variants.size() == branches.size()) return result;
  }
  return std::nullopt;
}

// Tagged unions by the schema pointer of the node that holds the oneOf.
std::map<std::string, TaggedUnion> find_tagged_unions(const Json& doc, const std::string& name) {
  std::map<std::string, TaggedUnion> unions;
  std::vector<SchemaNode> pending{{&doc, ""}};
  while (!pending.empty()) {
    SchemaNode current = pending.back();
    pending.pop_back();
    if (current.node->is_object()) {
      auto one_of = current.node->find("oneOf");
      if (one_of != current.node->end()) {
        if (std::optional<TaggedUnion> found = tagged_union(doc, *one_of, current.pointer + "/oneOf", name)) {
          unions.emplace(current.pointer, std::move(*found));
        }
      }
      for (const auto& [key, child] : current.node->items())
        pending.push_back({&child, current.pointer + "/" + escape_token(key)});
    } else if (current.node->is_array()) {
      for (std::size_t i = 0; i < current.node->size(); ++i) {
        pending.push_back({&(*current.node)[i], current.pointer + "/" + std::to_string(i)});
      }
    }
  }
  return unions;
}

// Depth and widest array of `value`, without recursion.
std::optional<Violation> check_limits(const Json& value) {
  std::vector<std::pair<const Json*, std::size_t>> pending{{&value, 1}};
  while (!pending.empty()) {
    auto [node, depth] = pending.back();
    pending.pop_back();
    if (depth > kMaxValidatedDepth) {
      return Violation{"", "limits",
                       "the value nests deeper than " + std::to_string(kMaxValidatedDepth) + " levels"};
    }
    if (node->is_array() && node->size() > kMaxValidatedArrayItems) {
      return Violation{"", "limits",
                       "an array holds " + std::to_string(node->size()) + " items; the limit is " +
                           std::to_string(kMaxValidatedArrayItems)};
    }
    if (node->is_structured()) {
      for (const Json& child : *node) pending.emplace_back(&child, depth + 1);
    }
  }
  return std::nullopt;
}

}  // namespace

struct Contract::Compiled {
  std::string name;
  std::string text;
  std::unique_ptr<CompiledSchema> main;
  std::map<std::string, TaggedUnion> unions;
  std::vector<ContractRule> rules;

  std::vector<Violation> check(const CompiledSchema& schema, const Json& value) const;
};

// Runs valijson, keeps the errors that say why (not the ones that only say "a child failed"),
// words them, and narrows failed tagged unions to the branch the value names.
std::vector<Violation> Contract::Compiled::check(const CompiledSchema& compiled, const Json& value) const {
  valijson::ValidationResults results;
  bool valid = false;
  try {
    auto regexes = compiled.regexes;
    valijson::adapters::NlohmannJsonAdapter target(value);
    valijson::ValidationVisitor<valijson::adapters::NlohmannJsonAdapter> visitor(
        target, std::vector<std::string>{"<root>"}, true, &results, regexes);
    valid = visitor.validateSchema(compiled.schema);
  } catch (const std::exception& e) {
    return {Violation{"", "schema", std::string("validation stopped: ") + e.what()}};
  }
  if (valid) return {};

  std::vector<RawError> raw;
  for (const auto& error : results) raw.push_back(translate(error));
  std::vector<Violation> violations;
  std::vector<std::string> unions_at;  // pointers of failed tagged unions, outermost first
  // valijson names only the first unwanted property; the schema names them all.
  std::vector<RawError> expanded;
  for (RawError& error : raw) {
    const std::optional<SchemaNode> schema =
        error.kind == Kind::kAdditional ? schema_at(compiled.doc, error.parent) : std::nullopt;
    const Json* properties = keyword_of(schema, "properties");
    const Json* object = value_at(value, error.parent);
    if (!properties || !properties->is_object() || keyword_of(schema, "patternProperties") || !object ||
        !object->is_object()) {
      expanded.push_back(std::move(error));
      continue;
    }
    for (const auto& [key, unused] : object->items()) {
      if (properties->contains(key)) continue;
      RawError extra = error;
      extra.detail = key;
      extra.pointer = error.parent + "/" + escape_token(key);
      expanded.push_back(std::move(extra));
    }
  }
  raw = std::move(expanded);
  for (const RawError& error : raw) {
    const bool into =
        error.kind == Kind::kIntoProperty || error.kind == Kind::kIntoItem || error.kind == Kind::kIntoSelf;
    if (into && std::any_of(raw.begin(), raw.end(), [&](const RawError& other) {
          const bool other_into = other.kind == Kind::kIntoProperty || other.kind == Kind::kIntoItem ||
                                  other.kind == Kind::kIntoSelf;
          return !other_into && at_or_under(other.pointer, error.pointer);
        })) {
      continue;
    }
    Violation violation{error.pointer, error.keyword, plain_message(error, compiled.doc, value)};
    if (std::find(violations.begin(), violations.end(), violation) != violations.end()) continue;
    if (error.keyword == "oneOf" && error.description.find("any child") != std::string::npos) {
      unions_at.push_back(error.pointer);
    }
    violations.push_back(std::move(violation));
  }
  std::sort(unions_at.begin(), unions_at.end(),
            [](const std::string& a, const std::string& b) { return a.size() < b.size(); });

  for (const std::string& pointer : unions_at) {
    const auto failed = std::find_if(violations.begin(), violations.end(), [&](const Violation& v) {
      return v.pointer == pointer && v.keyword == "oneOf";
    });
    if (failed == violations.end()) continue;  // already narrowed inside an outer union
    const std::optional<SchemaNode> schema = schema_at(compiled.doc, pointer);
    const auto found = schema ? unions.find(schema->pointer) : unions.end();
    const Json* member = value_at(value, pointer);
    if (found == unions.end() || !member) continue;
    const TaggedUnion& tagged = found->second;
    Json tags = Json::array();
    for (const Variant& variant : tagged.variants) tags.push_back(variant.tag);

    std::vector<Violation> narrowed;
    const std::string tag_pointer = pointer + "/" + escape_token(tagged.key);
    if (!member->is_object()) {
      narrowed.push_back({pointer, "type", "expected object, got " + type_name(*member)});
    } else if (!member->contains(tagged.key)) {
      narrowed.push_back(
          {tag_pointer, "required",
           "missing required property \"" + tagged.key + "\" (one of " + join_dumps(tags) + ")"});
    } else {
      const Json& tag = (*member)[tagged.key];
      auto variant = std::find_if(tagged.variants.begin(), tagged.variants.end(),
                                  [&](const Variant& v) { return v.tag == tag; });
      if (variant == tagged.variants.end()) {
        narrowed.push_back(
            {tag_pointer, "oneOf", short_dump(tag) + " is not one of the variants " + join_dumps(tags)});
      } else {
        for (Violation& v : check(*variant->schema, *member)) {
          v.pointer = pointer + v.pointer;
          narrowed.push_back(std::move(v));
        }
      }
    }
    const std::size_t position = static_cast<std::size_t>(failed - violations.begin());
    std::vector<Violation> kept;
    for (std::size_t i = 0; i < violations.size(); ++i) {
      if (i == position) kept.insert(kept.end(), narrowed.begin(), narrowed.end());
      if (!at_or_under(violations[i].pointer, pointer)) kept.push_back(std::move(violations[i]));
    }
    violations = std::move(kept);
  }
  if (violations.empty()) violations.push_back({"", "schema", "the value does not match the schema"});
  return violations;
}

core::Result<Contract> Contract::compile(std::string name, std::string_view schema_text,
                                         std::vector<ContractRule> rules) {
  Json doc;
  try {
    doc = Json::parse(schema_text);
  } catch (const std::exception& e) {
    return core::invalid_argument(std::string("the schema is not JSON: ") + e.what(), "contract " + name);
  }
  core::Result<std::unique_ptr<CompiledSchema>> main = compile_schema(doc, name);
  if (!main) return main.error();
  auto compiled = std::make_unique<Compiled>();
  compiled->unions = find_tagged_unions((*main)->doc, name);
  compiled->main = std::move(*main);
  compiled->name = std::move(name);
  compiled->text = std::string(schema_text);
  compiled->rules = std::move(rules);
  return Contract(std::move(compiled));
}

Contract::Contract(std::unique_ptr<const Compiled> compiled) : compiled_(std::move(compiled)) {}
Contract::Contract(Contract&&) noexcept = default;
Contract& Contract::operator=(Contract&&) noexcept = default;
Contract::~Contract() = default;

const std::string& Contract::name() const {
  return compiled_->name;
}
const std::string& Contract::schema_text() const {
  return compiled_->text;
}
const core::Json& Contract::schema() const {
  return compiled_->main->doc;
}
const std::vector<ContractRule>& Contract::rules() const {
  return compiled_->rules;
}

std::string Contract::title() const {
  const Json& doc = compiled_->main->doc;
  if (doc.is_object() && doc.contains("title") && doc["title"].is_string())
    return doc["title"].get<std::string>();
  return compiled_->name;
}

std::string Contract::description() const {
  const Json& doc = compiled_->main->doc;
  if (doc.is_object() && doc.contains("description") && doc["description"].is_string()) {
    return doc["description"].get<std::string>();
  }
  return "";
}

ValidationReport Contract::validate(const core::Json& value) const {
  if (std::optional<Violation> over = check_limits(value)) return ValidationReport({std::move(*over)});
  std::vector<Violation> violations = compiled_->check(*compiled_->main, value);
  for (const ContractRule& rule : compiled_->rules) {
    std::vector<Violation> found;
    if (!rule.check) continue;
    try {
      rule.check(value, found);
    } catch (const std::exception& e) {
      found.push_back({"", rule.name, std::string("the rule stopped: ") + e.what()});
    }
    for (Violation& v : found) {
      v.keyword = rule.name;
      if (std::find(violations.begin(), violations.end(), v) == violations.end())
        violations.push_back(std::move(v));
    }
  }
  return ValidationReport(std::move(violations));
}

}  // namespace planfirst::contracts
