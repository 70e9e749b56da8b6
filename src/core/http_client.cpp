#include "core/http_client.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <iomanip>
#include <random>
#include <sstream>

#include "core/ascii_case.hpp"
#include "core/cancellation.hpp"
#include "core/clock.hpp"
#include "core/http_module.hpp"
#include "core/sleeper.hpp"

namespace planfirst::core {
namespace {

std::string seconds_text(std::chrono::milliseconds ms) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(ms.count() % 1000 == 0 ? 0 : 1)
      << static_cast<double>(ms.count()) / 1000.0 << " s";
  return out.str();
}

// A snippet of a response body for error messages: at most 200 bytes, on one line.
std::string snippet(std::string_view body) {
  std::string out(body.substr(0, 200));
  for (char& c : out) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  if (body.size() > 200) out += "...";
  return out;
}

// Retry-After is either delta-seconds or an HTTP-date (RFC 9110 §10.2.3).
std::optional<std::chrono::milliseconds> parse_retry_after(std::string_view value, const Clock& clock) {
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
  if (value.empty()) return std::nullopt;
  if (std::all_of(value.begin(), value.end(),
                  [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    if (value.size() > 9) return std::chrono::milliseconds(std::chrono::hours(24 * 365));
    return std::chrono::milliseconds(std::stoll(std::string(value)) * 1000);
  }
  std::tm tm{};
  std::istringstream in{std::string(value)};
  in.imbue(std::locale::classic());
  in >> std::get_time(&tm, "%a, %d %b %Y %H:%M:%S");
  if (in.fail()) return std::nullopt;
  const std::time_t when = timegm(&tm);
  const auto at = std::chrono::system_clock::from_time_t(when);
  const auto delta = std::chrono::duration_cast<std::chrono::milliseconds>(at - clock.now());
  return std::max(delta, std::chrono::milliseconds(0));
}

// Why one attempt failed, and whether trying again may help.
struct AttemptFailure {
  Error error;
  bool retryable = false;
  std::optional<std::chrono::milliseconds> retry_after;
};

}  // namespace

std::optional<std::string> HttpResponse::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (iequals_ascii(key, name)) return value;
  }
  return std::nullopt;
}

HttpClient::HttpClient(std::string base_url, std::string scheme_host_port, std::string path_prefix,
                       HttpOptions options, Sleeper& sleeper, const Clock& clock)
    : base_url_(std::move(base_url)),
      scheme_host_port_(std::move(scheme_host_port)),
      path_prefix_(std::move(path_prefix)),
      options_(std::move(options)),
      sleeper_(&sleeper),
      clock_(&clock) {}

Result<HttpClient> HttpClient::create(std::string_view base_url, HttpOptions options) {
  return create(base_url, std::move(options), thread_sleeper(), system_clock());
}

Result<HttpClient> HttpClient::create(std::string_view base_url, HttpOptions options, Sleeper& sleeper,
                                      const Clock& clock) {
  std::string url(base_url);
  while (!url.empty() && url.back() == '/') url.pop_back();
  std::string_view rest = url;
  std::string scheme;
  if (rest.substr(0, 7) == "http://") {
    scheme = "http";
    rest.remove_prefix(7);
  } else if (rest.substr(0, 8) == "https://") {
    scheme = "https";
    rest.remove_prefix(8);
  } else {
    return invalid_argument("base URL must start with http:// or https://, got \"" + url + "\"", "base_url");
  }
  const std::size_t slash = rest.find('/');
  const std::string_view authority = rest.substr(0, slash);
  const std::string path = slash == std::string_view::npos ? std::string() : std::string(rest.substr(slash));
  if (authority.empty() || authority.find_first_of(" ?#@") != std::string_view::npos) {
    return invalid_argument("base URL has no valid host: \"" + url + "\"", "base_url");
  }
  std::string host(authority);
  int port = scheme == "https" ? 443 : 80;
  if (const std::size_t colon = authority.rfind(':');
      colon != std::string_view::npos && authority.find(']', colon) == std::string_view::npos) {
    host = std::string(authority.substr(0, colon));
    const std::string port_text(authority.substr(colon + 1));
    if (port_text.empty() || port_text.size() > 5 ||
        !std::all_of(port_text.begin(), port_text.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) ||
        std::stoi(port_text) == 0 || std::stoi(port_text) > 65535) {
      return invalid_argument("base URL has an invalid port: \"" + url + "\"", "base_url");
    }
    port = std::stoi(port_text);
  }
  if (host.empty()) return invalid_argument("base URL has no host: \"" + url + "\"", "base_url");
  if (options.max_retries < 0) return invalid_argument("max_retries must be >= 0", "max_retries");
  return HttpClient(url, scheme + "://" + host + ":" + std::to_string(port), path, std::move(options),
                    sleeper, clock);
}

std::string HttpClient::url(std::string_view path) const {
  return base_url_ + std::string(path);
}

Result<HttpResponse> HttpClient::get(std::string_view path, const HttpHeaders& headers,
                                     const CancellationToken* cancel) const {
  HttpRequest request;
  request.method = "GET";
  request.path = std::string(path);
  request.headers = headers;
  return send(request, cancel);
}

Result<HttpResponse> HttpClient::post_json(std::string_view path, std::string body,
                                           const HttpHeaders& headers,
                                           const CancellationToken* cancel) const {
  HttpRequest request;
  request.method = "POST";
  request.path = std::string(path);
  request.headers = headers;
  request.body = std::move(body);
  return send(request, cancel);
}

namespace {

struct AttemptResult {
  std::optional<HttpResponse> response;  // a 2xx response
  std::optional<AttemptFailure> failure;
};

}  // namespace

Result<HttpResponse> HttpClient::send(const HttpRequest& request, const CancellationToken* cancel) const {
  if (request.method != "GET" && request.method != "POST") {
    return invalid_argument("unsupported HTTP method " + request.method, url(request.path));
  }
  const std::string target_url = url(request.path);
  const auto started = clock_->steady_now();
  std::mt19937_64 random(options_.jitter_seed != 0 ? options_.jitter_seed : std::random_device{}());
  std::uniform_real_distribution<double> spread(-options_.jitter, options_.jitter);
  const auto read_timeout = request.read_timeout.value_or(options_.read_timeout);

  Result<HttpModule> module = HttpModule::load();  // once per request: its retries reuse it
  if (!module) return std::move(module.error());

  auto attempt_once = [&]() -> AttemptResult {
    AttemptResult result;
    HttpExchangeRequest exchange{.scheme_host_port = scheme_host_port_,
                                 .method = request.method,
                                 .target = path_prefix_ + request.path,
                                 .headers = request.headers,
                                 .body = request.method == "POST" ? request.body : std::string(),
                                 .content_type = request.content_type,
                                 .connect_timeout = options_.connect_timeout,
                                 .read_timeout = read_timeout,
                                 .write_timeout = options_.write_timeout,
                                 .verify_certificates = options_.verify_certificates,
                                 .ca_cert_file = options_.ca_cert_file,
                                 .max_response_bytes = options_.max_response_bytes,
                                 .wait_cancelled = {}};
    if (cancel != nullptr) {
      exchange.wait_cancelled = [cancel](std::chrono::milliseconds wait) { return cancel->wait_for(wait); };
    }
    HttpExchangeResult res;
    module->exchange(&exchange, &res);

    if (cancel != nullptr && cancel->cancelled()) {
      result.failure = AttemptFailure{unavailable("request cancelled", target_url), false, std::nullopt};
      return result;
    }
    switch (res.failure) {
      case HttpExchangeFailure::kNone: break;
      case HttpExchangeFailure::kTooLarge:
        result.failure =
            AttemptFailure{invalid_argument("response body is larger than the limit of " +
                                                std::to_string(options_.max_response_bytes) + " bytes",
                                            target_url),
                           false, std::nullopt};
        return result;
      case HttpExchangeFailure::kConnect:
        result.failure = AttemptFailure{
            unavailable("cannot connect to " + scheme_host_port_ + " (" + res.failure_text + ")", target_url),
            true, std::nullopt};
        return result;
      case HttpExchangeFailure::kRead:
      case HttpExchangeFailure::kWrite:
        if (res.took + std::chrono::milliseconds(50) >= read_timeout) {
          result.failure = AttemptFailure{
              unavailable("no reply within the read timeout of " + seconds_text(read_timeout), target_url),
              options_.retry_on_read_timeout, std::nullopt};
        } else {
          result.failure = AttemptFailure{
              unavailable("connection to " + scheme_host_port_ + " failed while " +
                              (res.failure == HttpExchangeFailure::kRead ? "reading the reply"
                                                                         : "sending the request"),
                          target_url),
              true, std::nullopt};
        }
        return result;
      case HttpExchangeFailure::kTls:
      case HttpExchangeFailure::kTlsVerification:
        result.failure = AttemptFailure{
            unavailable("TLS failure talking to " + scheme_host_port_ + ": " + res.failure_text +
                            (res.failure == HttpExchangeFailure::kTlsVerification
                                 ? " (the server certificate did not verify)"
                                 : ""),
                        target_url),
            false, std::nullopt};
        return result;
      case HttpExchangeFailure::kOther:
        result.failure = AttemptFailure{unavailable("request failed: " + res.failure_text, target_url), false,
                                        std::nullopt};
        return result;
    }

    HttpResponse response;
    response.status = res.status;
    response.headers = std::move(res.headers);
    response.body = std::move(res.body);
    if (res.status >= 200 && res.status < 300) {
      result.response = std::move(response);
      return result;
    }
    const std::string what = "HTTP " + std::to_string(res.status) + " from " + target_url +
                             (response.body.empty() ? "" : ": " + snippet(response.body));
    if (res.status == 429 || res.status >= 500) {  // both may say when to come back
      std::optional<std::chrono::milliseconds> after;
      if (auto value = response.header("Retry-After")) after = parse_retry_after(*value, *clock_);
      result.failure = AttemptFailure{unavailable(what, target_url), true, after};
    } else if (res.status == 404) {
      result.failure = AttemptFailure{not_found(what, target_url), false, std::nullopt};
    } else if (res.status == 401 || res.status == 403) {
      result.failure =
          AttemptFailure{failed_precondition(what + " (check the API key)", target_url), false, std::nullopt};
    } else {
      result.failure = AttemptFailure{invalid_argument(what, target_url), false, std::nullopt};
    }
    return result;
  };

  double backoff_ms = static_cast<double>(options_.initial_backoff.count());
  for (int attempt = 1;; ++attempt) {
    if (cancel != nullptr && cancel->cancelled()) return unavailable("request cancelled", target_url);
    AttemptResult result = attempt_once();
    if (result.response) {
      result.response->attempts = attempt;
      result.response->elapsed = clock_->steady_now() - started;
      return std::move(*result.response);
    }
    AttemptFailure& failure = *result.failure;
    if (!failure.retryable || attempt > options_.max_retries) {
      if (failure.retryable && attempt > 1) {
        failure.error.message += " (after " + std::to_string(attempt) + " attempts)";
      }
      return std::move(failure.error);
    }
    std::chrono::milliseconds wait;
    if (failure.retry_after) {
      wait = std::min(*failure.retry_after, options_.max_retry_after);
    } else {
      const double capped = std::min(backoff_ms, static_cast<double>(options_.max_backoff.count()));
      const double jittered = capped * (1.0 + (options_.jitter > 0 ? spread(random) : 0.0));
      wait = std::chrono::milliseconds(static_cast<std::int64_t>(std::llround(std::max(0.0, jittered))));
    }
    backoff_ms *= options_.backoff_multiplier;
    if (!sleeper_->sleep_for(wait, cancel)) return unavailable("request cancelled", target_url);
  }
}

}  // namespace planfirst::core
