// Index hypotheses on PostgreSQL with HypoPG: B-tree candidates read off a plan
// (a Seq Scan whose filter removes most of what it reads, a Nested Loop probing
// a Seq Scan, a Sort feeding a Merge Join), each created hypothetically inside
// the session's READ ONLY transaction, the query EXPLAINed (without ANALYZE)
// again, and all of them reset before the transaction ends. Planner estimates,
// never measurements; never DDL: without the extension it says so and proposes
// nothing.
#pragma once

#include <string>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/sqlopt/plan_tree.hpp"
#include "pipelines/sqlopt/sql_session.hpp"

namespace planfirst::sqlopt {

struct IndexCandidate {
  std::string table;
  std::vector<std::string> columns;  // equality columns first
  std::string reason;                // the plan operator that suggests it, in words

  std::string statement() const;  // CREATE INDEX ON "table" ("c1", "c2")
};

// A PostgreSQL plan's candidates, one per table and column list, in plan order.
// Needs the column names the VERBOSE plan qualifies with the scan's alias.
// Deterministic.
std::vector<IndexCandidate> index_candidates(const PlanTree &plan);

struct IndexHypothesis {
  IndexCandidate candidate;
  double cost_before = 0;  // the planner's total cost of the query without the index
  double cost_after = 0;   // with the hypothetical index alone
  bool used = false;       // the plan with it names the index
};

struct IndexHypotheses {
  bool available = false;  // HypoPG is installed in the database
  std::string note;        // why there is none, when there is none
  std::vector<IndexHypothesis> indexes;

  core::Json to_json() const;  // {"available", "note", "indexes": [{..., "estimated": true}]}
  std::string to_text() const;
};

inline constexpr const char *kNoHypoPg = "HypoPG is not installed in this database; no index hypotheses";

// Runs on PostgreSQL only (kFailedPrecondition otherwise); `sql` is checked as
// a single SELECT.
core::Result<IndexHypotheses> hypothesize_indexes(SqlSession &session, const std::string &sql,
                                                  const PlanTree &plan);

}  // namespace planfirst::sqlopt
