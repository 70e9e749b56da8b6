// compare_results decides whether two query results are the same multiset of rows (seed §3: a
// rewrite counts only when it returns the same rows): columns by position, rows sorted, numbers to
// 9 significant digits, NULL, NaN and booleans as fixed tokens. Deterministic.
#pragma once

#include <string>
#include <vector>

#include "data/query_result.hpp"

namespace planfirst::sqlopt {

struct Equivalence {
  bool equal = false;
  std::string difference;  // the first difference in words; empty when equal
};

// One row as its canonical text: tokens joined by a unit separator.
std::vector<std::string> canonical_rows(const data::QueryResult& result);

Equivalence compare_results(const data::QueryResult& a, const data::QueryResult& b);

}  // namespace planfirst::sqlopt
