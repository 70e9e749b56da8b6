// CoverageChecker decides whether a plan covers every requirement and whether every step cites
// one. The deterministic gate of seed 002 §6: same requirements, plan, capability map and tool
// registry, same report, byte for byte. A requirement is covered when some step's tool declares a
// capability its rule maps it to (for every group of an all_of rule), and, for rules on a column
// (group_by, time, metrics, filters, sort), when that step's params name the column. A step is
// justified when its `satisfies` cites a requirement that exists. Immutable after construction;
// threads may share one.
#pragma once

#include <string>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"

namespace planfirst::autoviz {
class CapabilityMap;
class ToolRegistry;
struct Plan;
struct Requirements;

struct CoverageLine {  // one requirement and the steps that cover it, e.g. "time=date" by parse_datetime +
                       // plot_line
  std::string requirement;  // "<field>=<value>": "analysis=total", "group_by=region", "constraints=limit:5"
  std::vector<std::string> steps;  // ids of the covering steps, plan order
  bool covered = false;
};

// What a plan lacks. Requirement lists follow the requirements' own order (metrics, group_by, time,
// analysis, outputs, constraints, each as listed) and step lists are sorted, so reports compare stably.
struct CoverageReport {
  std::vector<CoverageLine> lines;         // every requirement
  std::vector<std::string> missing;        // requirements no step satisfies, e.g. "group_by=region"
  std::vector<std::string> unjustified;    // ids of steps that satisfy no requirement
  std::vector<std::string> unknown_tools;  // ids of steps whose tool is not in the registry
  std::vector<std::string> unmapped;       // labels checked through the core set: warn, re-extract
  bool complete() const { return missing.empty() && unjustified.empty() && unknown_tools.empty(); }
  // "Missing coverage: group_by=[region, product_category]", "Remove unjustified steps: s5", one
  // line each, sent back to the plan adapter; empty when complete.
  std::string retry_payload() const;
  // One line per requirement, "group_by=region -> aggregate (OK)" or "... -> (MISSING)", then the
  // retry payload's lines.
  std::string describe() const;
  // {"complete", "lines": [{"requirement", "steps", "covered"}], "missing", "unjustified",
  // "unknown_tools", "unmapped", "retry_payload"}
  core::Json to_json() const;
  // The inverse of to_json() ("complete" and "retry_payload" are derived, so read past);
  // kInvalidArgument with the JSON pointer at fault.
  static core::Result<CoverageReport> from_json(const core::Json& json);
};

class CoverageChecker {
 public:
  // REQUIRES: `capabilities` and `tools` outlive the checker.
  CoverageChecker(const CapabilityMap& capabilities, const ToolRegistry& tools)
      : capabilities_(capabilities), tools_(tools) {}
  CoverageReport check(const Requirements& requirements, const Plan& plan) const;

 private:
  const CapabilityMap& capabilities_;
  const ToolRegistry& tools_;
};

}  // namespace planfirst::autoviz
