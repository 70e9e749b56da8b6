// Requirements is what the user asked for (seed 002 §2), field for field the requirements contract
// (assets/contracts/requirements.schema.json): metrics, group_by, time {column, grain}, analysis,
// outputs, constraints (filter, sort, limit). Empty lists, a null column and grain "unknown" mean
// "not mentioned". Labels stay strings spelled as the contract spells them; validate a model's
// output against the contract before from_json. A value type; copy freely.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/autoviz/param_value.hpp"

namespace planfirst::autoviz {

struct TimeRequirement {
  std::optional<std::string> column;  // null: no time column asked for
  std::string grain = "unknown";      // unknown, hour, day, week, month, quarter, year
  bool operator==(const TimeRequirement&) const = default;
};

struct Constraint {    // one of the contract's filter, sort or limit objects
  std::string type;    // "filter", "sort" or "limit"
  std::string column;  // filter, sort
  std::string op;    // filter: =, !=, >, >=, <, <=, in, not_in, between, not_between, contains, not_contains
  ParamValue value;  // filter
  std::string direction;  // sort: asc, desc
  std::int64_t n = 0;     // limit
  bool operator==(const Constraint&) const = default;
};

struct Requirements {
  std::vector<std::string> metrics;   // e.g. {"revenue"}
  std::vector<std::string> group_by;  // e.g. {"region", "product_category"}
  TimeRequirement time;
  std::vector<std::string> analysis;  // closed set: total, compare, trend, distribution, ...
  std::vector<std::string> outputs;   // closed set: chart, table, report
  std::vector<Constraint> constraints;

  // kInvalidArgument with the JSON pointer at fault for a missing, unknown or mistyped field.
  static core::Result<Requirements> from_json(const core::Json& json);
  core::Json to_json() const;
  bool operator==(const Requirements&) const = default;
};

}  // namespace planfirst::autoviz
