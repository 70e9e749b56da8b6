// base64_encode writes bytes in the standard Base64 alphabet (RFC 4648 §4) with '=' padding, as
// HTTP Basic authentication wants them. A pure function.
#pragma once

#include <string>
#include <string_view>

namespace planfirst::core {

std::string base64_encode(std::string_view bytes);

}  // namespace planfirst::core
