// Fuzzes extract_first_json with arbitrary bytes: it must never crash, read past the input or throw,
// a value it returns must round-trip through the parser, and a failure must point inside the input.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "contracts/json_extraction.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using planfirst::contracts::extract_first_json;
  using planfirst::contracts::ExtractOptions;
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  ExtractOptions tight;
  tight.max_bytes = 256;
  tight.max_depth = 8;
  tight.objects_only = size > 0 && (data[0] & 1) != 0;
  for (const ExtractOptions& options : {ExtractOptions{}, tight}) {
    const auto json = extract_first_json(text, options);
    if (json.has_value()) {
      if (!json->is_object() && !json->is_array()) __builtin_trap();
      if (options.objects_only && !json->is_object()) __builtin_trap();
      const std::string dumped = json->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
      if (nlohmann::json::parse(dumped, nullptr, false).is_discarded()) __builtin_trap();
    } else {
      if (json.error().offset > size) __builtin_trap();
      if (json.error().message.empty()) __builtin_trap();
    }
  }
  return 0;
}
