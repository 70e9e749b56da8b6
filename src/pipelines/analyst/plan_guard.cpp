#include "pipelines/analyst/plan_guard.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>

#include "contracts/json_extraction.hpp"
#include "core/json_member.hpp"
#include "core/logging.hpp"
#include "pipelines/analyst/source_policy.hpp"

namespace planfirst::analyst {
namespace {

constexpr std::string_view kSourceForbiddenRule = "status_forbids_doc";
constexpr std::string_view kDefaultOutputSchema = "answer_v1_markdown";

// The request type a candidate names, when it names a known one as text.
std::optional<RequestType> candidate_type(const core::Json& candidate) {
  const core::Json& name = core::member_or_null(candidate, "request_type");
  return name.is_string() ? parse_request_type(name.get<std::string>()) : std::nullopt;
}

// Step 2: the two members the seed's prompt may leave out get the seed's defaults.
void complete_optional_members(core::Json& candidate, std::vector<std::string>& warnings) {
  if (!candidate.is_object()) return;
  if (!candidate.contains("missing_info_questions")) {
    candidate["missing_info_questions"] = core::Json::array();
    warnings.push_back("lenient:missing_info_questions absent, completed with []");
  }
  if (!candidate.contains("expected_output_schema")) {
    candidate["expected_output_schema"] = std::string(kDefaultOutputSchema);
    warnings.push_back("lenient:expected_output_schema absent, completed with " +
                       std::string(kDefaultOutputSchema));
  }
}

// Step 3: FAST asks nothing, QUALITY asks at most one question.
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
    const std::optional<RequestType> type = candidate_type(candidate);
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

// Step 4 (§3-§4, §8): forbidden sources removed, the type's planned ones added. Whether it changed
// the candidate; a candidate whose type or sources are malformed is left for the contract to name.
bool enforce_candidate_sources(core::Json& candidate, std::vector<std::string>& warnings) {
  const std::optional<RequestType> type = candidate_type(candidate);
  const core::Json& listed = core::member_or_null(candidate, "required_sources");
  if (!type || !listed.is_array()) return false;
  std::vector<std::string> sources;
  for (const core::Json& source : listed) {
    if (!source.is_string()) return false;
    sources.push_back(source.get<std::string>());
  }
  SourceRepair repair = enforce_sources(*type, std::move(sources));
  if (repair.notes.empty()) return false;
  candidate["required_sources"] = repair.sources;
  warnings.insert(warnings.end(), repair.notes.begin(), repair.notes.end());
  return true;
}

// Step 5: the router's high-stakes type and QUALITY track survive; notes what changed.
void resolve_conflicts(AnalystPlan& plan, const RouterChoice& router, std::vector<std::string>& warnings) {
  if (is_high_stakes(router.request_type) && !is_high_stakes(plan.request_type)) {
    warnings.push_back("conflict:router_wins " + std::string(to_string(router.request_type)) +
                       " kept over analyst " + std::string(to_string(plan.request_type)));
    plan.request_type = router.request_type;
    SourceRepair repair = enforce_sources(plan.request_type, std::move(plan.required_sources));
    plan.required_sources = std::move(repair.sources);
    warnings.insert(warnings.end(), repair.notes.begin(), repair.notes.end());
    plan.expected_output_schema = std::string(expected_output_schema_for(router.request_type));
  }
  if (is_high_stakes(plan.request_type) && plan.track == Track::kFast) {
    warnings.push_back("conflict:high_stakes_quality " + std::string(to_string(plan.request_type)) +
                       " runs on QUALITY");
    plan.track = Track::kQuality;
  } else if (router.track == Track::kFast && plan.track == Track::kQuality) {
    warnings.push_back("conflict:analyst_promotes FAST -> QUALITY");
  } else if (router.track == Track::kQuality && plan.track == Track::kFast) {
    if (plan.request_type == RequestType::kCasual) {
      warnings.push_back("conflict:casual_stays_fast router QUALITY, analyst CASUAL FAST");
    } else {
      warnings.push_back("conflict:router_quality_kept analyst FAST ignored");
      plan.track = Track::kQuality;
    }
  }
}

}  // namespace

PlanDecision PlanGuard::accept_reply(std::string_view model_reply, const RouterChoice& router,
                                     std::string_view strategy) const {
  contracts::ExtractOptions options;
  options.objects_only = true;
  contracts::ExtractedJson json = contracts::extract_first_json(model_reply, options);
  std::vector<std::string> warnings;
  if (!json && json.error().kind == contracts::ExtractErrorKind::kInvalid) {
    const contracts::TrailingCommaRepair repaired = contracts::repair_trailing_commas(model_reply);
    if (repaired.removed > 0) {
      contracts::ExtractedJson again = contracts::extract_first_json(repaired.text, options);
      if (again) {
        warnings.push_back("lenient:trailing_comma removed " + std::to_string(repaired.removed) +
                           " comma(s) before } or ]");
        json = std::move(again);
      }
    }
  }
  if (!json) {
    const contracts::ExtractError& error = json.error();
    return fall_back(router, strategy, "parse_error",
                     std::string(contracts::to_string(error.kind)) + ": " + error.message,
                     std::move(warnings), {});
  }
  return check(std::move(*json), router, strategy, std::move(warnings), true);
}

PlanDecision PlanGuard::accept(core::Json candidate, const RouterChoice& router,
                               std::string_view strategy) const {
  return check(std::move(candidate), router, strategy, {}, true);
}

PlanDecision PlanGuard::accept_after_model_error(core::Json rules_candidate, const RouterChoice& router,
                                                 const core::Error& model_error) const {
  core::log_warn("analyst plan: the model failed, planning with the rules: {}", model_error.describe());
  PlanDecision decision =
      check(std::move(rules_candidate), router, "rules", {"model_error: " + model_error.describe()}, false);
  if (decision.fell_back) return decision;  // the rules' plan failed the guard too: counted there
  metrics_.plan_fell_back("model_error");
  decision.fell_back = true;
  decision.fallback_reason = "model_error";
  decision.route_reason =
      "analyst_plan_fallback:model_error:" + model_error.describe() + "; " + decision.route_reason;
  return decision;
}

PlanDecision PlanGuard::check(core::Json candidate, const RouterChoice& router, std::string_view strategy,
                              std::vector<std::string> warnings, bool count_success) const {
  std::vector<std::string> guard_failures;
  complete_optional_members(candidate, warnings);
  limit_questions(candidate, warnings);
  core::Result<contracts::ValidationReport> report =
      contracts::validate_role_output(contracts_, "ANALYST", candidate);
  if (!report)
    return fall_back(router, strategy, "validation_failed", "validation_failed:" + report.error().message,
                     std::move(warnings), {});
  if (!report->ok() && names_forbidden_source(*report)) {
    guard_failures.push_back("source_forbidden: " + report->describe());
    metrics_.guard_failed("source_forbidden");
    core::log_warn("analyst output guard: source_forbidden, repairing the plan: {}", report->describe());
  }
  if (enforce_candidate_sources(candidate, warnings)) {
    report = contracts::validate_role_output(contracts_, "ANALYST", candidate);
    if (!report)
      return fall_back(router, strategy, "validation_failed", "validation_failed:" + report.error().message,
                       std::move(warnings), std::move(guard_failures));
  }
  if (!report->ok()) {
    return fall_back(router, strategy, "validation_failed", "validation_failed:" + report->describe(),
                     std::move(warnings), std::move(guard_failures));
  }
  core::Result<AnalystPlan> plan = plan_from_json(candidate);
  if (!plan)
    return fall_back(router, strategy, "validation_failed", "validation_failed:" + plan.error().describe(),
                     std::move(warnings), std::move(guard_failures));
  resolve_conflicts(*plan, router, warnings);
  for (const std::string& warning : warnings) core::log_warn("analyst plan: {}", warning);
  if (count_success) metrics_.plan_succeeded();
  metrics_.plan_selected(*plan);
  PlanDecision decision;
  decision.plan = std::move(*plan);
  decision.strategy = std::string(strategy);
  decision.route_reason = router.reason + "; analyst_plan:" + std::string(strategy);
  for (const std::string& warning : warnings) decision.route_reason += "; " + warning;
  decision.warnings = std::move(warnings);
  decision.guard_failures = std::move(guard_failures);
  return decision;
}

PlanDecision PlanGuard::fall_back(const RouterChoice& router, std::string_view strategy,
                                  std::string_view label, const std::string& reason,
                                  std::vector<std::string> warnings,
                                  std::vector<std::string> guard_failures) const {
  core::log_warn("analyst plan fallback ({}): {}", label, reason);
  metrics_.plan_fell_back(label);
  PlanDecision decision;
  decision.plan = fallback_plan(router.request_type);
  // The seed's ["policy"], repaired as any plan's sources are (fallback_plan applies the same rules).
  for (const std::string& note : enforce_sources(router.request_type, {"policy"}).notes)
    warnings.push_back(note + " (fallback plan)");
  decision.strategy = std::string(strategy);
  decision.route_reason = "analyst_plan_fallback:" + reason;
  decision.fell_back = true;
  decision.fallback_reason = std::string(label);
  decision.warnings = std::move(warnings);
  decision.guard_failures = std::move(guard_failures);
  metrics_.plan_selected(decision.plan);
  return decision;
}

}  // namespace planfirst::analyst
