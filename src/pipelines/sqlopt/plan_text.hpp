// render_plan_tree draws a PlanTree as the ASCII tree of seed §2b: projections collapsed, "A of B
// rows" on scans, join type and condition, compact counts, each operator's share of the total time,
// cut at 150 lines with a marker saying how many were left out. Deterministic.
#pragma once

#include <string>

#include "pipelines/sqlopt/plan_tree.hpp"

namespace planfirst::sqlopt {

inline constexpr int kMaxPlanLines = 150;

std::string render_plan_tree(const PlanTree& plan, int max_lines = kMaxPlanLines);

// 950 -> "950", 1234 -> "1.2K", 4500000 -> "4.5M", 2e9 -> "2.0B".
std::string compact_count(double value);

}  // namespace planfirst::sqlopt
