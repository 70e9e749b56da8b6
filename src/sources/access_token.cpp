#include "sources/access_token.hpp"

namespace planfirst::sources {

core::Result<std::string> read_access_token(const TokenSource& source, const core::Environment& env) {
  if (source.variable.empty()) return std::string();
  const auto found = env.find(source.variable);
  if (found == env.end() || found->second.empty()) {
    return core::failed_precondition(std::string(source.service) +
                                         " token missing: the environment variable " + source.variable +
                                         " is not set or empty (set it, or name another variable in " +
                                         std::string(source.option) + "; an empty name sends no token)",
                                     source.variable);
  }
  return found->second;
}

core::Error explain_http_error(core::Error error, const TokenSource& source, std::string_view what) {
  const std::string service(source.service);
  switch (error.code) {
    case core::ErrorCode::kFailedPrecondition:
      if (source.variable.empty()) {
        error.message = service + " refused the request without a token (set " + std::string(source.option) +
                        " to the variable holding one): " + error.message;
      } else {
        error.message = service + " refused the token from the environment variable " + source.variable +
                        " (expired, revoked or without access to " + std::string(what) +
                        "): " + error.message;
      }
      return error;
    case core::ErrorCode::kNotFound:
      error.message =
          service + " has no " + std::string(what) + " (or the token cannot see it): " + error.message;
      return error;
    default: error.message = service + ": " + error.message; return error;
  }
}

}  // namespace planfirst::sources
