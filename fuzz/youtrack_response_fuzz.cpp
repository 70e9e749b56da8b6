// Fuzzes the YouTrack response parser with arbitrary bodies: it must never crash or throw, must give
// the same answer twice, and every error must name a field pointer or the URL, every item an id and a
// provenance locator.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sources/youtrack_response.hpp"

using planfirst::sources::ResponseOrigin;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  const ResponseOrigin origin{"http://youtrack.test/api/issues?query=x", "/api/issues?query=x", "q",
                              "2024-01-01T00:00:00Z"};
  const auto first = planfirst::sources::parse_youtrack_issues(body, "http://youtrack.test", origin);
  const auto second = planfirst::sources::parse_youtrack_issues(body, "http://youtrack.test", origin);
  if (first.has_value() != second.has_value()) __builtin_trap();
  if (!first) {
    if (first.error().message.empty() || first.error().where.empty()) __builtin_trap();
    if (first.error().describe() != second.error().describe()) __builtin_trap();
    return 0;
  }
  for (const auto& item : *first) {
    if (item.id.rfind("youtrack:", 0) != 0 || item.provenance.locator != origin.locator) __builtin_trap();
  }
  return 0;
}
