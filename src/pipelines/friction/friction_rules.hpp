// FrictionRules is the data the friction pipeline reads from assets/friction/: the column roles
// data_discovery maps a contacts table onto (columns.json) and the four lenses with the drivers
// each looks for (lenses.json). Immutable after load(); threads may share one.
#pragma once

#include <string>
#include <vector>

#include "core/asset_store.hpp"
#include "core/json.hpp"
#include "core/result.hpp"

namespace planfirst::friction {

struct ColumnRole {
  std::string role;   // "contact_id", "timestamp", "channel", "reason", "summary", "handle_time", ...
  std::string title;  // "contact id": how an error names it
  bool required = false;
  bool free_text = false;          // may take the table's only free-text column left
  std::vector<std::string> names;  // normalized column names, best first
};

struct DriverRule {
  std::string id;                  // "app_login"
  std::string label;               // "App login failure"
  int ease = 5;                    // 1..10, a judgement recorded in the rules
  std::vector<std::string> match;  // lower-case phrases
};

struct Lens {
  std::string id;     // sub-agent id: "f1"
  std::string lens;   // "digital"
  std::string title;  // "Digital"
  std::vector<DriverRule> drivers;
};

struct FrictionRules {
  static constexpr const char* kColumnsAsset = "friction/columns.json";
  static constexpr const char* kLensesAsset = "friction/lenses.json";

  std::vector<ColumnRole> roles;
  std::vector<std::vector<std::string>> one_of;  // groups of roles of which one must map
  std::vector<std::string> true_values;          // a repeat flag's values that mean yes
  std::vector<std::string> resolved_values;      // a resolution's values that mean resolved
  std::vector<std::string> seconds_words;        // handle-time column name words meaning seconds
  std::vector<std::string> minutes_words;
  std::vector<Lens> lenses;

  const ColumnRole* role(std::string_view name) const;  // nullptr when absent
  const Lens* lens(std::string_view lens_name) const;   // by "digital"; nullptr when absent

  // kNotFound / kInvalidArgument naming the asset and the JSON pointer at fault.
  static core::Result<FrictionRules> load(const core::AssetStore& assets);
  static core::Result<FrictionRules> parse(const core::Json& columns, const core::Json& lenses);
};

}  // namespace planfirst::friction
