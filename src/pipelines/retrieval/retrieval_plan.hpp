// RetrievalPlan and RetrievalQuery are seed 001's `retrieval.plans` and `retrieval.queries`: what
// to ask which source, with which entity filters, at which priority, and the normalized query
// string "{description} {filter:values} ...". Plain values; JSON in the seed's shape both ways.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"

namespace planfirst::retrieval {

// The entity filters in the order query strings name them: the seed's four, then the people.
// Other names follow, sorted.
inline constexpr std::array<std::string_view, 6> kFilterOrder = {"projects",  "dates",     "statuses",
                                                                 "providers", "assignees", "authors"};

struct Filter {
  std::string name;                 // a name of kFilterOrder, or any name a state file brings
  std::vector<std::string> values;  // never empty in a plan
  bool operator==(const Filter&) const = default;
};

struct RetrievalPlan {
  std::string id;  // "plan0", "plan1", ... in the order plans were made
  std::string description;
  std::vector<std::string> sources;  // "gitlab", "youtrack", "generic", ...
  std::vector<Filter> filters;       // in kFilterOrder
  int priority = 0;                  // higher runs first

  const Filter* filter(std::string_view name) const;  // nullptr when the plan has none
};

struct RetrievalQuery {
  std::string id;  // "<plan id>_query"; a plan with several sources: "_query", "_query1", ...
  std::string query_string;
  std::string source;
  std::vector<Filter> filters;
};

// "Retrieve commit data from GitLab projects:proj1,proj2 dates:last week": the description, then
// each filter as name:values joined by commas, separated by single spaces.
std::string query_string(const RetrievalPlan& plan);
std::string query_id(const RetrievalPlan& plan, std::size_t source_index);
// One query per source of each plan, in plan order.
std::vector<RetrievalQuery> queries_for(const std::vector<RetrievalPlan>& plans);
// `filters` with empty ones removed, in kFilterOrder.
std::vector<Filter> normalized_filters(std::vector<Filter> filters);

core::Json to_json(const std::vector<Filter>& filters);  // {"projects": [...], ...}
core::Json to_json(const RetrievalPlan& plan);
core::Json to_json(const RetrievalQuery& query);

// The state's "retrieval.plans" (null: none); kInvalidArgument naming the JSON pointer at fault.
core::Result<std::vector<RetrievalPlan>> plans_from_json(const core::Json& json,
                                                         std::string_view pointer = "/retrieval/plans");

}  // namespace planfirst::retrieval
