// ParamValue is one tool parameter or filter value as the contracts allow it: a scalar (null,
// boolean, integer, number, string) or a list of scalars. It keeps JSON's integer/number split, so
// a value read and written again gives the same bytes. A value type; copy freely.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"

namespace planfirst::autoviz {

using ParamScalar = std::variant<std::nullptr_t, bool, std::int64_t, double, std::string>;

struct ParamValue {
  std::vector<ParamScalar> items;  // one item for a scalar
  bool is_list = false;

  // kInvalidArgument at `where` when `json` is an object or a list holding a list or an object.
  static core::Result<ParamValue> from_json(const core::Json& json, std::string_view where);
  core::Json to_json() const;
  bool mentions(std::string_view text) const;  // some string item equals `text`
  bool operator==(const ParamValue&) const = default;
};

using Params = std::map<std::string, ParamValue, std::less<>>;  // sorted by name, as JSON objects are

// The string the scalar param `name` holds; empty when it is absent, a list or not a string.
std::string text_param(const Params& params, std::string_view name);

// kInvalidArgument at `where` when `json` is not an object of ParamValues.
core::Result<Params> params_from_json(const core::Json& json, std::string_view where);
core::Json params_to_json(const Params& params);

}  // namespace planfirst::autoviz
