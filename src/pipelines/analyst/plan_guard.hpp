// PlanGuard is seed 000's output guard and conflict table, applied to every candidate plan, from a
// model or from the rules, in this order:
//   1. a model reply's first JSON object (extract_first_json); an invalid one is read again without
//      trailing commas before } or ] (logged); none -> fallback "<extract error>"
//   2. lenient members: a missing missing_info_questions becomes [], a missing expected_output_schema
//      answer_v1_markdown (logged)
//   3. question limits: FAST -> questions dropped (warning); QUALITY -> the first one kept (warning)
//   4. validate_role_output("ANALYST"); a STATUS_* plan naming "doc" fails with reason
//      source_forbidden (counted, logged); then the sources are enforced (enforce_sources: forbidden
//      ones removed, the type's planned ones added, each repair logged) and validated again; any
//      remaining violation -> fallback "validation_failed:<violations>"
//   5. conflicts with the router (§5): a high-stakes router type (is_high_stakes) survives an analyst
//      downgrade to a type outside the set, taking its sources and output schema; the track is
//      QUALITY when either says QUALITY (the analyst may promote, never demote), always for a
//      high-stakes plan, except that a CASUAL plan may stay FAST
// The fallback is the seed's _fallback_plan (fallback_plan(): its sources keep the type's rules too)
// with route_reason "analyst_plan_fallback:<reason>". Immutable; threads may share one. Borrows the
// contracts: they outlive it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "contracts/contract_registry.hpp"
#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/analyst/analyst_metrics.hpp"
#include "pipelines/analyst/analyst_plan.hpp"

namespace planfirst::analyst {

struct RouterChoice {  // what the router put in the state
  RequestType request_type = RequestType::kKnowledgeQa;
  Track track = Track::kQuality;
  std::string reason;
  bool out_of_scope = false;  // the question names nothing of the project (ProjectScope)
};

struct PlanDecision {
  AnalystPlan plan;
  std::string strategy;      // who planned: "llm" or "rules"
  std::string route_reason;  // the router's reason plus the analyst's notes, or the fallback's
  bool fell_back = false;
  std::string fallback_reason;              // metric label: "parse_error", "validation_failed", "model_error"
  std::vector<std::string> warnings;        // lenient readings, dropped questions, repairs, conflicts
  std::vector<std::string> guard_failures;  // "source_forbidden: /required_sources/1 ..."
};

class PlanGuard {
 public:
  PlanGuard(const contracts::ContractRegistry& contracts, AnalystMetrics metrics)
      : contracts_(contracts), metrics_(metrics) {}

  PlanDecision accept_reply(std::string_view model_reply, const RouterChoice& router,
                            std::string_view strategy) const;
  PlanDecision accept(core::Json candidate, const RouterChoice& router, std::string_view strategy) const;
  // The rules' plan standing in for a model that failed (HTTP error, timeout): guarded as any plan,
  // recorded as fallback "model_error" with the error in route_reason.
  PlanDecision accept_after_model_error(core::Json rules_candidate, const RouterChoice& router,
                                        const core::Error& model_error) const;

 private:
  PlanDecision check(core::Json candidate, const RouterChoice& router, std::string_view strategy,
                     std::vector<std::string> warnings, bool count_success) const;
  PlanDecision fall_back(const RouterChoice& router, std::string_view strategy, std::string_view label,
                         const std::string& reason, std::vector<std::string> warnings,
                         std::vector<std::string> guard_failures) const;

  const contracts::ContractRegistry& contracts_;
  AnalystMetrics metrics_;
};

}  // namespace planfirst::analyst
