#include "sources/rest_connection.hpp"

#include "core/cancellation.hpp"
#include "core/clock.hpp"
#include "core/timestamp.hpp"

namespace planfirst::sources {

core::Result<RestConnection> RestConnection::create(RestSettings settings, const core::Clock& clock,
                                                    core::Sleeper& sleeper, const core::Environment& env) {
  std::string root = settings.base_url;
  while (!root.empty() && root.back() == '/') root.pop_back();
  if (root.empty()) {
    return core::invalid_argument(std::string(settings.token.service) + " base URL is empty (set " +
                                      std::string(settings.base_url_option) + ")",
                                  std::string(settings.base_url_option));
  }
  core::Result<core::HttpClient> http =
      core::HttpClient::create(root + std::string(settings.api_prefix), settings.http, sleeper, clock);
  if (!http) return http.error();
  core::Result<std::string> token = read_access_token(settings.token, env);
  if (!token) return token.error();
  return RestConnection(std::move(settings), std::move(*http), std::move(root), std::move(*token), clock);
}

RestConnection::RestConnection(RestSettings settings, core::HttpClient http, std::string root_url,
                               std::string token, const core::Clock& clock)
    : settings_(std::move(settings)), http_(std::move(http)), root_url_(std::move(root_url)), clock_(&clock) {
  if (!token.empty())
    headers_.emplace_back(std::string(settings_.auth_header), std::string(settings_.auth_scheme) + token);
}

core::Result<core::HttpResponse> RestConnection::get(std::string_view path, std::string_view what,
                                                     const core::CancellationToken* cancel) const {
  if (cancel != nullptr && cancel->cancelled()) {
    return core::unavailable(std::string(settings_.token.service) + " request cancelled", http_.url(path));
  }
  core::Result<core::HttpResponse> response = http_.get(path, headers_, cancel);
  if (!response) return explain_http_error(std::move(response).error(), settings_.token, what);
  return response;
}

ResponseOrigin RestConnection::origin(std::string_view path, std::string_view query_text) const {
  return {http_.url(path), std::string(settings_.api_prefix) + std::string(path), std::string(query_text),
          core::format_utc_timestamp(clock_->now())};
}

}  // namespace planfirst::sources
