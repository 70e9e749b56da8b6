// ContractRegistry holds every contract shipped in assets/contracts/ (<name>.schema.json), each
// compiled once with its built-in rules, and the role table (roles.json) naming the contract each
// role's output must meet. Immutable after load(); threads may share one.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "contracts/contract.hpp"
#include "contracts/validation_report.hpp"
#include "core/asset_store.hpp"
#include "core/json.hpp"
#include "core/result.hpp"

namespace planfirst::contracts {

class ContractRegistry {
 public:
  // Reads and compiles every contracts/*.schema.json and contracts/roles.json from `assets` (an
  // override folder may replace any of them). kInvalidArgument naming the file at fault.
  static core::Result<ContractRegistry> load(const core::AssetStore& assets);

  std::vector<std::string> names() const;             // sorted
  const Contract* find(std::string_view name) const;  // nullptr when absent
  // kNotFound with the known names when absent.
  core::Result<const Contract*> get(std::string_view name) const;
  // Where the contract was read from: an override file or "builtin:contracts/<name>.schema.json".
  std::string origin(std::string_view name) const;

  std::vector<std::string> roles() const;  // sorted, e.g. "ANALYST"
  // The contract of `role`'s output; kNotFound with the known roles when the role is unknown.
  core::Result<const Contract*> for_role(std::string_view role) const;

 private:
  std::map<std::string, Contract, std::less<>> contracts_;
  std::map<std::string, std::string, std::less<>> origins_;
  std::map<std::string, std::string, std::less<>> roles_;  // role -> contract name
};

// Seed 000's output guard: validates a role's parsed output against the role's contract (role
// "ANALYST" -> analyst_plan). kNotFound for an unknown role; otherwise the report, valid or not.
core::Result<ValidationReport> validate_role_output(const ContractRegistry& registry, std::string_view role,
                                                    const core::Json& output);

}  // namespace planfirst::contracts
