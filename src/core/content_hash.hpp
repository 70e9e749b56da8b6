// Fixed, portable 64-bit hashes over bytes for feature hashing, cache keys and checksums: FNV-1a
// 64 (offset basis 0xcbf29ce484222325, prime 0x100000001b3), a word-wise variant for checksums of
// large buffers, and MurmurHash3's fmix64 finalizer.
// Same bytes, same hash on every platform and build. Not for adversarial input. Pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace planfirst::core {

inline constexpr std::uint64_t kFnv1aOffsetBasis = 0xcbf29ce484222325ULL;
inline constexpr std::uint64_t kFnv1aPrime = 0x100000001b3ULL;

// FNV-1a over `bytes`, continuing from `state` (the offset basis for a fresh hash), so a hash may
// be fed piece by piece: fnv1a64("ab") == fnv1a64("b", fnv1a64("a")).
constexpr std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t state = kFnv1aOffsetBasis) {
  for (const char c : bytes) {
    state ^= static_cast<std::uint8_t>(c);
    state *= kFnv1aPrime;
  }
  return state;
}

// MurmurHash3 fmix64: spreads every input bit over every output bit (FNV-1a's low bits are weak).
constexpr std::uint64_t fmix64(std::uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

// A checksum for large buffers, about eight times faster than fnv1a64: FNV-1a's xor-multiply step
// over 64-bit little-endian words (the tail zero-padded), then the length, then fmix64. Any change
// to a single word changes it.
std::uint64_t checksum64(std::string_view bytes);

std::string to_hex(std::uint64_t value);  // 16 lower-case hex digits

}  // namespace planfirst::core
