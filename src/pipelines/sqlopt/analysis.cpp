#include "pipelines/sqlopt/analysis.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "pipelines/sqlopt/plan_text.hpp"

namespace planfirst::sqlopt {

core::Result<SqlKnowledge> SqlKnowledge::load(const core::AssetStore& assets) {
  core::Result<OperatorCatalog> catalog = OperatorCatalog::load(assets);
  if (!catalog) return catalog.error();
  core::Result<QErrorRouting> routing = QErrorRouting::load(assets);
  if (!routing) return routing.error();
  core::Result<EngineProfiles> profiles = EngineProfiles::load(assets);
  if (!profiles) return profiles.error();
  return SqlKnowledge{std::move(*catalog), std::move(*routing), std::move(*profiles)};
}

Analysis analyze_plan(PlanTree plan, LogicTree logic, const SqlKnowledge& knowledge,
                      std::optional<std::string> running_version) {
  Analysis analysis;
  analysis.profile = knowledge.profiles.of(plan.engine);
  analysis.running_version = std::move(running_version);
  analysis.qerror = analyze_qerror(plan, knowledge.catalog, knowledge.routing);
  FindingsReport report = detect_findings(plan, analysis.qerror, logic, analysis.profile);
  analysis.findings = std::move(report.findings);
  analysis.left_to_optimizer = std::move(report.left_to_optimizer);
  analysis.plan = std::move(plan);
  analysis.logic = std::move(logic);
  return analysis;
}

core::Json Analysis::to_json() const {
  core::Json tree = plan.to_json();
  tree["text"] = render_plan_tree(plan);
  core::Json findings_json = core::Json::array();
  for (const Finding& finding : findings) {
    core::Json item = finding.to_json();
    if (const Gap* gap = gap_of(finding))
      item["engine_gap"] = {{"id", gap->id}, {"shape", gap->shape}, {"example", gap->example}};
    findings_json.push_back(std::move(item));
  }
  core::Json left = core::Json::array();
  for (const LeftToOptimizer& item : left_to_optimizer) left.push_back(item.to_json());
  core::Json engine_profile = {{"version", profile.version},
                               {"version_tested", profile.version_tested},
                               {"running_version", running_version ? core::Json(*running_version) : nullptr},
                               {"discovery_mode", profile.discovery_mode()}};
  if (running_version) engine_profile["version_matches"] = profile.matches_version(*running_version);
  core::Json out = {{"engine", to_string(plan.engine)},
                    {"engine_profile", std::move(engine_profile)},
                    {"tree", std::move(tree)},
                    {"qerror", qerror.to_json()},
                    {"findings", std::move(findings_json)},
                    {"left_to_optimizer", std::move(left)},
                    {"candidates", core::Json::array()},
                    {"best", nullptr}};
  if (!logic.empty()) out["logic_tree"] = logic.to_json();
  return out;
}

const Gap* Analysis::gap_of(const Finding& finding) const {
  return finding.routed ? nullptr : profile.gap_for(finding.transform);
}

std::string Analysis::profile_text() const {
  const std::string name = plan.engine == Engine::kDuckDb ? "DuckDB" : "PostgreSQL";
  std::string out = fmt::format("Engine profile: {} {} (entries verified on {})", name, profile.version,
                                profile.version_tested);
  if (running_version) out += fmt::format("; this database runs {}", bare_version(*running_version));
  if (profile.discovery_mode()) out += "; no documented gaps: discovery mode";
  out += "\n";
  if (running_version && !profile.matches_version(*running_version))
    out += fmt::format(
        "Note: the running version {} differs from the profiled {} {}: its strengths, gaps and known "
        "regressions may not hold here.\n",
        bare_version(*running_version), name, profile.version);
  return out;
}

std::string Analysis::to_text() const {
  std::string out = profile_text() + "Plan:\n" + render_plan_tree(plan);
  out += "\nQ-error routing:\n" + qerror.to_prompt_text();
  if (!logic.empty()) out += "\nLogic tree:\n" + logic.to_text();
  out += "\nFindings:\n";
  if (findings.empty()) out += "  none\n";
  for (const Finding& finding : findings) {
    out += fmt::format("- {} ({}): {}", finding.transform, transform_category(finding.transform),
                       finding.evidence);
    if (!finding.operators.empty()) out += fmt::format(" [operators {}]", fmt::join(finding.operators, ", "));
    if (const Gap* gap = gap_of(finding)) out += fmt::format("\n  known gap {}: {}", gap->id, gap->shape);
    out += "\n";
  }
  for (const LeftToOptimizer& item : left_to_optimizer)
    out += fmt::format("- left to the optimizer: {} of {} (strength {}: {})\n", item.transform, item.node,
                       item.strength, item.claim);
  return out;
}

}  // namespace planfirst::sqlopt
