#include "pipelines/retrieval/audit_entry.hpp"

#include <nlohmann/json.hpp>

#include "pipelines/retrieval/query_outcome.hpp"

namespace planfirst::retrieval {

AuditTimer::AuditTimer(const core::Clock& clock, std::string agent_id)
    : clock_(clock), agent_id_(std::move(agent_id)), started_at_(clock.now()), started_(clock.steady_now()) {}

core::Json AuditTimer::finish(core::Json details) const {
  const double duration_ms =
      std::chrono::duration<double, std::milli>(clock_.steady_now() - started_).count();
  return core::Json{{"agent_id", agent_id_},
                    {"started_at", iso_utc(started_at_)},
                    {"duration_ms", duration_ms},
                    {"status", "success"},
                    {"details", std::move(details)}};
}

}  // namespace planfirst::retrieval
