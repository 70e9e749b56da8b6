#include "support/rest_test_server.hpp"

#include <httplib.h>

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "support/loopback.hpp"

namespace planfirst::test_support {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string decode_percent(std::string_view text, bool plus_is_space) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 && hex_value(text[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
      i += 2;
    } else {
      out += plus_is_space && text[i] == '+' ? ' ' : text[i];
    }
  }
  return out;
}

std::optional<long long> epoch_seconds(std::string_view text) {
  auto number = [&](std::size_t at, std::size_t width) -> long long {
    if (at + width > text.size()) return -1;
    long long value = 0;
    for (std::size_t i = at; i < at + width; ++i) {
      if (!std::isdigit(static_cast<unsigned char>(text[i]))) return -1;
      value = value * 10 + (text[i] - '0');
    }
    return value;
  };
  const long long y = number(0, 4), m = number(5, 2), d = number(8, 2);
  if (y < 0 || m < 1 || m > 12 || d < 1 || d > 31 || text.size() < 10 || text[4] != '-' || text[7] != '-') {
    return std::nullopt;
  }
  // Days from the civil date (Howard Hinnant's algorithm).
  const long long yy = m <= 2 ? y - 1 : y;
  const long long era = yy / 400, yoe = yy - era * 400;
  const long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const long long days = era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
  if (text.size() == 10) return days * 86400;
  const long long hh = number(11, 2), mm = number(14, 2), ss = number(17, 2);
  if (text[10] != 'T' || hh < 0 || mm < 0 || ss < 0) return std::nullopt;
  std::size_t at = 19;
  if (at < text.size() && text[at] == '.') {
    ++at;
    while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) ++at;
  }
  long long offset = 0;
  if (at < text.size() && (text[at] == '+' || text[at] == '-')) {
    const long long oh = number(at + 1, 2), om = number(at + 4, 2);
    if (oh < 0 || om < 0 || text.size() != at + 6) return std::nullopt;
    offset = (oh * 3600 + om * 60) * (text[at] == '-' ? -1 : 1);
  } else if (!(at + 1 == text.size() && text[at] == 'Z') && at != text.size()) {
    return std::nullopt;
  }
  return days * 86400 + hh * 3600 + mm * 60 + ss - offset;
}

HeaderList parse_query_text(std::string_view text) {
  HeaderList params;
  while (!text.empty()) {
    const std::size_t amp = text.find('&');
    const std::string_view pair = text.substr(0, amp);
    const std::size_t eq = pair.find('=');
    if (!pair.empty()) {
      params.emplace_back(decode_percent(pair.substr(0, eq), true),
                          eq == std::string_view::npos ? "" : decode_percent(pair.substr(eq + 1), true));
    }
    text = amp == std::string_view::npos ? std::string_view() : text.substr(amp + 1);
  }
  return params;
}

std::string RestRequest::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (iequals(key, name)) return value;
  }
  return "";
}

std::string RestRequest::param(std::string_view name) const {
  for (const auto& [key, value] : params) {
    if (key == name) return value;
  }
  return "";
}

bool RestRequest::has_param(std::string_view name) const {
  return std::any_of(params.begin(), params.end(), [&](const auto& p) { return p.first == name; });
}

RestReply RestReply::too_many_requests(int retry_after_seconds) {
  RestReply reply = json(429, R"({"message":"429 Too Many Requests"})");
  reply.headers.emplace_back("Retry-After", std::to_string(retry_after_seconds));
  return reply;
}

RestReply&& RestReply::with_delay(std::chrono::milliseconds wait) && {
  delay = wait;
  return std::move(*this);
}

struct RestTestServer::Server {
  httplib::Server http;
  std::thread thread;
  int port = 0;
  Handler handler;

  mutable std::mutex mutex;
  std::condition_variable stopping_changed;
  bool stopping = false;              // guarded by mutex
  AuthCheck auth;                     // guarded by mutex
  std::deque<RestReply> scripted;     // guarded by mutex
  std::vector<RestRequest> received;  // guarded by mutex

  void handle(const httplib::Request& req, httplib::Response& res) {
    RestRequest request;
    request.method = req.method;
    const std::string_view target = req.target;
    const std::size_t question = target.find('?');
    request.raw_path = std::string(target.substr(0, question));
    request.path = decode_percent(request.raw_path, false);
    if (question != std::string_view::npos) request.params = parse_query_text(target.substr(question + 1));
    for (const auto& [name, value] : req.headers) request.headers.emplace_back(name, value);
    request.body = req.body;

    RestReply reply;
    bool answered = false;
    {
      std::lock_guard<std::mutex> lock(mutex);
      received.push_back(request);
      if (!auth.expected.empty() && request.header(auth.header) != auth.expected) {
        reply = RestReply::json(401, auth.refusal_body);
        answered = true;
      } else if (!scripted.empty()) {
        reply = std::move(scripted.front());
        scripted.pop_front();
        answered = true;
      }
    }
    if (!answered) reply = handler(request);
    if (reply.delay.count() > 0) {
      std::unique_lock<std::mutex> lock(mutex);
      stopping_changed.wait_for(lock, reply.delay, [this] { return stopping; });
    }
    res.status = reply.status;
    for (const auto& [name, value] : reply.headers) res.set_header(name, value);
    res.set_content(reply.body, reply.content_type);
  }
};

RestTestServer::RestTestServer(AuthCheck auth, Handler handler) : server_(std::make_unique<Server>()) {
  Server& s = *server_;
  s.auth = std::move(auth);
  s.handler = std::move(handler);
  s.http.Get(".*", [&s](const httplib::Request& req, httplib::Response& res) { s.handle(req, res); });
  s.http.Post(".*", [&s](const httplib::Request& req, httplib::Response& res) { s.handle(req, res); });
  s.port = start_loopback(s.http, s.thread, "RestTestServer");
}

RestTestServer::~RestTestServer() {
  {
    std::lock_guard<std::mutex> lock(server_->mutex);
    server_->stopping = true;
  }
  server_->stopping_changed.notify_all();
  stop_loopback(server_->http, server_->thread);
}

std::string RestTestServer::root_url() const {
  return "http://127.0.0.1:" + std::to_string(server_->port);
}

void RestTestServer::script(std::vector<RestReply> replies) {
  std::lock_guard<std::mutex> lock(server_->mutex);
  for (RestReply& reply : replies) server_->scripted.push_back(std::move(reply));
}

void RestTestServer::fail_next(int count, int status) {
  std::vector<RestReply> replies;
  for (int i = 0; i < count; ++i) {
    replies.push_back(
        RestReply::json(status, R"({"message":")" + std::to_string(status) + R"( scripted failure"})"));
  }
  script(std::move(replies));
}

void RestTestServer::set_token(std::string expected) {
  std::lock_guard<std::mutex> lock(server_->mutex);
  server_->auth.expected = std::move(expected);
}

std::vector<RestRequest> RestTestServer::requests() const {
  std::lock_guard<std::mutex> lock(server_->mutex);
  return server_->received;
}

}  // namespace planfirst::test_support
