// A filter on each group's aggregate (SQL's HAVING) is a filter constraint whose column spells the
// aggregate: "count(*)" ("origins with more than 2 flights"), "avg(price)" ("origins whose average
// price is above 300"). The plan keeps it after the aggregation, on the column the aggregate writes.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "data/schema_profile.hpp"
#include "pipelines/autoviz/requirements.hpp"

namespace planfirst::autoviz {

struct GroupFilterColumn {
  std::string func;    // the aggregate tool's agg_func: count, sum, avg, ...
  std::string metric;  // a column, or "*" for count(*)
  bool operator==(const GroupFilterColumn&) const = default;
};

// The aggregate `column` spells ("avg(price)" -> {avg, price}); nothing for a plain column name.
std::optional<GroupFilterColumn> group_filter_column(std::string_view column);

// The aggregate filter constraint `c` keeps groups by; nothing for another constraint, a plain column
// or a column of `profile` whose name is spelled like an aggregate.
std::optional<GroupFilterColumn> group_filter_of(const Constraint& c, const data::SchemaProfile& profile);

// "avg(price)" for {avg, price}: the column a group filter constraint names.
std::string group_filter_spelling(const GroupFilterColumn& aggregate);

// The column the aggregate tool writes for `aggregate`: "count" for count(*), else the metric's name.
std::string group_filter_output(const GroupFilterColumn& aggregate);

}  // namespace planfirst::autoviz
