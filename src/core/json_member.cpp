#include "core/json_member.hpp"

#include <nlohmann/json.hpp>

namespace planfirst::core {

const Json& member_or_null(const Json& object, std::string_view key) {
  static const Json kNull;
  if (!object.is_object()) return kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

}  // namespace planfirst::core
