// Where planfirst keeps per-user files it can rebuild: $XDG_CACHE_HOME/planfirst, else
// $HOME/.cache/planfirst; empty when neither is set (the caller then caches nothing). Pure function.
#pragma once

#include <filesystem>

#include "core/config.hpp"

namespace planfirst::core {

std::filesystem::path user_cache_dir(const Environment& env);

}  // namespace planfirst::core
