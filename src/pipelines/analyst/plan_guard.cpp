#include "pipelines/analyst/plan_guard.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "contracts/json_extraction.hpp"
#include "core/json_member.hpp"
#include "core/logging.hpp"
#include "pipelines/analyst/source_policy.hpp"

namespace planfirst::analyst {
namespace {

constexpr std::string_view kSourceForbiddenRule = "status_forbids_doc";

// Step 2: FAST asks nothing, QUALITY asks at most one question.
void limit_questions(core::Json& candidate, std::vector<std::string>& warnings) {
  if (!candidate.is_object() || !candidate.contains("missing_info_questions")) return;
  core::Json& questions = candidate["missing_info_questions"];
  if (!questions.is_array() || questions.empty()) return;
  const core::Json track = candidate.value("track", core::Json());
  if (track == "FAST") {
    warnings.push_back("question_limit: FAST track, dropped " + std::to_string(questions.size()) +
                       " question(s)");
    questions = core::Json::array();
    // Nothing is asked now, so the answer takes its type's schema instead of a clarification's.
    // The contract check comes later: a member of the wrong type is left for it to name.
    const core::Json& type_name = core::member_or_null(candidate, "request_type");
    const std::optional<RequestType> type =
        type_name.is_string() ? parse_request_type(type_name.get<std::string>()) : std::nullopt;
    if (core::member_or_null(candidate, "expected_output_schema") == "clarification_v1" && type) {
      candidate["expected_output_schema"] = std::string(expected_output_schema_for(*type));
    }
  } else if (track == "QUALITY" && questions.size() > 1) {
    warnings.push_back("question_limit: QUALITY track, kept 1 of " + std::to_string(questions.size()) +
                       " questions");
    questions = core::Json::array({questions.front()});
  }
}

bool names_forbidden_source(const contracts::ValidationReport& report) {
  return std::any_of(report.violations().begin(), report.violations().end(),
                     [](const contracts::Violation& v) { return v.keyword == kSourceForbiddenRule; });
}

// Removes "doc" and adds "db" when missing (seed §8, "Source Conflict").
void repair_status_sources(core::Json& candidate) {
  core::Json repaired = core::Json::array();
  for (const core::Json& source : candidate["required_sources"]) {
    if (source != "doc") repaired.push_back(source);
  }
  if (std::find(repaired.begin(), repaired.end(), core::Json("db")) == repaired.end()) {
    repaired.insert(repaired.begin(), "db");
  }
  candidate["required_sources"] = std::move(repaired);
}

void append_missing(std::vector<std::string>& sources, const std::vector<std::string>& required) {
  for (const std::string& source : required) {
    if (std::find(sources.begin(), sources.end(), source) == sources.end()) sources.push_back(source);
  }
}

// Step 4: the router's high-stakes type and QUALITY track survive; notes what changed.
void resolve_conflicts(AnalystPlan& plan, const RouterChoice& router, std::vector<std::string>& warnings) {
  if (is_high_stakes(router.request_type) && !is_high_stakes(plan.request_type)) {
    warnings.push_back("conflict:router_wins " + std::string(to_string(router.request_type)) +
                       " kept over analyst " + std::string(to_string(plan.request_type)));
    plan.request_type = router.request_type;
    append_missing(plan.required_sources, required_sources_by_type(router.request_type));
    plan.expected_output_schema = std::string(expected_output_schema_for(router.request_type));
    plan.track = Track::kQuality;
  }
  if (router.track == Track::kFast && plan.track == Track::kQuality) {
    warnings.push_back("conflict:analyst_promotes FAST -> QUALITY");
  } else if (router.track == Track::kQuality && plan.track == Track::kFast) {
    warnings.push_back("conflict:router_quality_kept analyst FAST ignored");
    plan.track = Track::kQuality;
  }
}

}  // namespace

PlanDecision PlanGuard::accept_reply(std::string_view model_reply, const RouterChoice& router,
                                     std::string_view strategy) const {
  contracts::ExtractOptions options;
  options.objects_only = true;
  contracts::ExtractedJson json = contracts::extract_first_json(model_reply, options);
  if (!json) {
    const contracts::ExtractError& error = json.error();
    return fall_back(router, "parse_error",
                     std::string(contracts::to_string(error.kind)) + ": " + error.message, {}, {});
  }
  return accept(std::move(*json), router, strategy);
}

PlanDecision PlanGuard::accept(core::Json candidate, const RouterChoice& router,
                               std::string_view strategy) const {
  std::vector<std::string> warnings;
  std::vector<std::string> guard_failures;
  limit_questions(candidate, warnings);
  core::Result<contracts::ValidationReport> report =
      contracts::validate_role_output(contracts_, "ANALYST", candidate);
  if (!report)
    return fall_back(router, "validation_failed", "validation_failed:" + report.error().message, warnings,
                     {});
  if (!report->ok() && names_forbidden_source(*report)) {
    guard_failures.push_back("source_forbidden: " + report->describe());
    metrics_.guard_failed("source_forbidden");
    core::log_warn("analyst output guard: source_forbidden, repairing the plan: {}", report->describe());
    repair_status_sources(candidate);
    warnings.push_back("repair:source_forbidden removed doc from a " +
                       candidate.value("request_type", std::string()) + " plan");
    report = contracts::validate_role_output(contracts_, "ANALYST", candidate);
    if (!report)
      return fall_back(router, "validation_failed", "validation_failed:" + report.error().message, warnings,
                       {});
  }
  if (!report->ok()) {
    return fall_back(router, "validation_failed", "validation_failed:" + report->describe(),
                     std::move(warnings), std::move(guard_failures));
  }
  core::Result<AnalystPlan> plan = plan_from_json(candidate);
  if (!plan)
    return fall_back(router, "validation_failed", "validation_failed:" + plan.error().describe(), warnings,
                     {});
  resolve_conflicts(*plan, router, warnings);
  for (const std::string& warning : warnings) core::log_warn("analyst plan: {}", warning);
  metrics_.plan_succeeded();
  metrics_.plan_selected(*plan);
  PlanDecision decision;
  decision.plan = std::move(*plan);
  decision.route_reason = router.reason + "; analyst_plan:" + std::string(strategy);
  for (const std::string& warning : warnings) decision.route_reason += "; " + warning;
  decision.warnings = std::move(warnings);
  decision.guard_failures = std::move(guard_failures);
  return decision;
}

PlanDecision PlanGuard::fall_back(const RouterChoice& router, std::string_view label,
                                  const std::string& reason, std::vector<std::string> warnings,
                                  std::vector<std::string> guard_failures) const {
  core::log_warn("analyst plan fallback ({}): {}", label, reason);
  metrics_.plan_fell_back(label);
  PlanDecision decision;
  decision.plan = fallback_plan(router.request_type);
  decision.route_reason = "analyst_plan_fallback:" + reason;
  decision.fell_back = true;
  decision.fallback_reason = std::string(label);
  decision.warnings = std::move(warnings);
  decision.guard_failures = std::move(guard_failures);
  metrics_.plan_selected(decision.plan);
  return decision;
}

}  // namespace planfirst::analyst
