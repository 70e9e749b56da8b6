// AuditTimer times one stage and writes its entry of the audit trail (the state's "audit" list,
// appended to by every node): agent id, start time (ISO-8601 UTC), duration in milliseconds, status
// and the stage's details. Time comes from the run's clock, so a ManualClock gives fixed entries.
#pragma once

#include <chrono>
#include <string>

#include "core/clock.hpp"
#include "core/json.hpp"

namespace planfirst::retrieval {

class AuditTimer {
 public:
  // REQUIRES: `clock` outlives the timer.
  AuditTimer(const core::Clock& clock, std::string agent_id);

  // {"agent_id", "started_at", "duration_ms", "status": "success", "details": details}
  core::Json finish(core::Json details) const;

 private:
  const core::Clock& clock_;
  std::string agent_id_;
  std::chrono::system_clock::time_point started_at_;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace planfirst::retrieval
