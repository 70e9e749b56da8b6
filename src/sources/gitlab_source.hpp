// GitLabSource answers plans that name "gitlab" from a GitLab server's REST API v4: commits, issues and
// merge requests per project, filtered by time, state, assignee and author (one request per person:
// GitLab takes one name per parameter), paged until SourceQuery::limit, plus a
// "metrics" kind (commits counted per project, author and UTC day). HTTP, retries, 429 Retry-After and
// cancellation go through core::HttpClient. Immutable after create(); threads may share one. Borrows
// the Clock (and Sleeper): they outlive the source.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/config.hpp"
#include "core/http_client.hpp"
#include "sources/rest_connection.hpp"
#include "sources/retrieval_source.hpp"

namespace planfirst::core {
class Clock;
class Sleeper;
}  // namespace planfirst::core

namespace planfirst::sources {

struct GitLabOptions {
  std::string base_url;                       // "https://gitlab.example.com"; "/api/v4" is appended
  std::string token_env = "GITLAB_TOKEN";     // variable holding the token sent as PRIVATE-TOKEN; "" = none
  std::vector<std::string> default_projects;  // "group/app" or numeric ids, for queries naming none
  // How a message about a query with no project tells its user to set default_projects; the CLI
  // says "pass --gitlab-project group/app".
  std::string default_projects_hint = "set GitLabOptions::default_projects";
  core::HttpOptions http;                 // timeouts, retries, TLS
  std::size_t page_size = 100;            // per_page; GitLab caps it at 100
  std::size_t metrics_scan_limit = 2000;  // commits read per project for the "metrics" kind
};

class GitLabSource final : public RetrievalSource {
 public:
  // Reads the token from the process environment. kFailedPrecondition when the token variable is unset
  // or empty; kInvalidArgument for a malformed base URL or a zero page size.
  static core::Result<std::unique_ptr<GitLabSource>> create(GitLabOptions options, const core::Clock& clock);
  // As above with the environment to read and how to wait between retries (tests: RecordingSleeper).
  static core::Result<std::unique_ptr<GitLabSource>> create(GitLabOptions options, const core::Clock& clock,
                                                            core::Sleeper& sleeper,
                                                            const core::Environment& env);

  std::string name() const override;  // "gitlab"
  // kInvalidArgument: unknown kind or status, assignees for commits, no project (neither in the query
  // nor default_projects: the message ends with default_projects_hint), a malformed response (naming
  // URL and field); kFailedPrecondition: the token was refused; kNotFound:
  // no such project; kUnavailable: unreachable, 429/5xx after retries, cancelled.
  core::Result<std::vector<EvidenceItem>> fetch(const SourceQuery& query,
                                                const core::CancellationToken* cancel) const override;

 private:
  struct ConstructionKey {};  // create() is the only way in

 public:
  GitLabSource(ConstructionKey, GitLabOptions options, RestConnection connection);

 private:
  GitLabOptions options_;
  RestConnection connection_;
};

}  // namespace planfirst::sources
