// YouTrackSource answers plans that name "youtrack" from YouTrack's REST API: GET /api/issues with the
// query written in YouTrack's query language (youtrack_query.hpp), the fields the parser reads, and
// $top/$skip paging until SourceQuery::limit, plus a "metrics" kind (issues counted per project and
// state). HTTP, retries, 429 Retry-After and cancellation go through core::HttpClient. Immutable after
// create(); threads may share one. Borrows the Clock (and Sleeper): they outlive the source.
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

struct YouTrackOptions {
  std::string base_url;  // "https://youtrack.example.com" (or ".../youtrack"); "/api" is appended
  std::string token_env = "YOUTRACK_TOKEN";   // variable holding the permanent token (Bearer); "" = none
  std::vector<std::string> default_projects;  // short names or names, for queries naming none; empty: all
  std::string state_field = "State";          // the custom field that holds an issue's state
  core::HttpOptions http;                     // timeouts, retries, TLS
  std::size_t page_size = 100;                // $top
  std::size_t metrics_scan_limit = 2000;      // issues read for the "metrics" kind
};

class YouTrackSource final : public RetrievalSource {
 public:
  // Reads the token from the process environment. kFailedPrecondition when the token variable is unset
  // or empty; kInvalidArgument for a malformed base URL or a zero page size.
  static core::Result<std::unique_ptr<YouTrackSource>> create(YouTrackOptions options,
                                                              const core::Clock& clock);
  // As above with the environment to read and how to wait between retries (tests: RecordingSleeper).
  static core::Result<std::unique_ptr<YouTrackSource>> create(YouTrackOptions options,
                                                              const core::Clock& clock,
                                                              core::Sleeper& sleeper,
                                                              const core::Environment& env);

  std::string name() const override;  // "youtrack"
  // Kinds "issues" and "metrics". kInvalidArgument: another kind, a value the query language cannot
  // quote, a malformed response (naming URL and field); kFailedPrecondition: the token was refused;
  // kUnavailable: unreachable, 429/5xx after retries, cancelled.
  core::Result<std::vector<EvidenceItem>> fetch(const SourceQuery& query,
                                                const core::CancellationToken* cancel) const override;

 private:
  struct ConstructionKey {};  // create() is the only way in

 public:
  YouTrackSource(ConstructionKey, YouTrackOptions options, RestConnection connection);

 private:
  core::Result<std::vector<EvidenceItem>> list_issues(const SourceQuery& query,
                                                      const std::string& youtrack_query,
                                                      std::size_t max_items,
                                                      const core::CancellationToken* cancel) const;

  YouTrackOptions options_;
  RestConnection connection_;
};

}  // namespace planfirst::sources
