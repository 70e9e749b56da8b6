// validate_rewrite is the proof of seed §3: a rewrite B of query A counts only when it returns the
// same multiset of rows and is measurably faster. Timing: 1 warm-up and 5 runs of each query, one
// after the other (never concurrently), median; verdict WIN at >= 1.10x, REGRESSION below 0.95x,
// else NEUTRAL. With it, the plan diff: operators that disappeared or appeared, rows and time per
// operator before and after.
#pragma once

#include <string>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/sqlopt/plan_tree.hpp"
#include "pipelines/sqlopt/result_equivalence.hpp"
#include "pipelines/sqlopt/sql_session.hpp"

namespace planfirst::sqlopt {

inline constexpr double kWinSpeedup = 1.10;
inline constexpr double kRegressionSpeedup = 0.95;
inline constexpr int kWarmupRuns = 1;
inline constexpr int kTimedRuns = 5;

enum class Verdict { kWin, kNeutral, kRegression, kNotEquivalent };
std::string to_string(Verdict verdict);  // "WIN", "NEUTRAL", "REGRESSION", "NOT_EQUIVALENT"
Verdict verdict_for(double speedup);

struct OperatorLine {
  std::string op;
  std::string table;
  double rows = 0;
  double ms = 0;
};

struct PlanDiff {
  std::vector<std::string> disappeared;  // operator names in A and not in B (with multiplicity), sorted
  std::vector<std::string> appeared;     // in B and not in A, sorted
  std::vector<OperatorLine> before;      // A's operators in plan order (projections left out)
  std::vector<OperatorLine> after;
  double before_ms = 0;
  double after_ms = 0;

  core::Json to_json() const;
  std::string to_text() const;  // two columns, before | after
};

PlanDiff diff_plans(const PlanTree& before, const PlanTree& after);

struct Validation {
  Equivalence equivalence;
  std::vector<double> runs_a_ms;  // the timed runs, warm-up left out
  std::vector<double> runs_b_ms;
  double median_a_ms = 0;
  double median_b_ms = 0;
  double speedup = 0;  // median A / median B; 0 when not timed (not equivalent)
  Verdict verdict = Verdict::kNotEquivalent;
  PlanDiff diff;

  core::Json to_json() const;
};

double median(std::vector<double> values);

// What rewrites of query A are measured against: A's rows and plan, and A's timed runs once a
// rewrite returned the same rows. Measured once however many rewrites are proved against it.
struct Baseline {
  std::string sql;
  data::QueryResult rows;
  PlanTree plan;
  std::vector<double> runs_ms;  // empty until first needed
};

// A's rows, and its plan unless `plan` is given (an EXPLAIN ANALYZE of `a` already collected).
core::Result<Baseline> measure_baseline(SqlSession& session, const std::string& a,
                                        const PlanTree* plan = nullptr);

// Proves `b` against `baseline`, timing A on the first call that needs it.
core::Result<Validation> validate_against(SqlSession& session, Baseline& baseline, const std::string& b);

// Runs both queries through `session` (each checked as a single SELECT first).
core::Result<Validation> validate_rewrite(SqlSession& session, const std::string& a, const std::string& b);

}  // namespace planfirst::sqlopt
