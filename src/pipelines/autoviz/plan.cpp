#include "pipelines/autoviz/plan.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "pipelines/autoviz/json_fields.hpp"
#include "pipelines/autoviz/understand/template_registry.hpp"

namespace planfirst::autoviz {
namespace {

core::Result<PlanStep> step_from_json(const core::Json& json, const std::string& where) {
  if (core::Result<void> shape =
          check_object(json, where, {"step_id", "tool", "params", "rationale", "satisfies"});
      !shape) {
    return shape.error();
  }
  PlanStep step;
  for (auto [key, target] : {std::pair{"step_id", &step.step_id}, std::pair{"tool", &step.tool},
                             std::pair{"rationale", &step.rationale}}) {
    core::Result<std::string> text = string_field(json, key, where);
    if (!text) return text.error();
    *target = std::move(*text);
  }
  core::Result<Params> params = params_from_json(json["params"], where + "/params");
  if (!params) return params.error();
  step.params = std::move(*params);
  core::Result<std::vector<std::string>> satisfies = string_list_field(json, "satisfies", where);
  if (!satisfies) return satisfies.error();
  step.satisfies = std::move(*satisfies);
  return step;
}

core::Result<PlanChange> change_from_json(const core::Json& json, const std::string& where) {
  if (core::Result<void> shape =
          check_object(json, where, {"action", "step_id", "rationale", "satisfies"}, {"tool", "params"});
      !shape) {
    return shape.error();
  }
  PlanChange change;
  core::Result<std::string> action = string_field(json, "action", where);
  if (!action) return action.error();
  std::optional<ChangeAction> parsed = parse_change_action(*action);
  if (!parsed) return core::invalid_argument("action must be add, remove or modify", where + "/action");
  change.action = *parsed;
  for (auto [key, target] :
       {std::pair{"step_id", &change.step_id}, std::pair{"rationale", &change.rationale}}) {
    core::Result<std::string> text = string_field(json, key, where);
    if (!text) return text.error();
    *target = std::move(*text);
  }
  if (json.contains("tool")) {
    core::Result<std::string> tool = string_field(json, "tool", where);
    if (!tool) return tool.error();
    change.tool = std::move(*tool);
  }
  if (json.contains("params")) {
    core::Result<Params> params = params_from_json(json["params"], where + "/params");
    if (!params) return params.error();
    change.params = std::move(*params);
  }
  core::Result<std::vector<std::string>> satisfies = string_list_field(json, "satisfies", where);
  if (!satisfies) return satisfies.error();
  change.satisfies = std::move(*satisfies);
  return change;
}

}  // namespace

core::Result<Plan> Plan::from_json(const core::Json& json) {
  if (core::Result<void> shape = check_object(json, "", {"steps"}); !shape) return shape.error();
  if (!json["steps"].is_array()) return core::invalid_argument("expected a list of steps", "/steps");
  Plan plan;
  std::set<std::string, std::less<>> ids;
  for (std::size_t i = 0; i < json["steps"].size(); ++i) {
    const std::string where = "/steps/" + std::to_string(i);
    core::Result<PlanStep> step = step_from_json(json["steps"][i], where);
    if (!step) return step.error();
    if (!ids.insert(step->step_id).second) {
      return core::invalid_argument("step_id '" + step->step_id + "' is used twice", where + "/step_id");
    }
    plan.steps.push_back(std::move(*step));
  }
  return plan;
}

core::Json Plan::to_json() const {
  core::Json list = core::Json::array();
  for (const PlanStep& step : steps) {
    list.push_back({{"step_id", step.step_id},
                    {"tool", step.tool},
                    {"params", params_to_json(step.params)},
                    {"rationale", step.rationale},
                    {"satisfies", step.satisfies}});
  }
  return {{"steps", std::move(list)}};
}

const PlanStep* Plan::find(std::string_view step_id) const {
  auto it = std::ranges::find(steps, step_id, &PlanStep::step_id);
  return it == steps.end() ? nullptr : &*it;
}

std::string_view to_string(ChangeAction action) {
  switch (action) {
    case ChangeAction::kAdd: return "add";
    case ChangeAction::kRemove: return "remove";
    case ChangeAction::kModify: return "modify";
  }
  return "add";
}

std::optional<ChangeAction> parse_change_action(std::string_view text) {
  for (ChangeAction action : {ChangeAction::kAdd, ChangeAction::kRemove, ChangeAction::kModify}) {
    if (to_string(action) == text) return action;
  }
  return std::nullopt;
}

core::Result<PlanAdaptation> PlanAdaptation::from_json(const core::Json& json) {
  if (core::Result<void> shape = check_object(json, "", {"changes"}); !shape) return shape.error();
  if (!json["changes"].is_array()) return core::invalid_argument("expected a list of changes", "/changes");
  PlanAdaptation adaptation;
  for (std::size_t i = 0; i < json["changes"].size(); ++i) {
    core::Result<PlanChange> change = change_from_json(json["changes"][i], "/changes/" + std::to_string(i));
    if (!change) return change.error();
    adaptation.changes.push_back(std::move(*change));
  }
  return adaptation;
}

core::Json PlanAdaptation::to_json() const {
  core::Json list = core::Json::array();
  for (const PlanChange& change : changes) {
    core::Json item = {{"action", to_string(change.action)},
                       {"step_id", change.step_id},
                       {"rationale", change.rationale},
                       {"satisfies", change.satisfies}};
    if (change.tool) item["tool"] = *change.tool;
    if (change.params) item["params"] = params_to_json(*change.params);
    list.push_back(std::move(item));
  }
  return {{"changes", std::move(list)}};
}

Plan plan_from_template(const PlanTemplate& plan_template) {
  Plan plan;
  for (const TemplateStep& template_step : plan_template.steps) {
    PlanStep step;
    step.tool = template_step.tool;
    step.step_id = template_step.tool;
    for (int n = 2; plan.find(step.step_id) != nullptr; ++n)
      step.step_id = template_step.tool + "_" + std::to_string(n);
    plan.steps.push_back(std::move(step));
  }
  return plan;
}

core::Result<Plan> apply_adaptation(Plan base, const PlanAdaptation& adaptation) {
  for (std::size_t i = 0; i < adaptation.changes.size(); ++i) {
    const PlanChange& change = adaptation.changes[i];
    const std::string where = "/changes/" + std::to_string(i);
    auto it = std::ranges::find(base.steps, change.step_id, &PlanStep::step_id);
    if (change.action == ChangeAction::kAdd) {
      if (it != base.steps.end())
        return core::invalid_argument("step '" + change.step_id + "' already exists", where);
      if (!change.tool) return core::invalid_argument("an added step needs a tool", where);
      base.steps.push_back({change.step_id, *change.tool, change.params.value_or(Params{}), change.rationale,
                            change.satisfies});
      continue;
    }
    if (it == base.steps.end())
      return core::invalid_argument("no step '" + change.step_id + "' in the plan", where);
    if (change.action == ChangeAction::kRemove) {
      base.steps.erase(it);
      continue;
    }
    if (change.tool) it->tool = *change.tool;
    if (change.params) {
      for (const auto& [name, value] : *change.params) it->params.insert_or_assign(name, value);
    }
    it->rationale = change.rationale;
    it->satisfies = change.satisfies;
  }
  return base;
}

}  // namespace planfirst::autoviz
