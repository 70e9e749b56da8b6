#include "core/registry_yaml.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>

namespace planfirst::core {
namespace {

std::string kind_name(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: return "a mapping";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Scalar: return "a scalar";
    case YAML::NodeType::Null: return "empty";
    case YAML::NodeType::Undefined: break;
  }
  return "missing";
}

Json plain_scalar_to_json(const std::string& text) {
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") return nullptr;
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  const char* end = text.data() + text.size();
  std::int64_t integer = 0;
  if (auto [ptr, ec] = std::from_chars(text.data(), end, integer); ec == std::errc() && ptr == end)
    return integer;
  double number = 0;
  if (auto [ptr, ec] = std::from_chars(text.data(), end, number); ec == std::errc() && ptr == end)
    return number;
  return text;
}

}  // namespace

Result<RegistryYaml> RegistryYaml::load(const AssetStore& assets, std::string_view path) {
  Result<std::string> contents = assets.read(path);
  if (!contents) return contents.error();
  return parse(*contents, assets.origin(path));
}

Result<RegistryYaml> RegistryYaml::parse(std::string_view text, std::string origin) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    return invalid_argument("not YAML: " + e.msg, origin + ":" + std::to_string(e.mark.line + 1));
  }
  if (!root.IsMap()) return invalid_argument("the file must be a mapping, not " + kind_name(root), origin);
  return RegistryYaml(std::move(root), std::move(origin));
}

std::string RegistryYaml::where(const YAML::Node& node) const {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) return origin_;
  return origin_ + ":" + std::to_string(mark.line + 1);
}

Error RegistryYaml::fault(const YAML::Node& node, std::string_view message) const {
  return invalid_argument(std::string(message), where(node));
}

Error RegistryYaml::fault(const YAML::Node& node, std::string_view context, std::string_view message) const {
  return fault(node, std::string(context) + ": " + std::string(message));
}

Result<YAML::Node> RegistryYaml::mapping(const YAML::Node& parent, std::string_view key,
                                         std::string_view context) const {
  return child_of_kind(parent, key, context, YAML::NodeType::Map, "a mapping");
}

Result<YAML::Node> RegistryYaml::sequence(const YAML::Node& parent, std::string_view key,
                                          std::string_view context) const {
  return child_of_kind(parent, key, context, YAML::NodeType::Sequence, "a list");
}

Result<YAML::Node> RegistryYaml::child_of_kind(const YAML::Node& parent, std::string_view key,
                                               std::string_view context, YAML::NodeType::value kind,
                                               std::string_view kind_text) const {
  YAML::Node node = yaml_child(parent, key);
  if (node.Type() != kind) {
    return fault(node.IsDefined() ? node : parent, context,
                 "'" + std::string(key) + "' must be " + std::string(kind_text) + ", not " + kind_name(node));
  }
  return node;
}

Result<std::string> RegistryYaml::scalar(const YAML::Node& parent, std::string_view key,
                                         std::string_view context) const {
  YAML::Node node = yaml_child(parent, key);
  if (!node.IsScalar() || node.Scalar().empty()) {
    return fault(node.IsDefined() ? node : parent, context,
                 "'" + std::string(key) + "' must be a non-empty scalar, not " + kind_name(node));
  }
  return node.Scalar();
}

Result<std::string> RegistryYaml::optional_scalar(const YAML::Node& parent, std::string_view key,
                                                  std::string_view context) const {
  YAML::Node node = yaml_child(parent, key);
  if (!node.IsDefined() || node.IsNull()) return std::string();
  if (!node.IsScalar())
    return fault(node, context, "'" + std::string(key) + "' must be a scalar, not " + kind_name(node));
  return node.Scalar();
}

Result<std::vector<std::string>> RegistryYaml::names(const YAML::Node& parent, std::string_view key,
                                                     std::string_view context) const {
  Result<YAML::Node> list = sequence(parent, key, context);
  if (!list) return list.error();
  return names_at(*list, std::string(context) + " '" + std::string(key) + "'");
}

Result<std::vector<std::string>> RegistryYaml::names_at(const YAML::Node& node,
                                                        std::string_view context) const {
  std::vector<std::string> names;
  std::set<std::string, std::less<>> seen;
  auto add = [&](const YAML::Node& item) -> Result<void> {
    if (!item.IsScalar() || item.Scalar().empty())
      return fault(item, context, "expected a name, not " + kind_name(item));
    if (!seen.insert(item.Scalar()).second)
      return fault(item, context, "'" + item.Scalar() + "' is listed twice");
    names.push_back(item.Scalar());
    return ok();
  };
  if (node.IsSequence()) {
    for (const YAML::Node& item : node) {
      if (Result<void> added = add(item); !added) return added.error();
    }
  } else if (Result<void> added = add(node); !added) {
    return added.error();
  }
  return names;
}

Result<std::string> RegistryYaml::text(const YAML::Node& node, std::string_view what) const {
  if (!node.IsScalar() || node.Scalar().empty())
    return fault(node, std::string(what) + " must be a non-empty text");
  return node.Scalar();
}

Result<double> RegistryYaml::number(const YAML::Node& node, std::string_view what) const {
  Result<std::string> scalar = text(node, what);
  if (!scalar) return scalar.error();
  double value = 0;
  const char* end = scalar->data() + scalar->size();
  auto [ptr, ec] = std::from_chars(scalar->data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) {
    return fault(node, std::string(what) + " must be a number, not \"" + *scalar + "\"");
  }
  return value;
}

Result<std::vector<std::string>> RegistryYaml::texts(const YAML::Node& node, std::string_view what) const {
  std::vector<std::string> values;
  if (!node.IsDefined() || node.IsNull()) return values;
  if (!node.IsSequence()) return fault(node, std::string(what) + " must be a list");
  for (const YAML::Node& item : node) {
    Result<std::string> value = text(item, what);
    if (!value) return value.error();
    values.push_back(std::move(*value));
  }
  return values;
}

Result<std::vector<std::pair<std::string, std::string>>> RegistryYaml::pairs(const YAML::Node& node,
                                                                             std::string_view what) const {
  std::vector<std::pair<std::string, std::string>> values;
  if (!node.IsDefined() || node.IsNull()) return values;
  if (!node.IsMap()) return fault(node, std::string(what) + " must be a mapping");
  for (const auto& entry : node) {
    Result<std::string> key = text(entry.first, what);
    if (!key) return key.error();
    Result<std::string> value = text(entry.second, std::string(what) + " " + *key);
    if (!value) return value.error();
    values.emplace_back(std::move(*key), std::move(*value));
  }
  return values;
}

Result<int> RegistryYaml::version() const {
  Result<std::string> text = scalar(root_, "version", "registry");
  if (!text) return text.error();
  int version = 0;
  const char* end = text->data() + text->size();
  if (auto [ptr, ec] = std::from_chars(text->data(), end, version);
      ec != std::errc() || ptr != end || version < 1) {
    return fault(yaml_child(root_, "version"), "registry",
                 "'version' must be a positive integer, not '" + *text + "'");
  }
  return version;
}

YAML::Node yaml_child(const YAML::Node& parent, std::string_view key) {
  if (parent.IsMap()) {
    for (const auto& entry : parent) {
      if (entry.first.IsScalar() && entry.first.Scalar() == key) return entry.second;
    }
  }
  return YAML::Node(YAML::NodeType::Undefined);
}

Json yaml_to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      Json object = Json::object();
      for (const auto& entry : node) object[entry.first.Scalar()] = yaml_to_json(entry.second);
      return object;
    }
    case YAML::NodeType::Sequence: {
      Json array = Json::array();
      for (const YAML::Node& item : node) array.push_back(yaml_to_json(item));
      return array;
    }
    case YAML::NodeType::Scalar:
      return node.Tag() == "!" ? Json(node.Scalar()) : plain_scalar_to_json(node.Scalar());
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined: break;
  }
  return nullptr;
}

}  // namespace planfirst::core
