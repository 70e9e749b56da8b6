#include "pipelines/autoviz/param_value.hpp"

#include <nlohmann/json.hpp>

namespace planfirst::autoviz {
namespace {

core::Result<ParamScalar> scalar_from_json(const core::Json& json, std::string_view where) {
  if (json.is_null()) return ParamScalar(nullptr);
  if (json.is_boolean()) return ParamScalar(json.get<bool>());
  if (json.is_number_integer()) return ParamScalar(json.get<std::int64_t>());
  if (json.is_number()) return ParamScalar(json.get<double>());
  if (json.is_string()) return ParamScalar(json.get<std::string>());
  return core::invalid_argument("expected a scalar, not " + std::string(json.type_name()),
                                std::string(where));
}

core::Json scalar_to_json(const ParamScalar& scalar) {
  return std::visit([](const auto& value) { return core::Json(value); }, scalar);
}

}  // namespace

core::Result<ParamValue> ParamValue::from_json(const core::Json& json, std::string_view where) {
  ParamValue value;
  if (!json.is_array()) {
    core::Result<ParamScalar> scalar = scalar_from_json(json, where);
    if (!scalar) return scalar.error();
    value.items.push_back(std::move(*scalar));
    return value;
  }
  value.is_list = true;
  for (std::size_t i = 0; i < json.size(); ++i) {
    core::Result<ParamScalar> scalar =
        scalar_from_json(json[i], std::string(where) + "/" + std::to_string(i));
    if (!scalar) return scalar.error();
    value.items.push_back(std::move(*scalar));
  }
  return value;
}

core::Json ParamValue::to_json() const {
  if (!is_list) return items.empty() ? core::Json(nullptr) : scalar_to_json(items.front());
  core::Json array = core::Json::array();
  for (const ParamScalar& item : items) array.push_back(scalar_to_json(item));
  return array;
}

std::string text_param(const Params& params, std::string_view name) {
  auto it = params.find(name);
  if (it == params.end() || it->second.is_list || it->second.items.size() != 1) return {};
  const std::string* text = std::get_if<std::string>(&it->second.items.front());
  return text == nullptr ? std::string() : *text;
}

bool ParamValue::mentions(std::string_view text) const {
  for (const ParamScalar& item : items) {
    if (const std::string* s = std::get_if<std::string>(&item); s != nullptr && *s == text) return true;
  }
  return false;
}

core::Result<Params> params_from_json(const core::Json& json, std::string_view where) {
  if (!json.is_object())
    return core::invalid_argument("expected an object of parameters", std::string(where));
  Params params;
  for (const auto& [name, value] : json.items()) {
    core::Result<ParamValue> param = ParamValue::from_json(value, std::string(where) + "/" + name);
    if (!param) return param.error();
    params.emplace(name, std::move(*param));
  }
  return params;
}

core::Json params_to_json(const Params& params) {
  core::Json object = core::Json::object();
  for (const auto& [name, value] : params) object[name] = value.to_json();
  return object;
}

}  // namespace planfirst::autoviz
