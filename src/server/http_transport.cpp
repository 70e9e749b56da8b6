#include "server/http_transport.hpp"

#include <dlfcn.h>

#include <string>

#include "core/ascii_case.hpp"
#include "core/shared_library.hpp"

namespace planfirst::server {
namespace {

std::string value_of(const NameValues& values, std::string_view name, bool ignore_case) {
  for (const auto& [key, value] : values) {
    if (ignore_case ? core::iequals_ascii(key, name) : key == name) return value;
  }
  return {};
}

}  // namespace

std::string HttpRequest::header(std::string_view name) const {
  return value_of(headers, name, true);
}

std::string HttpRequest::query_value(std::string_view name) const {
  return value_of(query, name, false);
}

bool HttpRequest::has_query(std::string_view name) const {
  for (const auto& entry : query) {
    if (entry.first == name) return true;
  }
  return false;
}

core::Result<std::unique_ptr<HttpListener>> make_http_listener() {
  constexpr const char* kModule = PLANFIRST_HTTP_SERVER_MODULE;
  core::Result<void*> opened = core::open_shared_library(
      kModule, "planfirst serve", "planfirst's HTTP server module", "build it with 'make'");
  if (!opened) return opened.error();
  using Version = int (*)();
  using Create = HttpListener* (*)();
  const auto version = reinterpret_cast<Version>(::dlsym(*opened, "planfirst_http_server_version"));
  const auto create = reinterpret_cast<Create>(::dlsym(*opened, "planfirst_http_server_create"));
  if (version == nullptr || create == nullptr || version() != kHttpListenerVersion) {
    return core::unavailable(
        std::string(kModule) + " is from another build of planfirst (rebuild with 'make')", kModule);
  }
  return std::unique_ptr<HttpListener>(create());
}

}  // namespace planfirst::server
