// Where planfirst keeps per-user files it can rebuild: $XDG_CACHE_HOME/planfirst, else
// $HOME/.cache/planfirst; empty when neither is set (the caller then caches nothing). And where it
// keeps per-user sockets: $XDG_RUNTIME_DIR/planfirst, else /tmp/planfirst-<uid>. Pure functions.
#pragma once

#include <filesystem>

#include "core/config.hpp"

namespace planfirst::core {

std::filesystem::path user_cache_dir(const Environment& env);
std::filesystem::path user_runtime_dir(const Environment& env, unsigned uid);

}  // namespace planfirst::core
