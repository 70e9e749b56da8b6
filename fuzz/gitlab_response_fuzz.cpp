// Fuzzes the GitLab response parsers with arbitrary bodies: they must never crash or throw, must give
// the same answer twice, and every error must name a field pointer or the URL, every item an id with
// the project and a provenance locator.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sources/gitlab_response.hpp"

using planfirst::sources::ResponseOrigin;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  const ResponseOrigin origin{"http://gitlab.test/api/v4/projects/g%2Fa/issues",
                              "/api/v4/projects/g%2Fa/issues", "q", "2024-01-01T00:00:00Z"};
  for (auto parse : {planfirst::sources::parse_gitlab_commits, planfirst::sources::parse_gitlab_issues,
                     planfirst::sources::parse_gitlab_merge_requests}) {
    const auto first = parse(body, "g/a", origin);
    const auto second = parse(body, "g/a", origin);
    if (first.has_value() != second.has_value()) __builtin_trap();
    if (!first) {
      if (first.error().message.empty() || first.error().where.empty()) __builtin_trap();
      if (first.error().describe() != second.error().describe()) __builtin_trap();
      continue;
    }
    for (const auto& item : *first) {
      if (item.id.rfind("gitlab:g/a", 0) != 0 || item.provenance.locator != origin.locator) __builtin_trap();
    }
  }
  return 0;
}
