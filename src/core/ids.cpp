#include "core/ids.hpp"

#include <fmt/format.h>

#include <array>

namespace planfirst::core {
namespace {

std::mt19937_64 seeded_from_device() {
  std::random_device device;
  std::array<std::uint32_t, 8> words{};
  for (auto& word : words) word = device();
  std::seed_seq seed(words.begin(), words.end());
  return std::mt19937_64(seed);
}

}  // namespace

RandomIdGenerator::RandomIdGenerator() : engine_(seeded_from_device()) {}

RandomIdGenerator::RandomIdGenerator(std::uint64_t seed) : engine_(seed) {}

std::string RandomIdGenerator::next() {
  std::uint64_t high = 0;
  std::uint64_t low = 0;
  {
    std::lock_guard lock(mutex_);
    high = engine_();
    low = engine_();
  }
  high = (high & ~0xF000ULL) | 0x4000ULL;            // version 4
  low = (low & ~(0xC0ULL << 56)) | (0x80ULL << 56);  // variant 10xx
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", high >> 32, (high >> 16) & 0xFFFF, high & 0xFFFF,
                     low >> 48, low & 0xFFFFFFFFFFFFULL);
}

std::string SequentialIdGenerator::next() {
  return prefix_ + std::to_string(issued_.fetch_add(1, std::memory_order_relaxed) + 1);
}

}  // namespace planfirst::core
