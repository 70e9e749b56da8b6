#include "core/user_dirs.hpp"

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

}  // namespace planfirst::core
