// ChartSpec is a chart described by its encodings, as NL2VIS benchmarks (nvBench) state a target:
// mark, x, y with its aggregate, the series (color) column, a bin on x, sort, limit and the row
// filters. chart_spec_of() reads the spec a plan's steps draw, so a plan can be scored against a
// benchmark's target without running it. A value type; copy freely.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/json.hpp"
#include "pipelines/autoviz/param_value.hpp"

namespace planfirst::autoviz {
struct Plan;

struct FilterAtom {    // one condition on one column
  std::string column;  // as spelled in the plan or the target
  std::string op;      // =, !=, >, >=, <, <=, in, not_in, between, not_between, contains, not_contains
  ParamValue value;    // a list for in, not_in and between
  bool operator==(const FilterAtom&) const = default;
};

struct ChartSort {
  std::string by;     // "x" or "y"
  std::string order;  // "asc" or "desc"
  bool operator==(const ChartSort&) const = default;
};

struct ChartSpec {
  std::string chart;  // bar, pie, line, scatter; empty when the plan draws none of them
  std::string x;
  std::string y;          // the aggregated column; "*" for a count of rows
  std::string aggregate;  // count, sum, avg, min, max, median; empty: y as it is
  bool distinct = false;  // count of distinct values
  std::string color;      // the series column; empty: one series
  std::string bin;        // year, month (of year), weekday, day, ...; empty: x as it is
  std::optional<ChartSort> sort;
  std::optional<std::int64_t> limit;
  std::vector<FilterAtom> filters;  // all must hold

  core::Json to_json() const;
};

// The spec drawn by the last plot step of `plan` and the steps before it (filter_rows,
// time_bucket, aggregate, sort_limit). Deterministic.
ChartSpec chart_spec_of(const Plan& plan);

}  // namespace planfirst::autoviz
