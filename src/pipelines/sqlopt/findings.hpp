// detect_findings names each problem a plan (and, when the SQL is known, its logic tree) shows and
// the transforms of the seed's catalog (§5a) that address it, citing the operators and the SQL span
// it comes from, leaving out what the engine's profile says its optimizer does itself. Deterministic: same
// inputs, same findings, in the same order.
#pragma once

#include <string>
#include <vector>

#include "core/json.hpp"
#include "pipelines/sqlopt/engine_profile.hpp"
#include "pipelines/sqlopt/logic_tree.hpp"
#include "pipelines/sqlopt/plan_tree.hpp"
#include "pipelines/sqlopt/qerror.hpp"

namespace planfirst::sqlopt {

// The 13 transform ids of seed §5a, in catalog order.
const std::vector<std::string>& transform_ids();
// "predicate_movement", "join_restructuring", "scan_optimization" or "structural"; "" when unknown.
std::string transform_category(const std::string& transform);

struct Finding {
  std::string transform;       // one of transform_ids()
  std::vector<int> operators;  // plan operator ids the finding rests on (may be empty)
  std::string evidence;        // what was seen, in words
  std::string sql_span;        // the SQL text the finding points at (may be empty)
  bool routed = false;         // named by the Q-error route of a misestimate, not seen in the SQL or plan

  core::Json to_json() const;  // {"transform", "operators", "evidence", "sql_span"}
};

// A problem the engine's optimizer solves itself (a strength of its profile): no finding, no rewrite.
struct LeftToOptimizer {
  std::string transform;
  std::string strength;  // the strength's id in the engine profile
  std::string claim;
  std::string node;  // the logic tree node ("subquery:1", "cte:totals")
  std::string sql_span;

  core::Json to_json() const;  // {"transform", "strength", "claim", "node", "sql_span"}
};

struct FindingsReport {
  std::vector<Finding> findings;
  std::vector<LeftToOptimizer> left_to_optimizer;
};

// `logic` may be empty (a plan read with --plan and no SQL). `profile` is the plan's engine's: its
// strengths suppress findings, its gates decide which are worth reporting.
FindingsReport detect_findings(const PlanTree& plan, const QErrorReport& qerror, const LogicTree& logic,
                               const EngineProfile& profile);

}  // namespace planfirst::sqlopt
