#include "sources/snippet.hpp"

namespace planfirst::sources {

std::string snippet_of(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
  return std::string(text.substr(0, cut)) + "...";
}

}  // namespace planfirst::sources
