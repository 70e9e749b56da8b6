// YouTrackTestServer speaks YouTrack's REST API on loopback from tests/support/fixtures/youtrack/
// issues.json (projects PRJ, OPS and MOB "Mobile App"): GET /api/issues with a subset of the query
// language (project:, State:, for: (the Assignee's login), reporter:, #Resolved, #Unresolved,
// created:/updated: day ranges, sort by: created,
// values in braces; anything else is a 400 like YouTrack's), `fields` projection, $top/$skip paging,
// "Authorization: Bearer" checked (401 otherwise), and RestTestServer's scripted failures and request log.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "support/rest_test_server.hpp"

namespace planfirst::test_support {

class YouTrackTestServer {
 public:
  static constexpr const char* kToken = "perm:test-token";

  // Loads the fixtures and starts serving; throws std::runtime_error when it cannot.
  YouTrackTestServer();
  ~YouTrackTestServer();

  std::string base_url() const { return server_->root_url(); }  // what YouTrackOptions::base_url takes
  RestTestServer& rest() { return *server_; }                   // scripts, token, request log
  std::vector<RestRequest> requests() const { return server_->requests(); }

 private:
  struct Fixtures;
  std::unique_ptr<Fixtures> fixtures_;
  std::unique_ptr<RestTestServer> server_;
};

}  // namespace planfirst::test_support
