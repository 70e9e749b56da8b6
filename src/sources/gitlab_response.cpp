#include "sources/gitlab_response.hpp"

#include <nlohmann/json.hpp>

#include "core/join.hpp"
#include "core/timestamp.hpp"
#include "sources/response_record.hpp"
#include "sources/snippet.hpp"

namespace planfirst::sources {
namespace {

EvidenceItem new_item(const ResponseOrigin& origin) {
  EvidenceItem item;
  item.source = std::string(kGitLabSourceName);
  item.provenance = origin.provenance(item.source);
  return item;
}

core::Result<EvidenceItem> commit_item(ResponseRecord& record, std::string_view project,
                                       const ResponseOrigin& origin) {
  const std::string sha = record.text("id");
  std::string short_sha = record.optional_text("short_id");
  const std::string title = record.text("title");
  const std::string message = record.optional_text("message");
  const std::string author = record.optional_text("author_name");
  const std::string email = record.optional_text("author_email");
  const std::string created = record.timestamp("created_at", false);
  const std::string committed = record.timestamp("committed_date", created.empty());
  const std::string web_url = record.optional_text("web_url");
  if (sha.empty()) record.fail("id", "a non-empty commit id");
  if (auto status = record.status(); !status) return status.error();

  if (short_sha.empty()) short_sha = sha.substr(0, 8);
  const std::string when = committed.empty() ? created : committed;
  EvidenceItem item = new_item(origin);
  item.id = "gitlab:" + std::string(project) + "@" + short_sha;
  item.title = title;
  item.snippet = snippet_of(message.empty() ? title : message);
  item.fields = {{"project", std::string(project)},
                 {"sha", sha},
                 {"author", author},
                 {"author_email", email},
                 {"committed_at", when},
                 {"created_at", created},
                 {"day", core::format_utc_day(*core::parse_timestamp(when))},
                 {"web_url", web_url}};
  return item;
}

// What issues and merge requests share: iid, title, description, state, author and the timestamps.
EvidenceItem tracked_item(ResponseRecord& record, std::string_view project, char marker,
                          const ResponseOrigin& origin) {
  const std::int64_t iid = record.integer("iid");
  EvidenceItem item = new_item(origin);
  item.id = "gitlab:" + std::string(project) + marker + std::to_string(iid);
  item.title = record.text("title");
  item.snippet = snippet_of(record.optional_text("description"));
  item.fields = {{"project", std::string(project)},
                 {"iid", std::to_string(iid)},
                 {"state", record.text("state")},
                 {"author", record.optional_text("author.username")},
                 {"created_at", record.timestamp("created_at", true)},
                 {"updated_at", record.timestamp("updated_at", false)},
                 {"web_url", record.optional_text("web_url")}};
  return item;
}

core::Result<EvidenceItem> issue_item(ResponseRecord& record, std::string_view project,
                                      const ResponseOrigin& origin) {
  EvidenceItem item = tracked_item(record, project, '#', origin);
  item.fields.emplace_back("closed_at", record.timestamp("closed_at", false));
  item.fields.emplace_back("labels", core::join(record.texts("labels"), ","));
  item.fields.emplace_back("assignees", core::join(record.texts("assignees", "username"), ","));
  if (auto status = record.status(); !status) return status.error();
  return item;
}

core::Result<EvidenceItem> merge_request_item(ResponseRecord& record, std::string_view project,
                                              const ResponseOrigin& origin) {
  EvidenceItem item = tracked_item(record, project, '!', origin);
  item.fields.emplace_back("merged_at", record.timestamp("merged_at", false));
  item.fields.emplace_back("source_branch", record.optional_text("source_branch"));
  item.fields.emplace_back("target_branch", record.optional_text("target_branch"));
  if (auto status = record.status(); !status) return status.error();
  return item;
}

}  // namespace

core::Result<std::vector<EvidenceItem>> parse_gitlab_commits(std::string_view body, std::string_view project,
                                                             const ResponseOrigin& origin) {
  return parse_records(body, origin.url,
                       [&](ResponseRecord& record) { return commit_item(record, project, origin); });
}

core::Result<std::vector<EvidenceItem>> parse_gitlab_issues(std::string_view body, std::string_view project,
                                                            const ResponseOrigin& origin) {
  return parse_records(body, origin.url,
                       [&](ResponseRecord& record) { return issue_item(record, project, origin); });
}

core::Result<std::vector<EvidenceItem>> parse_gitlab_merge_requests(std::string_view body,
                                                                    std::string_view project,
                                                                    const ResponseOrigin& origin) {
  return parse_records(body, origin.url,
                       [&](ResponseRecord& record) { return merge_request_item(record, project, origin); });
}

}  // namespace planfirst::sources
