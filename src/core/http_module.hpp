// HttpModule is planfirst's HTTP transport (cpp-httplib with OpenSSL), built as its own shared
// module and loaded on first use: a command that never talks HTTP never loads TLS and the libraries
// it needs (~6-9 ms of every process start). An immutable value; the module stays loaded once
// loaded. Errors: kUnavailable naming the module file.
#pragma once

#include "core/http_exchange.hpp"
#include "core/result.hpp"

namespace planfirst::core {

struct HttpModule {
  using Exchange = void (*)(const HttpExchangeRequest* request, HttpExchangeResult* result);

  // The module built beside this program (PLANFIRST_HTTP_MODULE), checked for kHttpExchangeVersion.
  static Result<HttpModule> load();

  Exchange exchange = nullptr;
};

}  // namespace planfirst::core
