#include "core/content_hash.hpp"

namespace planfirst::core {

std::uint64_t checksum64(std::string_view bytes) {
  std::uint64_t state = kFnv1aOffsetBasis;
  std::size_t i = 0;
  for (; i + 8 <= bytes.size(); i += 8) {
    std::uint64_t word = 0;
    for (int b = 0; b < 8; ++b)
      word |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(bytes[i + b])) << (8 * b);
    state = (state ^ word) * kFnv1aPrime;
  }
  if (i < bytes.size()) {
    std::uint64_t word = 0;
    for (int b = 0; i + b < bytes.size(); ++b) {
      word |= static_cast<std::uint64_t>(static_cast<std::uint8_t>(bytes[i + b])) << (8 * b);
    }
    state = (state ^ word) * kFnv1aPrime;
  }
  state = (state ^ bytes.size()) * kFnv1aPrime;
  return fmix64(state);
}

std::string to_hex(std::uint64_t value) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex(16, '0');
  for (int i = 15; i >= 0; --i) {
    hex[static_cast<std::size_t>(i)] = kDigits[value & 0xf];
    value >>= 4;
  }
  return hex;
}

}  // namespace planfirst::core
