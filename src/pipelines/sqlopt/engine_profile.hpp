// EngineProfile is what planfirst knows about one engine's optimizer (seed §4), read from
// assets/sqlopt/engine_profiles.json: the version profiled, its strengths (transforms it already does
// itself, so no rewrite is proposed for them), its gaps (where a rule rewrite was measured to win),
// the decision gates of the findings, and the registry of rewrites known to regress. Immutable.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/asset_store.hpp"
#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/sqlopt/logic_tree.hpp"
#include "pipelines/sqlopt/plan_tree.hpp"

namespace planfirst::sqlopt {

// A transform the optimizer does itself. A strength with `sublinks` covers a correlated WHERE
// subquery of one of those kinds that is a top-level AND operand; one with `max_cte_references`
// covers a CTE named at most that often; one with neither only ranks its transform last among the
// Q-error routes.
struct Strength {
  std::string id;
  std::string transform;
  std::string claim;
  std::vector<std::string> sublinks;
  int max_cte_references = 0;

  bool covers(const LogicNode& node) const;
};

// A transform whose rule rewrite won on this engine, shown on the query `example` (of
// examples/sqlopt/) with the rule `rule`.
struct Gap {
  std::string id;
  std::string transform;
  std::string rule;
  std::string shape;
  std::string example;
};

// When a finding is worth reporting at all.
struct DecisionGates {
  double route_min_actual_rows = 0;       // the Q-error route's operator produced at least this many rows
  double late_binding_min_sort_rows = 0;  // rows entering the ORDER BY ... LIMIT sort
  int single_pass_min_subqueries = 2;     // scalar aggregate subqueries over one table
};

// A rewrite rule measured to regress on this engine, for plans where the correlated subquery ran
// at most `max_subplan_loops` times. `measured_speedup` and `command` are the evidence.
struct KnownRegression {
  std::string id;
  std::string rule;
  std::string shape;
  double max_subplan_loops = 0;
  std::string example;
  double measured_speedup = 0;
  std::string command;

  // Whether `plan` is of this shape: some SubPlan root ran at least once and at most
  // `max_subplan_loops` times.
  bool matches(const PlanTree& plan) const;
};

struct EngineProfile {
  Engine engine = Engine::kDuckDb;
  std::string version;         // the version family profiled: "15", "1.4"
  std::string version_tested;  // the exact version the entries were verified on
  std::vector<Strength> strengths;
  std::vector<Gap> gaps;
  DecisionGates gates;
  std::vector<KnownRegression> regressions;

  // Seed §7c: no documented gap means discovery mode.
  bool discovery_mode() const { return gaps.empty(); }
  const Strength* strength_covering(const std::string& transform, const LogicNode& node) const;
  bool is_strength(const std::string& transform) const;  // any strength of that transform
  const Gap* gap_for(const std::string& transform) const;
  // The first known regression of `rule` whose shape `plan` has, or null.
  const KnownRegression* regression_for(const std::string& rule, const PlanTree& plan) const;
  // Whether `running` ("15.18 (Debian ...)", "v1.4.4") is of the profiled family.
  bool matches_version(const std::string& running) const;
};

class EngineProfiles {
 public:
  static core::Result<EngineProfiles> load(const core::AssetStore& assets);
  // kInvalidArgument naming the JSON pointer of the first field at fault.
  static core::Result<EngineProfiles> from_json(const core::Json& json);

  const EngineProfile& of(Engine engine) const { return engine == Engine::kDuckDb ? duckdb_ : postgres_; }

 private:
  EngineProfile duckdb_;
  EngineProfile postgres_;
};

// "v1.4.4" -> "1.4.4"; "15.18 (Debian 15.18-0+deb12u1)" -> "15.18".
std::string bare_version(const std::string& running);

}  // namespace planfirst::sqlopt
