// HttpClient sends JSON requests to one remote service (an LLM or embedding server, GitLab, YouTrack)
// over HTTP or HTTPS with certificate verification, connect/read timeouts, retries with exponential
// backoff and jitter on connection errors, 429 (honouring Retry-After) and 5xx, none on other 4xx,
// and cancellation. An immutable value: threads may share one. The Sleeper and Clock it borrows must
// outlive it. Failures are Errors: kUnavailable (unreachable, timed out, cancelled, 429/5xx after the
// last retry), kNotFound (404), kFailedPrecondition (401/403), kInvalidArgument (other 4xx, a response
// over the size limit); each message names the URL and, when there was one, the status.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.hpp"

namespace planfirst::core {
class CancellationToken;
class Clock;
class Sleeper;

using HttpHeaders = std::vector<std::pair<std::string, std::string>>;  // name, value; in order sent

struct HttpOptions {
  std::chrono::milliseconds connect_timeout{5'000};
  std::chrono::milliseconds read_timeout{60'000};  // per attempt; HttpRequest may override it
  std::chrono::milliseconds write_timeout{30'000};
  int max_retries = 3;  // attempts after the first; 0 disables retrying
  std::chrono::milliseconds initial_backoff{500};
  std::chrono::milliseconds max_backoff{20'000};
  double backoff_multiplier = 2.0;
  double jitter = 0.2;                                // each backoff is scaled by 1 +/- up to this fraction
  std::chrono::milliseconds max_retry_after{60'000};  // a longer Retry-After is capped to this
  bool retry_on_read_timeout = false;          // the server may already be working on it: off by default
  std::size_t max_response_bytes = 32u << 20;  // a larger body is an error, not a truncation
  bool verify_certificates = true;             // HTTPS only
  std::string ca_cert_file;                    // PEM bundle; empty = the system's
  std::uint64_t jitter_seed = 0;               // 0 = random; fixed in tests for repeatable jitter
};

struct HttpRequest {
  std::string method = "GET";  // "GET" or "POST"
  std::string path;            // appended to the base URL's path: "/chat/completions"
  HttpHeaders headers;         // e.g. {"Authorization", "Bearer ..."}
  std::string body;
  std::string content_type = "application/json";
  std::optional<std::chrono::milliseconds> read_timeout;  // overrides HttpOptions::read_timeout
};

struct HttpResponse {
  int status = 0;
  HttpHeaders headers;
  std::string body;
  int attempts = 0;                     // requests sent, retries included
  std::chrono::nanoseconds elapsed{0};  // first send to last byte, backoff included (steady clock)

  std::optional<std::string> header(std::string_view name) const;  // case-insensitive, first match
};

class HttpClient {
 public:
  // `base_url` is "http(s)://host[:port][/path]"; kInvalidArgument when it is not. Real sleeping and
  // the system clock.
  static Result<HttpClient> create(std::string_view base_url, HttpOptions options = {});
  // REQUIRES: `sleeper` and `clock` outlive the client (tests pass a RecordingSleeper, ManualClock).
  static Result<HttpClient> create(std::string_view base_url, HttpOptions options, Sleeper& sleeper,
                                   const Clock& clock);

  // Sends `request`, retrying as the options say; a 2xx response, or an Error (see above).
  // `cancel` (may be null) aborts the request in flight and any backoff wait.
  Result<HttpResponse> send(const HttpRequest& request, const CancellationToken* cancel = nullptr) const;
  Result<HttpResponse> get(std::string_view path, const HttpHeaders& headers = {},
                           const CancellationToken* cancel = nullptr) const;
  Result<HttpResponse> post_json(std::string_view path, std::string body, const HttpHeaders& headers = {},
                                 const CancellationToken* cancel = nullptr) const;

  const std::string& base_url() const { return base_url_; }  // without a trailing slash
  std::string url(std::string_view path) const;              // base_url() + path, for messages
  const HttpOptions& options() const { return options_; }

 private:
  HttpClient(std::string base_url, std::string scheme_host_port, std::string path_prefix, HttpOptions options,
             Sleeper& sleeper, const Clock& clock);

  std::string base_url_;          // "https://api.example.com/v1"
  std::string scheme_host_port_;  // "https://api.example.com:443"
  std::string path_prefix_;       // "/v1" or ""
  HttpOptions options_;
  Sleeper* sleeper_;    // borrowed; never null
  const Clock* clock_;  // borrowed; never null
};

}  // namespace planfirst::core
