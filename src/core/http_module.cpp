#include "core/http_module.hpp"

#include <dlfcn.h>

#include <string>

namespace planfirst::core {

Result<HttpModule> HttpModule::load() {
  constexpr const char* kModule = PLANFIRST_HTTP_MODULE;
  // RTLD_NODELETE: OpenSSL registers exit handlers, so the module must never be unmapped.
  void* module = ::dlopen(kModule, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (module == nullptr) {
    const char* reason = ::dlerror();
    return unavailable(std::string("HTTP needs planfirst's HTTP module, which could not be loaded: ") +
                           (reason != nullptr ? reason : kModule) + " (build it with 'make')",
                       kModule);
  }
  using Version = int (*)();
  const auto version = reinterpret_cast<Version>(::dlsym(module, "planfirst_http_exchange_version"));
  HttpModule api;
  api.exchange = reinterpret_cast<Exchange>(::dlsym(module, "planfirst_http_exchange"));
  if (version == nullptr || api.exchange == nullptr || version() != kHttpExchangeVersion) {
    return unavailable(std::string(kModule) + " is from another build of planfirst (rebuild with 'make')", kModule);
  }
  return api;
}

}  // namespace planfirst::core
