// RestTestServer is the loopback HTTP server under the GitLab, YouTrack and Neo4j test servers (GET and
// POST): it binds 127.0.0.1 on a free port, checks one auth header (a wrong or missing value gets 401 with
// the service's body), plays scripted replies first (the next N requests get 429 with Retry-After, 500, a
// malformed body, a delay), then asks the protocol's handler, and records every request. Thread-safe;
// destruction stops it, cutting scripted delays short.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace planfirst::test_support {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

struct RestRequest {
  std::string method;
  std::string raw_path;  // as sent, still percent-encoded: "/api/v4/projects/group%2Fapp/issues"
  std::string path;      // decoded: "/api/v4/projects/group/app/issues"
  HeaderList params;     // decoded query parameters, in order
  HeaderList headers;
  std::string body;  // as sent (POST)

  std::string header(std::string_view name) const;  // case-insensitive; "" when absent
  std::string param(std::string_view name) const;   // "" when absent
  bool has_param(std::string_view name) const;
};

struct RestReply {
  int status = 200;
  std::string body;
  HeaderList headers;
  std::chrono::milliseconds delay{0};  // wait before replying
  std::string content_type = "application/json";

  static RestReply json(int status, std::string body) { return {status, std::move(body), {}, {}}; }
  // 429 {"message": "..."} with Retry-After: `seconds`.
  static RestReply too_many_requests(int retry_after_seconds);
  RestReply&& with_delay(std::chrono::milliseconds wait) &&;
};

struct AuthCheck {
  std::string header;        // "PRIVATE-TOKEN", "Authorization"
  std::string expected;      // the value a request must carry; "" = no check
  std::string refusal_body;  // what a 401 carries, in the service's own shape
};

class RestTestServer {
 public:
  using Handler = std::function<RestReply(const RestRequest&)>;

  // Starts serving; throws std::runtime_error when it cannot bind loopback.
  RestTestServer(AuthCheck auth, Handler handler);
  ~RestTestServer();
  RestTestServer(const RestTestServer&) = delete;
  RestTestServer& operator=(const RestTestServer&) = delete;

  std::string root_url() const;  // "http://127.0.0.1:PORT"

  // The next requests (after the token check) get these replies, in order, before the handler answers.
  void script(std::vector<RestReply> replies);
  void fail_next(int count, int status);  // `count` replies of `status` with a JSON error body
  void set_token(std::string expected);   // the auth value to expect from now on

  std::vector<RestRequest> requests() const;  // every request, in order

 private:
  struct Server;
  std::unique_ptr<Server> server_;
};

// Query text "a=1&b=x%20y" decoded into pairs ('+' is a space).
HeaderList parse_query_text(std::string_view text);
std::string decode_percent(std::string_view text, bool plus_is_space);
// Seconds since 1970 for "2024-01-15", "2024-01-15T10:20:30[.fff][Z|+hh:mm]"; nullopt for anything else.
std::optional<long long> epoch_seconds(std::string_view text);

}  // namespace planfirst::test_support
