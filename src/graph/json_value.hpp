// JsonValue owns one JSON value (a state, a delta, a branch input) behind a pointer, so headers can
// pass JSON by value without including nlohmann/json.hpp. Value semantics: copies are deep, moves
// are cheap. Not synchronized; share const copies across threads.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/json.hpp"
#include "core/result.hpp"

namespace planfirst::graph {

class JsonValue {
 public:
  JsonValue();                  // an empty JSON object
  JsonValue(core::Json value);  // NOLINT: implicit by design, so a node can `return json;`
  JsonValue(const JsonValue& other);
  JsonValue(JsonValue&& other) noexcept;
  JsonValue& operator=(const JsonValue& other);
  JsonValue& operator=(JsonValue&& other) noexcept;
  ~JsonValue();

  // kInvalidArgument with the parser's position when `text` is not JSON; `origin` names it.
  static core::Result<JsonValue> parse(std::string_view text, std::string_view origin = "");

  const core::Json& json() const { return *value_; }
  core::Json& json() { return *value_; }
  std::string dump() const;  // compact, keys in sorted order (nlohmann's object order)

  bool operator==(const JsonValue& other) const;

 private:
  std::unique_ptr<core::Json> value_;  // never null
};

}  // namespace planfirst::graph
