// The HTTP server module (server/http_transport.hpp): one cpp-httplib server behind HttpListener,
// with a connection pool sized for open streams, a payload limit and JSON bodies for the errors
// httplib answers itself (413, 404 of a bad request line). Built as a shared module of its own, so
// only `planfirst serve` loads httplib and OpenSSL.
#include <httplib.h>

#include <memory>
#include <string>

#include "server/http_transport.hpp"

namespace {

using planfirst::server::HttpHandler;
using planfirst::server::HttpListener;
using planfirst::server::HttpListenOptions;
using planfirst::server::HttpRequest;
using planfirst::server::HttpResponse;

std::string json_error(int status) {
  const std::string code = status == 413 ? "payload_too_large" : "http_" + std::to_string(status);
  const std::string message = status == 413
                                  ? "the request body is larger than the server accepts"
                                  : "the request was refused with HTTP status " + std::to_string(status);
  return R"({"error":{"code":")" + code + R"(","message":")" + message + R"("}})";
}

HttpRequest to_request(const httplib::Request& from) {
  HttpRequest request;
  request.method = from.method;
  request.path = from.path;
  for (const auto& [name, value] : from.params) request.query.emplace_back(name, value);
  for (const auto& [name, value] : from.headers) request.headers.emplace_back(name, value);
  request.body = from.body;
  request.remote_address = from.remote_addr;
  return request;
}

void write_response(HttpResponse response, httplib::Response& to) {
  to.status = response.status;
  for (const auto& [name, value] : response.headers) to.set_header(name, value);
  if (!response.stream) {
    to.set_content(response.body, response.content_type.c_str());
    return;
  }
  auto stream = std::make_shared<std::function<void(const planfirst::server::ChunkWriter&)>>(
      std::move(response.stream));
  to.set_chunked_content_provider(response.content_type, [stream](std::size_t, httplib::DataSink& sink) {
    (*stream)([&sink](std::string_view chunk) {
      return sink.is_writable() && sink.write(chunk.data(), chunk.size());
    });
    sink.done();
    return true;
  });
}

class HttplibListener final : public HttpListener {
 public:
  int bind(const HttpListenOptions& options, HttpHandler handler) override {
    const std::size_t threads = options.threads == 0 ? 1 : options.threads;
    server_.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
    server_.set_payload_max_length(options.max_payload_bytes);
    server_.set_read_timeout(options.read_timeout);
    server_.set_write_timeout(options.write_timeout);
    server_.set_tcp_nodelay(true);
    auto dispatch = [handler = std::move(handler)](const httplib::Request& request,
                                                   httplib::Response& response) {
      write_response(handler(to_request(request)), response);
    };
    server_.Get(".*", dispatch);
    server_.Post(".*", dispatch);
    server_.Put(".*", dispatch);
    server_.Patch(".*", dispatch);
    server_.Delete(".*", dispatch);
    server_.Options(".*", dispatch);
    server_.set_error_handler([](const httplib::Request&, httplib::Response& response) {
      if (response.body.empty()) response.set_content(json_error(response.status), "application/json");
    });
    server_.set_exception_handler(
        [](const httplib::Request&, httplib::Response& response, std::exception_ptr) {
          response.status = 500;
          response.set_content(R"({"error":{"code":"internal","message":"unexpected failure"}})",
                               "application/json");
        });
    const int port = options.port == 0
                         ? server_.bind_to_any_port(options.host)
                         : (server_.bind_to_port(options.host, options.port) ? options.port : -1);
    if (port < 0) error_ = "cannot listen on " + options.host + ":" + std::to_string(options.port);
    return port;
  }

  bool listen() override { return server_.listen_after_bind(); }
  void stop() override { server_.stop(); }
  std::string error() const override { return error_; }

 private:
  httplib::Server server_;
  std::string error_;
};

}  // namespace

extern "C" __attribute__((visibility("default"))) int planfirst_http_server_version() {
  return planfirst::server::kHttpListenerVersion;
}

extern "C" __attribute__((visibility("default"))) HttpListener* planfirst_http_server_create() {
  return new HttplibListener();
}
