// contract_labels reads a closed label set (a JSON Schema "enum") out of a shipped contract, so the
// registries check their keys against the contract itself instead of a copy in code: the intent
// contract's "primary" values, the requirements contract's analysis and outputs labels.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/asset_store.hpp"
#include "core/result.hpp"

namespace planfirst::autoviz {

// The "enum" found at `pointer` (e.g. "/properties/primary") in assets `contract_path`, in the
// contract's order. kNotFound when the file is absent; kInvalidArgument naming file and pointer when
// there is no list of strings there.
core::Result<std::vector<std::string>> contract_labels(const core::AssetStore& assets,
                                                       std::string_view contract_path,
                                                       std::string_view pointer);

inline constexpr std::string_view kIntentContract = "contracts/intent.schema.json";
inline constexpr std::string_view kIntentPointer = "/properties/primary";
inline constexpr std::string_view kRequirementsContract = "contracts/requirements.schema.json";
inline constexpr std::string_view kRequirementsOutputsPointer = "/properties/outputs/items";

}  // namespace planfirst::autoviz
