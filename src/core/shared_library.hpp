// open_shared_library loads a library planfirst needs only on some paths (libpq, the HTTP module)
// the first time one of them runs. The library is never unmapped (RTLD_NODELETE: such libraries may
// register exit handlers). Errors: kUnavailable, "<who> needs <what>, which could not be loaded:
// <loader's reason> (<remedy>)", at `file`.
#pragma once

#include <string_view>

#include "core/result.hpp"

namespace planfirst::core {

// The handle dlopen gives for `file`; its symbols stay local to it.
Result<void*> open_shared_library(const char* file, std::string_view who, std::string_view what,
                                  std::string_view remedy);

}  // namespace planfirst::core
