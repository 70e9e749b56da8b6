// GitLabTestServer speaks GitLab REST v4 on loopback from the fixtures in tests/support/fixtures/gitlab/
// (projects group/app, group/api, tools/cli): /api/v4/projects/:id/repository/commits (since, until,
// author: a part of the name or email), /issues and /merge_requests (state, created_after/before,
// updated_after/before, assignee_username: one name, author_username), ids percent-encoded
// or numeric, page/per_page paging with X-Next-Page, X-Total and Link headers, PRIVATE-TOKEN checked
// (401 otherwise), and RestTestServer's scripted failures and request log. Thread-safe.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "support/rest_test_server.hpp"

namespace planfirst::test_support {

enum class GitLabPaging { kNextPageHeader, kLinkOnly };  // kLinkOnly drops the X-* headers

class GitLabTestServer {
 public:
  static constexpr const char* kToken = "glpat-test-token";

  // Loads the fixtures and starts serving; throws std::runtime_error when it cannot.
  explicit GitLabTestServer(GitLabPaging paging = GitLabPaging::kNextPageHeader);
  ~GitLabTestServer();

  std::string base_url() const { return server_->root_url(); }  // what GitLabOptions::base_url takes
  RestTestServer& rest() { return *server_; }                   // scripts, token, request log
  std::vector<RestRequest> requests() const { return server_->requests(); }

 private:
  struct Fixtures;
  std::unique_ptr<Fixtures> fixtures_;
  std::unique_ptr<RestTestServer> server_;
};

}  // namespace planfirst::test_support
