// Analysis is what `planfirst sql analyze` reports for one query: its plan as the §2b tree, the
// Q-error report (§2b-i), the logic tree of its SQL (§2c, when the SQL is known), the findings and
// what the engine profile (§4) left to the optimizer. SqlKnowledge is the engine knowledge it reads
// from assets/sqlopt/. Deterministic.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/asset_store.hpp"
#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/sqlopt/engine_profile.hpp"
#include "pipelines/sqlopt/findings.hpp"
#include "pipelines/sqlopt/logic_tree.hpp"
#include "pipelines/sqlopt/operator_catalog.hpp"
#include "pipelines/sqlopt/plan_tree.hpp"
#include "pipelines/sqlopt/qerror.hpp"

namespace planfirst::sqlopt {

struct SqlKnowledge {
  OperatorCatalog catalog;
  QErrorRouting routing;
  EngineProfiles profiles;

  static core::Result<SqlKnowledge> load(const core::AssetStore& assets);
};

struct Analysis {
  PlanTree plan;
  QErrorReport qerror;
  LogicTree logic;  // empty when only a plan was given
  std::vector<Finding> findings;
  std::vector<LeftToOptimizer> left_to_optimizer;
  EngineProfile profile;                       // of the plan's engine
  std::optional<std::string> running_version;  // the database's, when one was asked

  // {"engine", "engine_profile", "tree": {"text", "total_ms", "nodes"}, "qerror", "logic_tree"?,
  //  "findings", "left_to_optimizer", "candidates": [], "best": null}; optimize fills candidates and
  //  best. A finding of a documented gap (gap_of) carries "engine_gap".
  core::Json to_json() const;
  std::string to_text() const;
  // "Engine profile: ..." with the version check, one line (two when the versions differ).
  std::string profile_text() const;
  // The documented gap `finding` is an instance of: its transform's, unless only a Q-error route
  // named the finding (the gap's shape was then never seen).
  const Gap* gap_of(const Finding& finding) const;
};

// `running_version`: what the database reports (SqlSession::server_version), none for a plan file.
Analysis analyze_plan(PlanTree plan, LogicTree logic, const SqlKnowledge& knowledge,
                      std::optional<std::string> running_version = std::nullopt);

}  // namespace planfirst::sqlopt
