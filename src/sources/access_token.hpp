// How the REST sources get and explain their tokens: read_access_token takes the token from the
// environment variable an option names (secrets stay out of config files), and explain_http_error
// rewrites HttpClient's errors so a refused token or an unknown project says what to fix. Pure functions.
#pragma once

#include <string>
#include <string_view>

#include "core/config.hpp"
#include "core/result.hpp"

namespace planfirst::sources {

struct TokenSource {
  std::string_view service;  // "GitLab", "YouTrack"
  std::string_view option;   // "GitLabOptions::token_env", for messages
  std::string variable;      // "GITLAB_TOKEN"; empty: the service is used without a token
};

// The variable's value; "" when `variable` is empty. kFailedPrecondition when the variable is unset or
// empty, naming the variable and the option that chose it.
core::Result<std::string> read_access_token(const TokenSource& source, const core::Environment& env);

// kFailedPrecondition (HTTP 401/403) becomes "<service> refused the token from $VARIABLE ..."; kNotFound
// names `what` ("project group/app"); other errors are returned with the service name in front.
core::Error explain_http_error(core::Error error, const TokenSource& source, std::string_view what);

}  // namespace planfirst::sources
