// The YouTrack REST response parser: one page of GET /api/issues (a JSON array of issues with the
// fields kYouTrackIssueFields asks for) becomes evidence items with ids "youtrack:PRJ-12". A body that
// is not such an array is a kInvalidArgument Error naming the URL and the field; never a crash or an
// exception. A pure function.
#pragma once

#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "sources/evidence_item.hpp"
#include "sources/response_origin.hpp"

namespace planfirst::sources {

inline constexpr std::string_view kYouTrackSourceName = "youtrack";
// The `fields` parameter: what the parser reads.
inline constexpr std::string_view kYouTrackIssueFields =
    "idReadable,summary,description,created,updated,resolved,project(shortName,name),reporter(login,fullName)"
    ","
    "customFields(name,value(name,login))";

// Fields: project, state (the custom field `state_field`), priority, type, assignee, reporter,
// created_at, updated_at, resolved_at, created_ms, web_url ("<root_url>/issue/PRJ-12").
core::Result<std::vector<EvidenceItem>> parse_youtrack_issues(std::string_view body,
                                                              std::string_view root_url,
                                                              const ResponseOrigin& origin,
                                                              std::string_view state_field = "State");

}  // namespace planfirst::sources
