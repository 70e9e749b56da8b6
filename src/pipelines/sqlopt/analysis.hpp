// Analysis is what `planfirst sql analyze` reports for one query: its plan as the §2b tree, the
// Q-error report (§2b-i), the logic tree of its SQL (§2c, when the SQL is known) and the findings.
// SqlKnowledge is the engine knowledge it reads from assets/sqlopt/. Deterministic.
#pragma once

#include <string>
#include <vector>

#include "core/asset_store.hpp"
#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/sqlopt/findings.hpp"
#include "pipelines/sqlopt/logic_tree.hpp"
#include "pipelines/sqlopt/operator_catalog.hpp"
#include "pipelines/sqlopt/plan_tree.hpp"
#include "pipelines/sqlopt/qerror.hpp"

namespace planfirst::sqlopt {

struct SqlKnowledge {
  OperatorCatalog catalog;
  QErrorRouting routing;

  static core::Result<SqlKnowledge> load(const core::AssetStore& assets);
};

struct Analysis {
  PlanTree plan;
  QErrorReport qerror;
  LogicTree logic;  // empty when only a plan was given
  std::vector<Finding> findings;

  // {"engine", "tree": {"text", "total_ms", "nodes"}, "qerror", "logic_tree"?, "findings",
  //  "candidates": [], "best": null}; optimize fills candidates and best.
  core::Json to_json() const;
  std::string to_text() const;
};

Analysis analyze_plan(PlanTree plan, LogicTree logic, const SqlKnowledge& knowledge);

}  // namespace planfirst::sqlopt
