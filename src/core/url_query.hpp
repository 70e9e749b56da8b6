// URL pieces for REST clients: percent_encode escapes everything but RFC 3986's unreserved bytes
// (so "group/app" becomes "group%2Fapp"), query_string joins encoded name=value pairs. Pure functions.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace planfirst::core {

using QueryParams = std::vector<std::pair<std::string, std::string>>;  // name, value; in order sent

std::string percent_encode(std::string_view text);
std::string query_string(const QueryParams& params);  // "?a=1&b=x%20y", or "" when there are none

}  // namespace planfirst::core
