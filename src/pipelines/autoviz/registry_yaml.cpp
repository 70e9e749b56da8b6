#include "pipelines/autoviz/registry_yaml.hpp"

#include <charconv>
#include <nlohmann/json.hpp>
#include <set>

namespace planfirst::autoviz {
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

core::Json plain_scalar_to_json(const std::string& text) {
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") return nullptr;
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  const char* end = text.data() + text.size();
  std::int64_t integer = 0;
  if (auto [ptr, ec] = std::from_chars(text.data(), end, integer); ec == std::errc() && ptr == end) return integer;
  double number = 0;
  if (auto [ptr, ec] = std::from_chars(text.data(), end, number); ec == std::errc() && ptr == end) return number;
  return text;
}

}  // namespace

core::Result<RegistryYaml> RegistryYaml::load(const core::AssetStore& assets, std::string_view path) {
  core::Result<std::string> text = assets.read(path);
  if (!text) return text.error();
  std::string origin = assets.origin(path);
  YAML::Node root;
  try {
    root = YAML::Load(*text);
  } catch (const YAML::Exception& e) {
    return core::invalid_argument("not YAML: " + e.msg, origin + ":" + std::to_string(e.mark.line + 1));
  }
  if (!root.IsMap()) return core::invalid_argument("the file must be a mapping, not " + kind_name(root), origin);
  return RegistryYaml(std::move(root), std::move(origin));
}

std::string RegistryYaml::where(const YAML::Node& node) const {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null()) return origin_;
  return origin_ + ":" + std::to_string(mark.line + 1);
}

core::Error RegistryYaml::fault(const YAML::Node& node, std::string_view context, std::string_view message) const {
  return core::invalid_argument(std::string(context) + ": " + std::string(message), where(node));
}

core::Result<YAML::Node> RegistryYaml::mapping(const YAML::Node& parent, std::string_view key,
                                               std::string_view context) const {
  return child_of_kind(parent, key, context, YAML::NodeType::Map, "a mapping");
}

core::Result<YAML::Node> RegistryYaml::sequence(const YAML::Node& parent, std::string_view key,
                                                std::string_view context) const {
  return child_of_kind(parent, key, context, YAML::NodeType::Sequence, "a list");
}

core::Result<YAML::Node> RegistryYaml::child_of_kind(const YAML::Node& parent, std::string_view key,
                                                     std::string_view context, YAML::NodeType::value kind,
                                                     std::string_view kind_text) const {
  YAML::Node node = child(parent, key);
  if (node.Type() != kind) {
    return fault(node.IsDefined() ? node : parent, context,
                 "'" + std::string(key) + "' must be " + std::string(kind_text) + ", not " + kind_name(node));
  }
  return node;
}

core::Result<std::string> RegistryYaml::scalar(const YAML::Node& parent, std::string_view key,
                                               std::string_view context) const {
  YAML::Node node = child(parent, key);
  if (!node.IsScalar() || node.Scalar().empty()) {
    return fault(node.IsDefined() ? node : parent, context,
                 "'" + std::string(key) + "' must be a non-empty scalar, not " + kind_name(node));
  }
  return node.Scalar();
}

core::Result<std::vector<std::string>> RegistryYaml::names(const YAML::Node& parent, std::string_view key,
                                                           std::string_view context) const {
  core::Result<YAML::Node> list = sequence(parent, key, context);
  if (!list) return list.error();
  return names_at(*list, std::string(context) + " '" + std::string(key) + "'");
}

core::Result<std::vector<std::string>> RegistryYaml::names_at(const YAML::Node& node, std::string_view context) const {
  std::vector<std::string> names;
  std::set<std::string, std::less<>> seen;
  auto add = [&](const YAML::Node& item) -> core::Result<void> {
    if (!item.IsScalar() || item.Scalar().empty()) return fault(item, context, "expected a name, not " + kind_name(item));
    if (!seen.insert(item.Scalar()).second) return fault(item, context, "'" + item.Scalar() + "' is listed twice");
    names.push_back(item.Scalar());
    return core::ok();
  };
  if (node.IsSequence()) {
    for (const YAML::Node& item : node) {
      if (core::Result<void> added = add(item); !added) return added.error();
    }
  } else if (core::Result<void> added = add(node); !added) {
    return added.error();
  }
  return names;
}

core::Result<int> RegistryYaml::version() const {
  core::Result<std::string> text = scalar(root_, "version", "registry");
  if (!text) return text.error();
  int version = 0;
  const char* end = text->data() + text->size();
  if (auto [ptr, ec] = std::from_chars(text->data(), end, version); ec != std::errc() || ptr != end || version < 1) {
    return fault(child(root_, "version"), "registry", "'version' must be a positive integer, not '" + *text + "'");
  }
  return version;
}

YAML::Node child(const YAML::Node& parent, std::string_view key) {
  if (parent.IsMap()) {
    for (const auto& entry : parent) {
      if (entry.first.IsScalar() && entry.first.Scalar() == key) return entry.second;
    }
  }
  return YAML::Node(YAML::NodeType::Undefined);
}

core::Json yaml_to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      core::Json object = core::Json::object();
      for (const auto& entry : node) object[entry.first.Scalar()] = yaml_to_json(entry.second);
      return object;
    }
    case YAML::NodeType::Sequence: {
      core::Json array = core::Json::array();
      for (const YAML::Node& item : node) array.push_back(yaml_to_json(item));
      return array;
    }
    case YAML::NodeType::Scalar:
      return node.Tag() == "!" ? core::Json(node.Scalar()) : plain_scalar_to_json(node.Scalar());
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      break;
  }
  return nullptr;
}

}  // namespace planfirst::autoviz
