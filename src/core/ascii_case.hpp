// ASCII case for names and keywords: only the letters A-Z and a-z change case, every other byte
// stays as it is, so UTF-8 text passes through untouched. Pure functions, independent of locale.
#pragma once

#include <string>
#include <string_view>

namespace planfirst::core {

std::string ascii_lower(std::string_view text);
std::string ascii_upper(std::string_view text);
bool iequals_ascii(std::string_view a, std::string_view b);  // equal but for ASCII letter case

}  // namespace planfirst::core
