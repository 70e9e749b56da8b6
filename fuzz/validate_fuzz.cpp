// Fuzzes Contract::validate with arbitrary JSON against the analyst_plan and requirements contracts:
// it must never crash or throw, must report the same violations twice, and every violation must
// carry a keyword, a message and a pointer that is empty or starts with '/'.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "contracts/contract_registry.hpp"
#include "core/asset_store.hpp"

namespace {

const planfirst::contracts::ContractRegistry& registry() {
  static const planfirst::contracts::ContractRegistry kRegistry = [] {
    auto loaded = planfirst::contracts::ContractRegistry::load(planfirst::core::AssetStore());
    if (!loaded) __builtin_trap();
    return std::move(*loaded);
  }();
  return kRegistry;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const nlohmann::json value = nlohmann::json::parse(data, data + size, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) return 0;
  for (const char* name : {"analyst_plan", "requirements"}) {
    const planfirst::contracts::Contract* contract = registry().find(name);
    if (!contract) __builtin_trap();
    const auto first = contract->validate(value);
    const auto second = contract->validate(value);
    if (first.describe() != second.describe()) __builtin_trap();
    for (const auto& violation : first.violations()) {
      if (violation.keyword.empty() || violation.message.empty()) __builtin_trap();
      if (!violation.pointer.empty() && violation.pointer.front() != '/') __builtin_trap();
    }
    if (!first.ok() && first.error().message.empty()) __builtin_trap();
  }
  return 0;
}
