// read_plan turns an engine's EXPLAIN ANALYZE JSON into a PlanTree: PostgreSQL's
// EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) output ([{"Plan": ...}]) or DuckDB's JSON profile
// ({"children": [{"operator_type", "operator_cardinality", "operator_timing", ...}]}), told apart by
// their keys. Untrusted input: errors are kInvalidArgument naming the JSON pointer at fault.
#pragma once

#include <string_view>

#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/sqlopt/plan_tree.hpp"

namespace planfirst::sqlopt {

// A sentinel estimate above this (DuckDB reports 2^64-1 for "unknown") is clamped to it.
inline constexpr double kMaxEstimate = 1e15;

core::Result<PlanTree> read_plan(const core::Json& plan);

// The same from text; `where` (a file name) prefixes a JSON syntax error with its line and column.
core::Result<PlanTree> read_plan_text(std::string_view text, std::string_view where);

core::Result<PlanTree> read_postgres_plan(const core::Json& plan);
core::Result<PlanTree> read_duckdb_plan(const core::Json& plan);

}  // namespace planfirst::sqlopt
