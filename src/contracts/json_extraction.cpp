#include "contracts/json_extraction.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <variant>
#include <vector>

namespace planfirst::contracts {
namespace {

constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";

bool is_json_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// Whether the opener at `pos` is followed by something a JSON value could hold there, so that
// prose such as "[see below]" or "{placeholder}" is not mistaken for a value. The end of the text
// is plausible: a reply cut off right after its opening brace is a truncated value.
bool plausible_opener(std::string_view text, std::size_t pos) {
  const char opener = text[pos];
  std::size_t i = pos + 1;
  while (i < text.size() && is_json_space(text[i])) ++i;
  if (i == text.size()) return true;
  const char c = text[i];
  if (opener == '{') return c == '"' || c == '}';
  if (c == '"' || c == '{' || c == '[' || c == ']' || c == '-' || (c >= '0' && c <= '9')) return true;
  const std::string_view rest = text.substr(i);
  for (std::string_view literal : {"true", "false", "null"}) {
    if (literal.starts_with(rest.substr(0, literal.size()))) return true;  // "tr" at the end counts
  }
  return false;
}

std::size_t find_candidate(std::string_view text, std::size_t from, bool objects_only) {
  for (std::size_t i = from; i < text.size(); ++i) {
    const char c = text[i];
    if ((c == '{' || (c == '[' && !objects_only)) && plausible_opener(text, i)) return i;
  }
  return std::string_view::npos;
}

std::string what_of(std::string_view text, std::size_t start) {
  return std::string(text[start] == '{' ? "object" : "array") + " that starts at byte " +
         std::to_string(start);
}

// "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..." -> "syntax
// error ...": the line and column count from the span, not the reply, so the offset replaces them.
std::string parser_message(const char* what) {
  std::string message(what);
  const std::size_t colon = message.find(": ");
  if (message.starts_with("[json.exception") && colon != std::string::npos) message.erase(0, colon + 2);
  return message;
}

// Follows a scan through JSON strings: fed every byte in order, says whether that byte belongs to a
// string, its quotes and escapes included, so brackets and commas inside strings don't count.
class StringTracker {
 public:
  bool in_string_after(char c) {
    if (in_string_) {
      if (escaped_) {
        escaped_ = false;
      } else if (c == '\\') {
        escaped_ = true;
      } else if (c == '"') {
        in_string_ = false;
      }
      return true;
    }
    in_string_ = c == '"';
    return in_string_;
  }

 private:
  bool in_string_ = false;
  bool escaped_ = false;
};

struct Span {
  std::size_t begin = 0;
  std::size_t end = 0;  // one past the closing bracket
};

// Scans the value that starts at `start`: where it closes (a mismatched closer also ends it), or
// the typed reason it does not. Strings and escapes are honoured, so brackets inside them don't
// count. Reads only text[start, min(size, start + max_bytes)).
std::variant<Span, ExtractError> scan_value(std::string_view text, std::size_t start,
                                            const ExtractOptions& options) {
  std::vector<char> closers;
  StringTracker strings;
  for (std::size_t i = start; i < text.size(); ++i) {
    if (i - start >= options.max_bytes) {
      return ExtractError{ExtractErrorKind::kTooLarge, start,
                          "the JSON " + what_of(text, start) + " is longer than the limit of " +
                              std::to_string(options.max_bytes) + " bytes"};
    }
    const char c = text[i];
    if (strings.in_string_after(c)) continue;
    if (c == '{' || c == '[') {
      closers.push_back(c == '{' ? '}' : ']');
      if (closers.size() > options.max_depth) {
        return ExtractError{ExtractErrorKind::kTooLarge, i,
                            "the JSON " + what_of(text, start) + " nests deeper than the limit of " +
                                std::to_string(options.max_depth) + " levels at byte " + std::to_string(i)};
      }
    } else if (c == '}' || c == ']') {
      const bool matches = closers.back() == c;
      closers.pop_back();
      if (!matches || closers.empty()) return Span{start, i + 1};
    }
  }
  return ExtractError{ExtractErrorKind::kTruncated, start,
                      "the JSON " + what_of(text, start) + " is not closed before the text ends at byte " +
                          std::to_string(text.size()) + "; the reply was probably cut off"};
}

std::variant<core::Json, ExtractError> parse_span(std::string_view text, Span span) {
  const char* first = text.data() + span.begin;
  const char* last = text.data() + span.end;
  try {
    return core::Json::parse(first, last);
  } catch (const core::Json::parse_error& e) {
    const std::size_t into = e.byte > 0 ? e.byte - 1 : 0;
    const std::size_t offset = span.begin + std::min(into, span.end - span.begin);
    return ExtractError{ExtractErrorKind::kInvalid, offset,
                        "the JSON " + what_of(text, span.begin) + " does not parse at byte " +
                            std::to_string(offset) + ": " + parser_message(e.what())};
  } catch (const std::exception& e) {
    return ExtractError{ExtractErrorKind::kInvalid, span.begin,
                        "the JSON " + what_of(text, span.begin) + " does not parse: " + e.what()};
  }
}

}  // namespace

std::string_view to_string(ExtractErrorKind kind) {
  switch (kind) {
    case ExtractErrorKind::kNoJson: return "no_json";
    case ExtractErrorKind::kTruncated: return "truncated";
    case ExtractErrorKind::kTooLarge: return "too_large";
    case ExtractErrorKind::kInvalid: return "invalid";
  }
  return "invalid";
}

core::Error ExtractError::to_error() const {
  return core::invalid_argument(std::string(to_string(kind)) + ": " + message,
                                "byte " + std::to_string(offset));
}

ExtractedJson::ExtractedJson(core::Json value) : value_(std::make_unique<core::Json>(std::move(value))) {}
ExtractedJson::ExtractedJson(ExtractError error) : error_(std::move(error)) {}
ExtractedJson::ExtractedJson(ExtractedJson&&) noexcept = default;
ExtractedJson& ExtractedJson::operator=(ExtractedJson&&) noexcept = default;
ExtractedJson::~ExtractedJson() = default;

ExtractedJson::operator core::Result<core::Json>() && {
  if (value_) return std::move(*value_);
  return error_.to_error();
}

ExtractedJson extract_first_json(std::string_view text, const ExtractOptions& options) {
  std::size_t pos = text.starts_with(kUtf8Bom) ? kUtf8Bom.size() : 0;
  std::optional<ExtractError> first_invalid;
  while (true) {
    const std::size_t start = find_candidate(text, pos, options.objects_only);
    if (start == std::string_view::npos) break;
    std::variant<Span, ExtractError> scanned = scan_value(text, start, options);
    if (auto* error = std::get_if<ExtractError>(&scanned)) {
      // A cut-off or oversized value is why the reply failed, even after an earlier bad span.
      return ExtractedJson(std::move(*error));
    }
    const Span span = std::get<Span>(scanned);
    std::variant<core::Json, ExtractError> parsed = parse_span(text, span);
    if (auto* value = std::get_if<core::Json>(&parsed)) return ExtractedJson(std::move(*value));
    if (!first_invalid) first_invalid = std::move(std::get<ExtractError>(parsed));
    pos = span.end;  // spans never overlap, so the whole search stays linear
  }
  if (first_invalid) return ExtractedJson(std::move(*first_invalid));
  return ExtractedJson(ExtractError{ExtractErrorKind::kNoJson, 0,
                                    "no JSON " +
                                        std::string(options.objects_only ? "object" : "object or array") +
                                        " found in " + std::to_string(text.size()) + " bytes of text"});
}

TrailingCommaRepair repair_trailing_commas(std::string_view text) {
  TrailingCommaRepair repair;
  repair.text.reserve(text.size());
  StringTracker strings;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (!strings.in_string_after(c) && c == ',') {
      std::size_t next = i + 1;
      while (next < text.size() && is_json_space(text[next])) ++next;
      if (next < text.size() && (text[next] == '}' || text[next] == ']')) {
        ++repair.removed;
        continue;
      }
    }
    repair.text.push_back(c);
  }
  return repair;
}

}  // namespace planfirst::contracts
