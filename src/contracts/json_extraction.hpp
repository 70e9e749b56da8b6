// extract_first_json finds the first complete top-level JSON object or array in a model's reply, the
// way a reader would: past prose, ```json fences, a UTF-8 BOM and brackets in the prose. It never
// throws, never reads past `text`, runs in linear time, and says why it failed in a typed error.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "core/json.hpp"
#include "core/result.hpp"

namespace planfirst::contracts {

enum class ExtractErrorKind {
  kNoJson,     // the text holds no '{' or '[' that starts a JSON value
  kTruncated,  // a value starts but the text ends before it closes (the model was cut off)
  kTooLarge,   // a value is longer than ExtractOptions::max_bytes or deeper than max_depth
  kInvalid,    // a balanced span does not parse as JSON (parser message and offset included)
};
std::string_view to_string(ExtractErrorKind kind);  // "no_json", "truncated", "too_large", "invalid"

struct ExtractOptions {
  std::size_t max_bytes = std::size_t{1} << 20;  // longest value accepted, in bytes
  std::size_t max_depth = 128;                   // deepest nesting accepted
  bool objects_only = false;                     // skip top-level arrays (e.g. "[1]" citations)
};

struct ExtractError {
  ExtractErrorKind kind = ExtractErrorKind::kNoJson;
  std::size_t offset = 0;  // byte in the text where the offending value (or the parse error) is
  std::string message;     // plain words, with the parser's own message for kInvalid

  // kInvalidArgument; where = "byte <offset>"; message = "<kind>: <message>".
  core::Error to_error() const;
};

// The value found, or why none was. Shaped like core::Result (has_value(), *r, r->, error()) and
// convertible to core::Result<Json> for callers that only pass the failure on.
class [[nodiscard]] ExtractedJson {
 public:
  explicit ExtractedJson(core::Json value);
  explicit ExtractedJson(ExtractError error);
  ExtractedJson(ExtractedJson&&) noexcept;
  ExtractedJson& operator=(ExtractedJson&&) noexcept;
  ~ExtractedJson();

  bool has_value() const { return value_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  core::Json& operator*() & { return *value_; }
  const core::Json& operator*() const& { return *value_; }
  core::Json* operator->() { return value_.get(); }
  const core::Json* operator->() const { return value_.get(); }
  const ExtractError& error() const { return error_; }  // REQUIRES: !has_value()

  operator core::Result<core::Json>() &&;  // NOLINT: implicit by design, like Result itself

 private:
  std::unique_ptr<core::Json> value_;
  ExtractError error_;
};

ExtractedJson extract_first_json(std::string_view text, const ExtractOptions& options = {});

// repair_trailing_commas removes the commas a model leaves before a closing brace or bracket
// ({"a": 1,} or ["db",]), which JSON forbids and a reader forgives; commas inside strings stay. For
// a reply that extract_first_json found invalid: repair, then extract again, and say so.
struct TrailingCommaRepair {
  std::string text;         // the text without its trailing commas
  std::size_t removed = 0;  // how many were removed; 0 means `text` is the input unchanged
};
TrailingCommaRepair repair_trailing_commas(std::string_view text);

}  // namespace planfirst::contracts
