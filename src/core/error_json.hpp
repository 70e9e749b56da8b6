// An Error as the JSON object every JSON output shows it as: {"code", "message", "where"}, the code
// named as core::to_string names it.
#pragma once

#include "core/error.hpp"
#include "core/json.hpp"

namespace planfirst::core {

Json error_json(const Error& error);

}  // namespace planfirst::core
