// The HTTP module (core/http_module.hpp): one exchange over cpp-httplib, with certificate
// verification, connect/read/write timeouts, a response size limit and cancellation. Built as a
// shared module of its own, so only processes that talk HTTP load httplib and OpenSSL.
#include <httplib.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>

#include "core/http_exchange.hpp"

namespace {

using planfirst::core::HttpExchangeFailure;
using planfirst::core::HttpExchangeRequest;
using planfirst::core::HttpExchangeResult;

// A Content-Length above `limit`; false when it is absent or not a number.
bool declares_more_than(const httplib::Response& head, std::size_t limit) {
  if (!head.has_header("Content-Length")) return false;
  const std::string length = head.get_header_value("Content-Length");
  if (length.empty() || length.size() > 18) return false;
  std::uint64_t bytes = 0;
  for (char c : length) {
    if (c < '0' || c > '9') return false;
    bytes = bytes * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return bytes > limit;
}

HttpExchangeFailure failure_of(httplib::Error error) {
  switch (error) {
    case httplib::Error::Connection:
    case httplib::Error::ConnectionTimeout:
    case httplib::Error::BindIPAddress: return HttpExchangeFailure::kConnect;
    case httplib::Error::Read: return HttpExchangeFailure::kRead;
    case httplib::Error::Write: return HttpExchangeFailure::kWrite;
    case httplib::Error::SSLConnection:
    case httplib::Error::SSLLoadingCerts: return HttpExchangeFailure::kTls;
    case httplib::Error::SSLServerVerification: return HttpExchangeFailure::kTlsVerification;
    default: return HttpExchangeFailure::kOther;
  }
}

void exchange(const HttpExchangeRequest& request, HttpExchangeResult& result) {
  httplib::Client client(request.scheme_host_port);
  client.set_connection_timeout(request.connect_timeout);
  client.set_read_timeout(request.read_timeout);
  client.set_write_timeout(request.write_timeout);
  client.set_keep_alive(false);
  client.set_follow_location(false);
  client.set_decompress(true);
  client.enable_server_certificate_verification(request.verify_certificates);
  if (!request.ca_cert_file.empty()) client.set_ca_cert_path(request.ca_cert_file);

  httplib::Request req;
  req.method = request.method;
  req.path = request.target;
  for (const auto& [name, value] : request.headers) req.headers.emplace(name, value);
  if (request.method == "POST") {
    req.body = request.body;
    req.set_header("Content-Type", request.content_type);
  }
  if (!req.has_header("Accept")) req.set_header("Accept", "application/json");

  bool too_large = false;
  req.response_handler = [&](const httplib::Response& head) {
    too_large = declares_more_than(head, request.max_response_bytes);
    return !too_large;
  };
  req.content_receiver = [&](const char* data, size_t length, uint64_t, uint64_t) {
    if (result.body.size() + length > request.max_response_bytes) {
      too_large = true;
      return false;
    }
    result.body.append(data, length);
    return true;
  };

  std::atomic<bool> done{false};
  std::thread watcher;
  if (request.wait_cancelled) {
    watcher = std::thread([&] {
      while (!done.load()) {
        if (request.wait_cancelled(std::chrono::milliseconds(10)))
          client.stop();  // the blocked read fails at once
      }
    });
  }
  httplib::Response response;
  httplib::Error error = httplib::Error::Success;
  const auto started = std::chrono::steady_clock::now();
  const bool sent = client.send(req, response, error);
  result.took = std::chrono::steady_clock::now() - started;
  done = true;
  if (watcher.joinable()) watcher.join();

  if (too_large) {
    result.failure = HttpExchangeFailure::kTooLarge;
  } else if (!sent) {
    result.failure = failure_of(error);
    result.failure_text = httplib::to_string(error);
  } else {
    result.status = response.status;
    for (const auto& [name, value] : response.headers) result.headers.emplace_back(name, value);
  }
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int planfirst_http_exchange_version() {
  return planfirst::core::kHttpExchangeVersion;
}

extern "C" __attribute__((visibility("default"))) void planfirst_http_exchange(
    const HttpExchangeRequest* request, HttpExchangeResult* result) {
  exchange(*request, *result);
}
