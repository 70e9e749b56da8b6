// QueryOutcome is what execute_plans records for one query (one plan asking one source): the items
// it got, or why it got none, every attempt made (the plan's source, then its fallbacks), the time
// range its dates resolved to. Stored under retrieval.results; failures also under
// retrieval.failures. JSON both ways, so each stage can run alone on a state file.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "sources/evidence_item.hpp"
#include "sources/evidence_json.hpp"
#include "sources/source_query.hpp"

namespace planfirst::retrieval {

enum class AttemptStatus { kOk, kFailed, kTimedOut, kNotConfigured, kSkipped };
std::string_view to_string(AttemptStatus status);  // "ok", "failed", "timed_out", "not_configured", "skipped"

struct Attempt {
  std::string source;
  AttemptStatus status = AttemptStatus::kOk;
  std::string message;  // empty when ok
};

struct QueryOutcome {
  std::string query_id;
  std::string plan_id;
  std::string source;       // the source the plan named
  std::string answered_by;  // the source whose items these are (a fallback, maybe); empty on failure
  std::string kind;         // the SourceQuery kind asked
  std::optional<sources::TimeRange> time;
  std::vector<sources::EvidenceItem> items;
  bool truncated = false;  // the source returned more than the limit; the rest were dropped
  std::vector<Attempt> attempts;
  double elapsed_ms = 0.0;

  bool ok() const { return !answered_by.empty(); }
  std::string failure_message() const;  // the attempts' messages, "; "-joined
};

core::Json to_json(const QueryOutcome& result);
core::Result<std::vector<QueryOutcome>> outcomes_from_json(const core::Json& json,
                                                           std::string_view pointer = "/retrieval/results");
std::string iso_utc(std::chrono::system_clock::time_point time);  // "2024-01-15T10:20:30Z"

}  // namespace planfirst::retrieval
