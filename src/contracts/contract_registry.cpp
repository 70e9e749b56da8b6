#include "contracts/contract_registry.hpp"

#include <nlohmann/json.hpp>

#include "core/join.hpp"

namespace planfirst::contracts {
namespace {

constexpr std::string_view kContractsDir = "contracts/";
constexpr std::string_view kSchemaSuffix = ".schema.json";
constexpr std::string_view kRolesPath = "contracts/roles.json";

}  // namespace

core::Result<ContractRegistry> ContractRegistry::load(const core::AssetStore& assets) {
  ContractRegistry registry;
  for (const std::string& path : assets.list(kContractsDir)) {
    if (!path.ends_with(kSchemaSuffix)) continue;
    std::string name =
        path.substr(kContractsDir.size(), path.size() - kContractsDir.size() - kSchemaSuffix.size());
    core::Result<std::string> text = assets.read(path);
    if (!text) return text.error();
    core::Result<Contract> contract = Contract::compile(name, *text, builtin_rules(name));
    if (!contract) return core::invalid_argument(contract.error().message, assets.origin(path));
    registry.origins_.emplace(name, assets.origin(path));
    registry.contracts_.emplace(std::move(name), std::move(*contract));
  }

  core::Result<std::string> roles_text = assets.read(kRolesPath);
  if (!roles_text) return roles_text.error();
  core::Json roles;
  try {
    roles = core::Json::parse(*roles_text);
  } catch (const std::exception& e) {
    return core::invalid_argument(std::string("roles are not JSON: ") + e.what(), assets.origin(kRolesPath));
  }
  if (!roles.is_object() || !roles.contains("roles") || !roles["roles"].is_object()) {
    return core::invalid_argument("expected {\"roles\": {\"ROLE\": \"contract_name\", ...}}",
                                  assets.origin(kRolesPath));
  }
  for (const auto& [role, contract] : roles["roles"].items()) {
    if (!contract.is_string() || !registry.contracts_.contains(contract.get<std::string>())) {
      return core::invalid_argument(
          "role " + role + " names no known contract (known: " + core::join(registry.names()) + ")",
          assets.origin(kRolesPath));
    }
    registry.roles_.emplace(role, contract.get<std::string>());
  }
  return registry;
}

std::vector<std::string> ContractRegistry::names() const {
  std::vector<std::string> names;
  for (const auto& [name, unused] : contracts_) names.push_back(name);
  return names;
}

const Contract* ContractRegistry::find(std::string_view name) const {
  auto it = contracts_.find(name);
  return it == contracts_.end() ? nullptr : &it->second;
}

core::Result<const Contract*> ContractRegistry::get(std::string_view name) const {
  if (const Contract* contract = find(name)) return contract;
  return core::not_found("unknown contract '" + std::string(name) +
                         "'; known contracts: " + core::join(names()));
}

std::string ContractRegistry::origin(std::string_view name) const {
  auto it = origins_.find(name);
  return it == origins_.end() ? std::string() : it->second;
}

std::vector<std::string> ContractRegistry::roles() const {
  std::vector<std::string> roles;
  for (const auto& [role, unused] : roles_) roles.push_back(role);
  return roles;
}

core::Result<const Contract*> ContractRegistry::for_role(std::string_view role) const {
  auto it = roles_.find(role);
  if (it == roles_.end()) {
    return core::not_found("unknown role '" + std::string(role) + "'; known roles: " + core::join(roles()));
  }
  return get(it->second);
}

core::Result<ValidationReport> validate_role_output(const ContractRegistry& registry, std::string_view role,
                                                    const core::Json& output) {
  core::Result<const Contract*> contract = registry.for_role(role);
  if (!contract) return contract.error();
  return (*contract)->validate(output);
}

}  // namespace planfirst::contracts
