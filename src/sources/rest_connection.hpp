// RestConnection is the authenticated HTTP side of a REST source (GitLab, YouTrack): a core::HttpClient
// for "<base_url><api_prefix>", the token read from the environment at create() and sent in the
// service's header, errors rewritten to name the token variable or the missing thing, and the
// provenance of each response. Immutable; threads may share one. Borrows the Clock and Sleeper.
#pragma once

#include <string>
#include <string_view>

#include "core/config.hpp"
#include "core/http_client.hpp"
#include "sources/access_token.hpp"
#include "sources/response_origin.hpp"

namespace planfirst::core {
class CancellationToken;
class Clock;
class Sleeper;
}  // namespace planfirst::core

namespace planfirst::sources {

struct RestSettings {
  std::string base_url;              // the service's root as the user gives it: "https://gitlab.example.com"
  std::string_view base_url_option;  // "GitLabOptions::base_url", for messages
  std::string_view api_prefix;       // "/api/v4", "/api"
  TokenSource token;                 // where the token comes from
  std::string_view auth_header;      // "PRIVATE-TOKEN", "Authorization"
  std::string_view auth_scheme;      // "" or "Bearer "
  core::HttpOptions http;
};

class RestConnection {
 public:
  // kInvalidArgument for an empty or malformed base URL; kFailedPrecondition when the token is missing.
  static core::Result<RestConnection> create(RestSettings settings, const core::Clock& clock,
                                             core::Sleeper& sleeper, const core::Environment& env);

  // GET `path` (below the API prefix, with its query string); a 2xx response or an Error that names the
  // service and, for 401/403/404, the token variable or `what` ("project group/app").
  core::Result<core::HttpResponse> get(std::string_view path, std::string_view what,
                                       const core::CancellationToken* cancel) const;
  // Where a response to `path` came from, fetched now, asked by `query_text`.
  ResponseOrigin origin(std::string_view path, std::string_view query_text) const;
  std::string root_url() const { return root_url_; }  // the base URL without a trailing slash

 private:
  RestConnection(RestSettings settings, core::HttpClient http, std::string root_url, std::string token,
                 const core::Clock& clock);

  RestSettings settings_;
  core::HttpClient http_;
  std::string root_url_;
  core::HttpHeaders headers_;  // the token's header, when there is a token
  const core::Clock* clock_;   // borrowed; never null
};

}  // namespace planfirst::sources
