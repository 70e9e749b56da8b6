// to_gbnf turns a contract into a llama.cpp GBNF grammar, so a local model can only produce text of
// the contract's shape: required properties in schema order, then optional ones in order, closed
// enums, consts, nested objects and arrays with their item counts. Keywords a grammar cannot hold
// (uniqueItems, number bounds, unusual patterns) are approximated and listed in a header comment;
// validate() still runs after generation. Deterministic: same schema, same bytes.
#pragma once

#include <string>
#include <string_view>

#include "core/result.hpp"

namespace planfirst::contracts {
class Contract;

// kInvalidArgument naming the schema pointer of a keyword the exporter cannot express (allOf, not,
// if/then/else, patternProperties, dependencies, remote $ref, ...).
core::Result<std::string> to_gbnf(const Contract& contract);
core::Result<std::string> schema_to_gbnf(std::string_view name, std::string_view schema_text);

}  // namespace planfirst::contracts
