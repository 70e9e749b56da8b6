// trim drops the ASCII white space (space, tab, CR, LF) at both ends of `text`: trim("  a b \n") ==
// "a b". A view into `text`, so `text` must outlive it.
#pragma once

#include <string_view>

namespace planfirst::core {

inline std::string_view trim(std::string_view text) {
  constexpr std::string_view kSpace = " \t\r\n";
  const std::size_t first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(kSpace) - first + 1);
}

}  // namespace planfirst::core
