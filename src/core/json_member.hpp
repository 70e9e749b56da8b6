// member_or_null reads one member of a JSON value that may not be an object, for lenient readers
// of state files and run reports: a missing member and a non-object both read as null, so a chain
// `member_or_null(member_or_null(state, "plan"), "steps")` never throws. A pure function.
#pragma once

#include <string_view>

#include "core/json.hpp"

namespace planfirst::core {

// `object[key]` when `object` is an object holding `key`; otherwise a shared null that lives for
// the whole program.
const Json& member_or_null(const Json& object, std::string_view key);

}  // namespace planfirst::core
