#include "pipelines/retrieval/json_read.hpp"

namespace planfirst::retrieval {
namespace {

const nlohmann::json& empty_array() {
  static const nlohmann::json kEmpty = nlohmann::json::array();
  return kEmpty;
}

}  // namespace

core::Result<std::string> read_string(const nlohmann::json& value, const std::string& pointer,
                                      std::string_view fallback) {
  if (value.is_null()) return std::string(fallback);
  if (!value.is_string())
    return core::invalid_argument("expected a string, not " + std::string(value.type_name()), pointer);
  return value.get<std::string>();
}

core::Result<std::vector<std::string>> read_strings(const nlohmann::json& value, const std::string& pointer) {
  std::vector<std::string> strings;
  if (value.is_null()) return strings;
  if (value.is_string()) return std::vector<std::string>{value.get<std::string>()};
  if (!value.is_array())
    return core::invalid_argument("expected a list of strings, not " + std::string(value.type_name()),
                                  pointer);
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_string()) {
      return core::invalid_argument("expected a string, not " + std::string(value[i].type_name()),
                                    pointer + "/" + std::to_string(i));
    }
    strings.push_back(value[i].get<std::string>());
  }
  return strings;
}

core::Result<const nlohmann::json*> read_array(const nlohmann::json& value, const std::string& pointer) {
  if (value.is_null()) return &empty_array();
  if (!value.is_array())
    return core::invalid_argument("expected a list, not " + std::string(value.type_name()), pointer);
  return &value;
}

}  // namespace planfirst::retrieval
