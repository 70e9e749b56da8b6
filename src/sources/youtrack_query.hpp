// youtrack_query writes a SourceQuery in YouTrack's query language: "project: PRJ, {Mobile App}
// State: Open, {In Progress} for: alice reporter: bob created: 2024-01-01 .. 2024-01-31 sort by:
// created desc". Values that are not plain words go in braces; a value holding a brace cannot be
// quoted and is kInvalidArgument. Statuses: "unresolved"/"resolved" become #Unresolved/#Resolved,
// others State values (open -> Open, in-progress -> {In Progress}); with both kinds the two are
// joined by "or". Assignees go to "for:", authors to "reporter:". Pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "sources/source_query.hpp"

namespace planfirst::sources {

// `projects` are those to search (the query's, else the configured defaults; empty: every project).
// `state_field` is the custom field holding the state ("State").
core::Result<std::string> youtrack_query(const SourceQuery& query, const std::vector<std::string>& projects,
                                         std::string_view state_field = "State");

core::Result<std::string> youtrack_value(
    std::string_view value);                          // "PRJ" -> PRJ, "In Progress" -> {In Progress}
std::string youtrack_state(std::string_view status);  // "in-progress" -> "In Progress"

}  // namespace planfirst::sources
