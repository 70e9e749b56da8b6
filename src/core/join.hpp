// join writes items with a separator between each two: join({"a", "b"}) == "a, b", join({}) == "".
// For messages and reports that list names. Any range of things a std::string can append.
#pragma once

#include <string>
#include <string_view>

namespace planfirst::core {

template <typename Range>
std::string join(const Range& items, std::string_view separator = ", ") {
  std::string text;
  bool first = true;
  for (const auto& item : items) {
    if (!first) text += separator;
    text += item;
    first = false;
  }
  return text;
}

}  // namespace planfirst::core
