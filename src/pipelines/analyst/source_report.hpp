// SourceReport is what retrieve_evidence records for each source a plan required: "ok" with the
// number of items, "not_configured" (the run has no such source; the message says how to add one)
// or "failed" (the source's error). A plain value kept in the state under "source_status".
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"

namespace planfirst::analyst {

struct SourceReport {
  std::string source;
  std::string status;  // "ok", "not_configured", "failed"
  std::size_t items = 0;
  std::string message;  // "" when ok
};

core::Json to_json(const std::vector<SourceReport>& reports);
std::vector<SourceReport> source_reports_from_json(
    const core::Json& json);  // lenient: skips malformed entries

}  // namespace planfirst::analyst
