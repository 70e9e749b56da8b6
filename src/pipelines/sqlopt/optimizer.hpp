// optimize_query runs the whole loop of seed 004 offline: EXPLAIN ANALYZE -> Q-error and logic tree
// -> findings -> rule rewrites for the transforms found -> proof of each (same rows, timed, verdict,
// plan diff). A rewrite the engine profile's regression registry knows to regress on this plan's shape
// is not proposed. On PostgreSQL, B-tree index hypotheses are estimated with HypoPG when it is
// installed (suggestions, never WINs). "Do no harm": the best candidate is the fastest verified WIN, or none.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/sqlopt/analysis.hpp"
#include "pipelines/sqlopt/index_hypotheses.hpp"
#include "pipelines/sqlopt/rewrites.hpp"
#include "pipelines/sqlopt/sql_session.hpp"
#include "pipelines/sqlopt/validation.hpp"

namespace planfirst::sqlopt {

struct Candidate {
  Rewrite rewrite;
  Validation validation;

  // {"transform", "sql", "equivalent", "speedup", "verdict", "rule", "rationale", "plan_diff"}
  core::Json to_json() const;
};

// A rule rewrite not proposed because the engine profile's regression registry knows it regresses
// on a plan of this shape.
struct AvoidedRewrite {
  Rewrite rewrite;
  KnownRegression regression;

  core::Json to_json() const;  // {"transform", "rule", "regression", "shape", "example"}
};

struct Optimization {
  Analysis analysis;
  std::vector<AvoidedRewrite> avoided;
  std::vector<Candidate> candidates;
  std::optional<std::size_t> best;                  // index of the fastest WIN
  std::optional<IndexHypotheses> index_hypotheses;  // PostgreSQL only: HypoPG estimates

  // The analysis document with "candidates", "best", "regressions_avoided" and "index_hypotheses"
  // (null on DuckDB) filled.
  core::Json to_json() const;
  std::string to_text() const;
};

core::Result<Optimization> optimize_query(SqlSession& session, const std::string& sql,
                                          const SqlKnowledge& knowledge);

}  // namespace planfirst::sqlopt
