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
  return SqlKnowledge{std::move(*catalog), std::move(*routing)};
}

Analysis analyze_plan(PlanTree plan, LogicTree logic, const SqlKnowledge& knowledge) {
  Analysis analysis;
  analysis.qerror = analyze_qerror(plan, knowledge.catalog, knowledge.routing);
  analysis.findings = detect_findings(plan, analysis.qerror, logic);
  analysis.plan = std::move(plan);
  analysis.logic = std::move(logic);
  return analysis;
}

core::Json Analysis::to_json() const {
  core::Json tree = plan.to_json();
  tree["text"] = render_plan_tree(plan);
  core::Json findings_json = core::Json::array();
  for (const Finding& finding : findings) findings_json.push_back(finding.to_json());
  core::Json out = {{"engine", to_string(plan.engine)},  {"tree", std::move(tree)},
                    {"qerror", qerror.to_json()},        {"findings", std::move(findings_json)},
                    {"candidates", core::Json::array()}, {"best", nullptr}};
  if (!logic.empty()) out["logic_tree"] = logic.to_json();
  return out;
}

std::string Analysis::to_text() const {
  std::string out = "Plan:\n" + render_plan_tree(plan);
  out += "\nQ-error routing:\n" + qerror.to_prompt_text();
  if (!logic.empty()) out += "\nLogic tree:\n" + logic.to_text();
  out += "\nFindings:\n";
  if (findings.empty()) out += "  none\n";
  for (const Finding& finding : findings) {
    out += fmt::format("- {} ({}): {}", finding.transform, transform_category(finding.transform),
                       finding.evidence);
    if (!finding.operators.empty()) out += fmt::format(" [operators {}]", fmt::join(finding.operators, ", "));
    out += "\n";
  }
  return out;
}

}  // namespace planfirst::sqlopt
