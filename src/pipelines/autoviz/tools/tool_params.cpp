#include "pipelines/autoviz/tools/tool_params.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/join.hpp"

namespace planfirst::autoviz {
namespace {

core::Result<data::Value> scalar_value(const core::Json& json) {
  if (json.is_null()) return data::Value();
  if (json.is_boolean()) return data::Value(json.get<bool>());
  if (json.is_number_integer()) return data::Value(json.get<std::int64_t>());
  if (json.is_number()) return data::Value(json.get<double>());
  if (json.is_string()) return data::Value(json.get<std::string>());
  return core::invalid_argument("expected a scalar (null, boolean, number or string)");
}

}  // namespace

const core::Json* ToolParams::find(std::string_view name) const {
  if (!params_.is_object()) return nullptr;
  auto it = params_.find(name);
  return it == params_.end() ? nullptr : &*it;
}

bool ToolParams::has(std::string_view name) const {
  const core::Json* json = find(name);
  return json != nullptr && !json->is_null();
}

core::Error ToolParams::error(std::string_view name, std::string_view message) const {
  return core::invalid_argument(fmt::format("{}: param '{}': {}", tool_, name, message),
                                fmt::format("{}.{}", tool_, name));
}

core::Result<void> ToolParams::check_names(const std::vector<std::string_view>& accepted) const {
  if (params_.is_null()) return core::ok();
  if (!params_.is_object()) {
    return core::invalid_argument(fmt::format("{}: params must be a JSON object", tool_), tool_);
  }
  for (const auto& [key, unused] : params_.items()) {
    bool known = false;
    for (std::string_view name : accepted) known = known || name == key;
    if (!known) return error(key, fmt::format("unknown param; {} accepts: {}", tool_, core::join(accepted)));
  }
  return core::ok();
}

core::Result<std::string> ToolParams::string(std::string_view name) const {
  const core::Json* json = find(name);
  if (json == nullptr || json->is_null()) return error(name, "required");
  if (!json->is_string() || json->get<std::string>().empty())
    return error(name, "expected a non-empty string");
  return json->get<std::string>();
}

core::Result<std::optional<std::string>> ToolParams::optional_string(std::string_view name) const {
  if (!has(name)) return std::optional<std::string>();
  core::Result<std::string> text = string(name);
  if (!text) return text.error();
  return std::optional<std::string>(*text);
}

core::Result<std::string> ToolParams::choice(std::string_view name,
                                             const std::vector<std::string_view>& allowed,
                                             std::string_view fallback) const {
  if (!has(name)) return std::string(fallback);
  core::Result<std::string> text = string(name);
  if (!text) return text.error();
  for (std::string_view option : allowed) {
    if (option == *text) return text;
  }
  return error(name, fmt::format("'{}' is not one of: {}", *text, core::join(allowed)));
}

core::Result<std::vector<std::string>> ToolParams::strings(std::string_view name) const {
  std::vector<std::string> out;
  if (!has(name)) return out;
  const core::Json& json = *find(name);
  if (json.is_string()) return std::vector<std::string>{json.get<std::string>()};
  if (!json.is_array()) return error(name, "expected a list of strings");
  for (const core::Json& item : json) {
    if (!item.is_string() || item.get<std::string>().empty())
      return error(name, "expected a list of strings");
    out.push_back(item.get<std::string>());
  }
  return out;
}

core::Result<std::int64_t> ToolParams::integer(std::string_view name, std::int64_t fallback,
                                               std::int64_t minimum) const {
  if (!has(name)) return fallback;
  const core::Json& json = *find(name);
  if (!json.is_number_integer()) return error(name, "expected an integer");
  const auto number = json.get<std::int64_t>();
  if (number < minimum) return error(name, fmt::format("must be at least {}", minimum));
  return number;
}

core::Result<double> ToolParams::number(std::string_view name, double fallback) const {
  if (!has(name)) return fallback;
  const core::Json& json = *find(name);
  if (!json.is_number()) return error(name, "expected a number");
  return json.get<double>();
}

core::Result<std::vector<double>> ToolParams::numbers(std::string_view name,
                                                      std::vector<double> fallback) const {
  if (!has(name)) return fallback;
  const core::Json& json = *find(name);
  if (!json.is_array() || json.empty()) return error(name, "expected a non-empty list of numbers");
  std::vector<double> out;
  for (const core::Json& item : json) {
    if (!item.is_number()) return error(name, "expected a non-empty list of numbers");
    out.push_back(item.get<double>());
  }
  return out;
}

core::Result<bool> ToolParams::boolean(std::string_view name, bool fallback) const {
  if (!has(name)) return fallback;
  const core::Json& json = *find(name);
  if (!json.is_boolean()) return error(name, "expected true or false");
  return json.get<bool>();
}

core::Result<data::Value> ToolParams::value(std::string_view name) const {
  const core::Json* json = find(name);
  if (json == nullptr) return error(name, "required");
  core::Result<data::Value> scalar = scalar_value(*json);
  if (!scalar) return error(name, scalar.error().message);
  return scalar;
}

core::Result<std::vector<data::Value>> ToolParams::values(std::string_view name) const {
  const core::Json* json = find(name);
  if (json == nullptr) return error(name, "required");
  if (!json->is_array()) {
    core::Result<data::Value> one = value(name);
    if (!one) return one.error();
    return std::vector<data::Value>{*one};
  }
  std::vector<data::Value> out;
  for (const core::Json& item : *json) {
    core::Result<data::Value> scalar = scalar_value(item);
    if (!scalar) return error(name, "expected a list of scalars");
    out.push_back(*scalar);
  }
  return out;
}

}  // namespace planfirst::autoviz
