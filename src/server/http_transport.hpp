// HttpListener is the server side of planfirst's HTTP: cpp-httplib (built with OpenSSL) lives in a
// module of its own, loaded by `planfirst serve` only, so no other command loads TLS. Requests and
// responses cross it as plain values; a streamed body is written chunk by chunk until it is done.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.hpp"

namespace planfirst::server {

inline constexpr int kHttpListenerVersion = 1;

using NameValues = std::vector<std::pair<std::string, std::string>>;

struct HttpRequest {
  std::string method;  // "GET", "POST", ...
  std::string path;    // decoded, without the query
  NameValues query;    // decoded, in order
  NameValues headers;  // names as sent
  std::string body;
  std::string remote_address;

  std::string header(std::string_view name) const;       // case-insensitive; "" when absent
  std::string query_value(std::string_view name) const;  // "" when absent
  bool has_query(std::string_view name) const;
};

// Writes one chunk of a streamed body; false once the client is gone.
using ChunkWriter = std::function<bool(std::string_view chunk)>;

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  NameValues headers;
  std::string body;
  // Set: the body is written by it (chunked transfer) and `body` is ignored. It returns when done.
  std::function<void(const ChunkWriter& write)> stream;
};

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

struct HttpListenOptions {
  std::string host = "127.0.0.1";
  int port = 0;                             // 0: a free port
  std::size_t threads = 64;                 // connections served at once (an open stream holds one)
  std::size_t max_payload_bytes = 1 << 20;  // a larger body is refused with 413 before the handler
  std::chrono::seconds read_timeout{30};    // waiting for a request's bytes
  std::chrono::seconds write_timeout{30};   // a client that reads nothing for this long is dropped
};

// One listening socket. bind() then listen() (which blocks until stop()); stop() from any thread.
class HttpListener {
 public:
  virtual ~HttpListener() = default;
  // The bound port; -1 after saying why in error().
  virtual int bind(const HttpListenOptions& options, HttpHandler handler) = 0;
  virtual bool listen() = 0;
  virtual void stop() = 0;
  virtual std::string error() const = 0;
};

// A listener from the HTTP server module (PLANFIRST_HTTP_SERVER_MODULE); kUnavailable naming the
// module when it cannot be loaded or is from another build.
core::Result<std::unique_ptr<HttpListener>> make_http_listener();

}  // namespace planfirst::server
