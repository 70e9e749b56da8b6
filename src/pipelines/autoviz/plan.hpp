// Plan is the ordered list of tool steps the coverage checker gates and the executor runs; each
// step cites the requirements it satisfies ("analysis:total", "group_by", "outputs:chart"). Its
// fields are the plan_adaptation contract's (assets/contracts/plan_adaptation.schema.json):
// PlanAdaptation mirrors that contract exactly, and apply_adaptation turns a template's base plan
// plus those changes into the adapted plan (seed 002 §5). Values; copy and move freely.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/autoviz/param_value.hpp"

namespace planfirst::autoviz {
struct PlanTemplate;

struct PlanStep {
  std::string step_id;  // unique within the plan
  std::string tool;     // a tools.yaml name
  Params params;
  std::string rationale;
  std::vector<std::string> satisfies;  // requirement citations, contract pattern
  bool operator==(const PlanStep&) const = default;
};

struct Plan {
  std::vector<PlanStep> steps;  // run order

  // {"steps": [{"step_id", "tool", "params", "rationale", "satisfies"}, ...]}; kInvalidArgument
  // with the JSON pointer at fault, including a repeated step_id.
  static core::Result<Plan> from_json(const core::Json& json);
  core::Json to_json() const;
  const PlanStep* find(std::string_view step_id) const;  // nullptr when absent
  bool operator==(const Plan&) const = default;
};

enum class ChangeAction { kAdd, kRemove, kModify };
std::string_view to_string(ChangeAction action);  // "add", "remove", "modify"
std::optional<ChangeAction> parse_change_action(std::string_view text);

struct PlanChange {  // one item of the contract's "changes"
  ChangeAction action = ChangeAction::kAdd;
  std::string step_id;
  std::optional<std::string> tool;  // absent: add needs one; modify keeps the step's
  std::optional<Params> params;     // absent: untouched; modify overwrites the named keys only
  std::string rationale;
  std::vector<std::string> satisfies;
  bool operator==(const PlanChange&) const = default;
};

struct PlanAdaptation {
  std::vector<PlanChange> changes;

  static core::Result<PlanAdaptation> from_json(const core::Json& json);
  core::Json to_json() const;
  bool operator==(const PlanAdaptation&) const = default;
};

// The template's steps as a plan: step ids are the tool names ("plot_line", then "plot_line_2"),
// params empty, nothing cited yet; optional steps included.
Plan plan_from_template(const PlanTemplate& plan_template);

// `base` with `adaptation`'s changes applied in order: add appends a step, remove drops one,
// modify replaces tool, rationale and satisfies and overwrites the params it names.
// kInvalidArgument naming "/changes/<i>" for an add of an existing id or without a tool, and for a
// remove or modify of an absent id.
core::Result<Plan> apply_adaptation(Plan base, const PlanAdaptation& adaptation);

}  // namespace planfirst::autoviz
