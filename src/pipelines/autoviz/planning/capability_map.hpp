// CapabilityMap is the versioned registry of seed 002 §2 and §6 (assets/autoviz/capabilities.yaml):
// the capabilities a tool may declare, aliases for names that drifted, and for each requirement
// label (e.g. "analysis:trend", "group_by") the capabilities that satisfy it, many-to-many. A
// label the file does not map falls back to the minimal core set, so an incomplete registry weakens
// the check instead of failing every plan; the CI test keeps that fallback unused. Immutable after
// load(); threads may share one.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/asset_store.hpp"
#include "core/result.hpp"

namespace planfirst::autoviz {

struct CapabilityRule {  // how one requirement label is satisfied
  // Every group must be met by some step, each group by any one of its capabilities: seed §2's
  // "time -> parse_datetime and a time-aware plot or features" is two groups.
  std::vector<std::vector<std::string>> all_of;
  // True when the covering step must also name the requirement's column in its params
  // ("group_by: aggregate or segment with group_by params").
  bool names_column = false;
  bool core_fallback = false;  // true when the label has no rule of its own and the core set stands in
};

class CapabilityMap {
 public:
  static constexpr std::string_view kPath = "autoviz/capabilities.yaml";

  // Reads kPath from `assets`. kInvalidArgument with "<origin>:<line>" naming the key at fault: an
  // alias or rule naming an unknown capability, an alias chain, an empty rule.
  static core::Result<CapabilityMap> load(const core::AssetStore& assets);

  int version() const { return version_; }
  // Every known capability, sorted (aliases excluded).
  std::vector<std::string> capabilities() const;
  // The canonical name of `capability` (an alias resolved), or nullopt when it is unknown.
  std::optional<std::string> canonical(std::string_view capability) const;
  const std::vector<std::string>& core_set() const { return core_; }
  // Labels with a rule of their own, sorted.
  std::vector<std::string> labels() const;
  // The rule for `label`, or the core-set fallback when the file maps no such label.
  CapabilityRule rule_for(std::string_view label) const;

 private:
  int version_ = 0;
  std::map<std::string, std::string, std::less<>> known_;  // capability -> canonical (itself or alias target)
  std::map<std::string, CapabilityRule, std::less<>> rules_;  // label -> rule, capabilities canonical
  std::vector<std::string> core_;
};

}  // namespace planfirst::autoviz
