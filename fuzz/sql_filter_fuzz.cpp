// Fuzzes the benchmark filter parser with arbitrary WHERE text: it must never crash or throw, must
// give the same answer twice, and every error must carry a message.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pipelines/autoviz/eval/sql_filter.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view where(reinterpret_cast<const char*>(data), size);
  const auto first = planfirst::autoviz::parse_sql_filter(where);
  const auto second = planfirst::autoviz::parse_sql_filter(where);
  if (first.has_value() != second.has_value()) __builtin_trap();
  if (!first) {
    if (first.error().message.empty() || first.error().describe() != second.error().describe())
      __builtin_trap();
    return 0;
  }
  if (first->size() != second->size()) __builtin_trap();
  return 0;
}
