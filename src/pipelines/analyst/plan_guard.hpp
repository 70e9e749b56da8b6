// PlanGuard is seed 000's output guard and conflict table, applied to every candidate plan, from a
// model or from the rules, in this order:
//   1. a model reply's first JSON value (extract_first_json); none -> fallback "<extract error>"
//   2. question limits: FAST -> questions dropped (warning); QUALITY -> the first one kept (warning)
//   3. validate_role_output("ANALYST"); a STATUS_* plan naming "doc" fails with reason
//      source_forbidden (counted, logged), is repaired (doc removed, db added when missing) and
//      validated again; any remaining violation -> fallback "validation_failed:<violations>"
//   4. conflicts with the router (§5): a high-stakes router type (is_high_stakes) survives an
//      analyst downgrade to a type outside the set, taking the sources it requires and its output
//      schema; the track is QUALITY when either says QUALITY (the analyst may promote, never demote)
// The fallback is the seed's _fallback_plan with route_reason "analyst_plan_fallback:<reason>".
// Immutable; threads may share one. Borrows the contracts: they outlive it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "contracts/contract_registry.hpp"
#include "core/json.hpp"
#include "pipelines/analyst/analyst_metrics.hpp"
#include "pipelines/analyst/analyst_plan.hpp"

namespace planfirst::analyst {

struct RouterChoice {  // what the router put in the state
  RequestType request_type = RequestType::kKnowledgeQa;
  Track track = Track::kQuality;
  std::string reason;
};

struct PlanDecision {
  AnalystPlan plan;
  std::string route_reason;  // the router's reason plus the analyst's notes, or the fallback's
  bool fell_back = false;
  std::string fallback_reason;              // metric label: "parse_error" or "validation_failed"
  std::vector<std::string> warnings;        // dropped questions, repairs, conflicts resolved
  std::vector<std::string> guard_failures;  // "source_forbidden: /required_sources/1 ..."
};

class PlanGuard {
 public:
  PlanGuard(const contracts::ContractRegistry& contracts, AnalystMetrics metrics)
      : contracts_(contracts), metrics_(metrics) {}

  PlanDecision accept_reply(std::string_view model_reply, const RouterChoice& router,
                            std::string_view strategy) const;
  PlanDecision accept(core::Json candidate, const RouterChoice& router, std::string_view strategy) const;

 private:
  PlanDecision fall_back(const RouterChoice& router, std::string_view label, const std::string& reason,
                         std::vector<std::string> warnings, std::vector<std::string> guard_failures) const;

  const contracts::ContractRegistry& contracts_;
  AnalystMetrics metrics_;
};

}  // namespace planfirst::analyst
