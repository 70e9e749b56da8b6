// parse_sql_filter reads the WHERE text of a benchmark's target query ("rank = 'AsstProf' AND
// salary < 50000") into filter atoms that must all hold. LIKE '%v%' becomes contains; an OR of one
// column's equalities becomes "in", of its contains a contains-any list, "c > a OR c < b" not_between.
// Anything else (other ORs, nesting, functions) is kInvalidArgument naming the offending text, never a guess.
#pragma once

#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "pipelines/autoviz/eval/chart_spec.hpp"

namespace planfirst::autoviz {

core::Result<std::vector<FilterAtom>> parse_sql_filter(std::string_view where);

}  // namespace planfirst::autoviz
