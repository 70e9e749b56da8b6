#include "core/http_module.hpp"

#include <dlfcn.h>

#include <string>

#include "core/shared_library.hpp"

namespace planfirst::core {

Result<HttpModule> HttpModule::load() {
  constexpr const char* kModule = PLANFIRST_HTTP_MODULE;
  Result<void*> opened =
      open_shared_library(kModule, "HTTP", "planfirst's HTTP module", "build it with 'make'");
  if (!opened) return opened.error();
  void* module = *opened;
  using Version = int (*)();
  const auto version = reinterpret_cast<Version>(::dlsym(module, "planfirst_http_exchange_version"));
  HttpModule api;
  api.exchange = reinterpret_cast<Exchange>(::dlsym(module, "planfirst_http_exchange"));
  if (version == nullptr || api.exchange == nullptr || version() != kHttpExchangeVersion) {
    return unavailable(std::string(kModule) + " is from another build of planfirst (rebuild with 'make')",
                       kModule);
  }
  return api;
}

}  // namespace planfirst::core
