// One HTTP request and its response, as HttpClient hands it to the HTTP module (http_module.hpp)
// and gets it back: plain values, no retries, no error wording. The module is built from the same
// sources and compiler, so these types cross it as they are; kHttpExchangeVersion changes with them.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace planfirst::core {

inline constexpr int kHttpExchangeVersion = 1;

struct HttpExchangeRequest {
  std::string scheme_host_port;  // "https://api.example.com:443"
  std::string method;            // "GET" or "POST"
  std::string target;            // path and query sent on the request line: "/v1/chat/completions"
  std::vector<std::pair<std::string, std::string>> headers;  // in order sent; Accept added when absent
  std::string body;                                          // POST only
  std::string content_type;                                  // POST only
  std::chrono::milliseconds connect_timeout{0};
  std::chrono::milliseconds read_timeout{0};
  std::chrono::milliseconds write_timeout{0};
  bool verify_certificates = true;  // HTTPS only
  std::string ca_cert_file;         // PEM bundle; empty = the system's
  std::size_t max_response_bytes = 0;
  // Waits up to the duration; true once the request should be abandoned. Empty: never.
  std::function<bool(std::chrono::milliseconds)> wait_cancelled;
};

enum class HttpExchangeFailure : std::uint8_t {
  kNone,             // a response arrived (any status)
  kConnect,          // no connection: refused, unreachable, connect timeout, bind
  kRead,             // the connection broke or timed out while reading the reply
  kWrite,            // ... while sending the request
  kTls,              // the TLS handshake or loading certificates failed
  kTlsVerification,  // the server certificate did not verify
  kTooLarge,         // the body passed max_response_bytes
  kOther,            // anything else the transport reports
};

struct HttpExchangeResult {
  HttpExchangeFailure failure = HttpExchangeFailure::kNone;
  std::string failure_text;  // the transport's own name for the failure, e.g. "Connection"
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::chrono::nanoseconds took{0};  // sending to the last byte, or to the failure
};

}  // namespace planfirst::core
