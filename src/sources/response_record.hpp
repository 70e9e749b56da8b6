// ResponseRecord reads one element of a JSON array a REST service returned, by dotted field path
// ("author.username"). Reads never fail on the spot: a missing required field or a value of the wrong
// type returns an empty value and keeps the first such problem, and status() is then a kInvalidArgument
// Error naming the URL and the field's JSON pointer (/3/author/username). Never throws. Borrows the JSON
// value and the URL: both outlive the reader. One reader per thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "sources/evidence_item.hpp"

namespace planfirst::sources {

// The body as a JSON array, or kInvalidArgument naming `url` when it is not JSON or not an array.
core::Result<core::Json> parse_json_array(std::string_view body, std::string_view url);

class ResponseRecord {
 public:
  // REQUIRES: `value` is the element at `index` of the array `url` returned. Not an object: status() fails.
  ResponseRecord(const core::Json& value, std::string_view url, std::size_t index);

  std::string text(std::string_view path);                      // a string, required
  std::string optional_text(std::string_view path);             // "" when absent or null
  std::string timestamp(std::string_view path, bool required);  // an RFC 3339 string; "" when absent
  std::int64_t integer(std::string_view path);                  // required
  std::optional<std::int64_t> optional_integer(std::string_view path);
  // An array of strings, or of objects whose `member` is a string; empty when absent or null.
  std::vector<std::string> texts(std::string_view path, std::string_view member = {});
  const core::Json* find(std::string_view path) const;  // null when absent or null

  void fail(std::string_view path, std::string_view expected);  // records "field ... expected ..."
  core::Result<void> status() const;                            // the first problem, if any

 private:
  std::string pointer(std::string_view path) const;  // "/3/author/username"

  const core::Json& value_;
  std::string_view url_;
  std::size_t index_;
  std::optional<core::Error> error_;
};

// Each element of the JSON array `body` turned into an item by `make_item`; the first failure wins.
core::Result<std::vector<EvidenceItem>> parse_records(
    std::string_view body, std::string_view url,
    const std::function<core::Result<EvidenceItem>(ResponseRecord&)>& make_item);

}  // namespace planfirst::sources
