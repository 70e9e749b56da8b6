// propose_rewrites applies the catalog's transforms that are safe by rule (seed §3a/§3b) to a query
// whose findings name them: decorrelation of scalar aggregate and EXISTS subqueries, single-pass
// aggregation, predicate pushdown into CTEs, UNION -> UNION ALL over provably disjoint branches. A
// rule rewrites only when every precondition holds (complete output, literals kept, no aggregation
// trap); otherwise it proposes nothing. Deterministic: same SQL and findings, same candidates.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "pipelines/sqlopt/findings.hpp"
#include "pipelines/sqlopt/logic_tree.hpp"

namespace planfirst::sqlopt {

// What the database says about its tables: columns whose values are unique (a one-column primary
// key or unique constraint), by table name.
struct SchemaFacts {
  std::map<std::string, std::set<std::string>> unique_columns;
};

struct Rewrite {
  std::string transform;  // the catalog id
  std::string rule;       // which rule made it ("scalar_aggregate_to_join", ...)
  std::string sql;        // the rewritten statement
  std::string rationale;  // why it is equivalent, in words
};

std::vector<Rewrite> propose_rewrites(const LogicTree& logic, const std::vector<Finding>& findings,
                                      const SchemaFacts& facts);

}  // namespace planfirst::sqlopt
