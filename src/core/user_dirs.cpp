#include "core/user_dirs.hpp"

#include <string>

namespace planfirst::core {

std::filesystem::path user_cache_dir(const Environment& env) {
  if (auto xdg = env.find("XDG_CACHE_HOME"); xdg != env.end() && !xdg->second.empty()) {
    return std::filesystem::path(xdg->second) / "planfirst";
  }
  if (auto home = env.find("HOME"); home != env.end() && !home->second.empty()) {
    return std::filesystem::path(home->second) / ".cache" / "planfirst";
  }
  return {};
}

std::filesystem::path user_runtime_dir(const Environment& env, unsigned uid) {
  if (auto xdg = env.find("XDG_RUNTIME_DIR"); xdg != env.end() && !xdg->second.empty()) {
    return std::filesystem::path(xdg->second) / "planfirst";
  }
  return std::filesystem::path("/tmp") / ("planfirst-" + std::to_string(uid));
}

}  // namespace planfirst::core
