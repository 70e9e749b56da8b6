// A ContractRule is a named cross-field check that the contract's JSON Schema does not state (e.g.
// "STATUS_* requests need db"). A Contract runs its rules after the schema and reports what they
// find like schema errors, with the rule's name as the keyword. Rules are stateless and defensive:
// they see values that may already break the schema.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "contracts/validation_report.hpp"
#include "core/json.hpp"

namespace planfirst::contracts {

struct ContractRule {
  std::string name;         // snake_case, reported as Violation::keyword
  std::string description;  // one line, shown by `planfirst contract show`
  // Appends one Violation per offence; `keyword` may be left empty (the contract fills in `name`).
  void (*check)(const core::Json& value, std::vector<Violation>& out) = nullptr;
};

// The rules registered for a shipped contract (analyst_plan, requirements, plan_adaptation,
// node_delta, analytics_state); none for any other name.
std::vector<ContractRule> builtin_rules(std::string_view contract_name);

}  // namespace planfirst::contracts
