// The GitLab REST v4 response parsers: one page of commits, issues or merge requests (a JSON array)
// becomes evidence items with ids "gitlab:group/app@<short sha>", "gitlab:group/app#<iid>" and
// "gitlab:group/app!<iid>". A body that is not a JSON array of records of the documented shape is a
// kInvalidArgument Error naming the URL and the field; never a crash or an exception. Pure functions.
#pragma once

#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "sources/evidence_item.hpp"
#include "sources/response_origin.hpp"

namespace planfirst::sources {

inline constexpr std::string_view kGitLabSourceName = "gitlab";

// GET /projects/:id/repository/commits. Fields: project, sha, author, author_email, committed_at,
// created_at, day (UTC date of committed_at), web_url.
core::Result<std::vector<EvidenceItem>> parse_gitlab_commits(std::string_view body, std::string_view project,
                                                             const ResponseOrigin& origin);
// GET /projects/:id/issues. Fields: project, iid, state, author, assignees, labels, created_at,
// updated_at, closed_at, web_url.
core::Result<std::vector<EvidenceItem>> parse_gitlab_issues(std::string_view body, std::string_view project,
                                                            const ResponseOrigin& origin);
// GET /projects/:id/merge_requests. Fields: project, iid, state, author, source_branch, target_branch,
// created_at, updated_at, merged_at, web_url.
core::Result<std::vector<EvidenceItem>> parse_gitlab_merge_requests(std::string_view body,
                                                                    std::string_view project,
                                                                    const ResponseOrigin& origin);

}  // namespace planfirst::sources
