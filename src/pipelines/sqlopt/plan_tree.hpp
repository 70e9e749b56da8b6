// PlanTree is one EXPLAIN ANALYZE plan as planfirst reads it, the same shape for DuckDB and
// PostgreSQL: operators with estimated and actual rows (totals over all loops), loops, inclusive and
// exclusive time, and what the engine says about each. A value type; threads may share one.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/json.hpp"

namespace planfirst::sqlopt {

enum class Engine { kDuckDb, kPostgres };

// "duckdb", "postgresql".
std::string to_string(Engine engine);

struct PlanNode {
  int id = 0;                          // preorder index, 0 = root
  std::string op;                      // the engine's operator name ("HASH_JOIN", "Nested Loop")
  std::optional<double> est_rows;      // the optimizer's estimate over all loops; none = no signal
  std::optional<double> actual_rows;   // rows produced over all loops; none = never executed
  bool est_clamped = false;            // a sentinel estimate (2^64-style) was clamped
  double loops = 1;                    // PostgreSQL's Actual Loops; 1 for DuckDB
  double inclusive_ms = 0;             // this operator and everything below it
  double exclusive_ms = 0;             // this operator alone
  std::string table;                   // relation scanned, if any
  std::string filter;                  // filter applied here
  std::string join_type;               // "Inner", "SEMI", ...
  std::string join_condition;          // hash/merge/join condition
  std::optional<double> rows_removed;  // rows removed by filter (and join filter), over all loops
  std::string sort_method;             // "external merge", "quicksort"
  bool sort_spilled = false;           // sort space type "Disk" or an external sort
  std::optional<double> hash_batches;  // PostgreSQL Hash Batches
  std::optional<double> workers;       // workers launched (or planned)
  std::optional<double> shared_hit_blocks;
  std::optional<double> shared_read_blocks;
  std::optional<double> temp_blocks;  // temp read + written
  std::string relationship;           // PostgreSQL Parent Relationship ("SubPlan", "InitPlan", ...)
  std::string subplan_name;           // "SubPlan 1", "CTE totals"
  std::string cte_name;               // CTE scanned
  bool parallel = false;              // runs in a parallel worker
  std::vector<int> children;          // ids of the children, in plan order
  int parent = -1;
};

struct PlanTree {
  Engine engine = Engine::kDuckDb;
  std::vector<PlanNode> nodes;  // preorder; nodes[0] is the root
  double total_ms = 0;          // execution time the engine reports (or the root's inclusive time)

  bool empty() const { return nodes.empty(); }
  const PlanNode& root() const { return nodes.front(); }
  // The tree as JSON: {"engine", "total_ms", "nodes": [{"id", "operator", ...}]}, stable keys.
  core::Json to_json() const;
};

}  // namespace planfirst::sqlopt
