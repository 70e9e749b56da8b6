// Fuzzes one line of an NL2VIS benchmark file: arbitrary text must read as a case or a named error,
// never a crash or an exception, and the same way twice.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "pipelines/autoviz/eval/nl2vis_case.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line(reinterpret_cast<const char*>(data), size);
  const auto first = planfirst::autoviz::parse_nl2vis_record(line, "/data");
  const auto second = planfirst::autoviz::parse_nl2vis_record(line, "/data");
  if (first.has_value() != second.has_value()) __builtin_trap();
  if (!first && first.error().message.empty()) __builtin_trap();
  if (first && first->id != second->id) __builtin_trap();
  return 0;
}
