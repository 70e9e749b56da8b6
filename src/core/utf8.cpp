#include "core/utf8.hpp"

namespace planfirst::core {

std::optional<std::size_t> first_invalid_utf8(std::string_view text) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    const unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      if (c == 0xE0) low = 0xA0;
      if (c == 0xED) high = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
      if (c == 0xF0) low = 0x90;
      if (c == 0xF4) high = 0x8F;
    } else {
      return i;
    }
    if (i + length > n) return i;
    if (s[i + 1] < low || s[i + 1] > high) return i;
    for (std::size_t k = 2; k < length; ++k) {
      if (s[i + k] < 0x80 || s[i + k] > 0xBF) return i;
    }
    i += length;
  }
  return std::nullopt;
}

std::string invalid_utf8_message(std::string_view text) {
  const std::optional<std::size_t> bad = first_invalid_utf8(text);
  return bad ? "not valid UTF-8 at byte " + std::to_string(*bad) + " (counting from 0)" : std::string();
}

std::string escape_invalid_utf8(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string escaped;
  while (!text.empty()) {
    const std::size_t valid = first_invalid_utf8(text).value_or(text.size());
    escaped.append(text.substr(0, valid));
    if (valid == text.size()) break;
    const auto byte = static_cast<unsigned char>(text[valid]);
    escaped += {'\\', 'x', kHex[byte >> 4], kHex[byte & 0xF]};
    text.remove_prefix(valid + 1);
  }
  return escaped;
}

}  // namespace planfirst::core
