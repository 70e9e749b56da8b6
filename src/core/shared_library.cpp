#include "core/shared_library.hpp"

#include <dlfcn.h>

#include <string>

namespace planfirst::core {

Result<void*> open_shared_library(const char* file, std::string_view who, std::string_view what,
                                  std::string_view remedy) {
  void* library = ::dlopen(file, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (library != nullptr) return library;
  const char* reason = ::dlerror();
  return unavailable(std::string(who) + " needs " + std::string(what) + ", which could not be loaded: " +
                         (reason != nullptr ? reason : file) + " (" + std::string(remedy) + ")",
                     file);
}

}  // namespace planfirst::core
