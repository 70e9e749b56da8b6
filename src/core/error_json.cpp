#include "core/error_json.hpp"

#include <nlohmann/json.hpp>

namespace planfirst::core {

Json error_json(const Error& error) {
  return Json{{"code", to_string(error.code)}, {"message", error.message}, {"where", error.where}};
}

}  // namespace planfirst::core
