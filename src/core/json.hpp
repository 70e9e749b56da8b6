// Json is planfirst's JSON value (nlohmann::json). This header only forward-declares it; include
// <nlohmann/json.hpp> in the .cpp files that build or read JSON values.
#pragma once

#include <nlohmann/json_fwd.hpp>

namespace planfirst::core {
using Json = nlohmann::json;
}  // namespace planfirst::core
