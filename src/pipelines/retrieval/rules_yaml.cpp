#include "pipelines/retrieval/rules_yaml.hpp"

#include <charconv>
#include <cmath>

namespace planfirst::retrieval {

core::Result<RulesYaml> RulesYaml::load(const core::AssetStore& assets, std::string_view path) {
  core::Result<std::string> text = assets.read(path);
  if (!text) return text.error();
  std::string origin = assets.origin(path);
  try {
    YAML::Node root = YAML::Load(*text);
    if (!root.IsMap()) return core::invalid_argument("a rule file must be a mapping", origin);
    return RulesYaml(std::move(root), std::move(origin));
  } catch (const YAML::Exception& e) {
    return core::invalid_argument("not YAML: " + e.msg, origin + ":" + std::to_string(e.mark.line + 1));
  }
}

core::Error RulesYaml::fault(const YAML::Node& node, std::string_view message) const {
  const YAML::Mark mark = node.Mark();
  return core::invalid_argument(std::string(message),
                                mark.is_null() ? origin_ : origin_ + ":" + std::to_string(mark.line + 1));
}

YAML::Node RulesYaml::at(const YAML::Node& parent, std::string_view key) {
  if (!parent.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  for (const auto& entry : parent) {
    if (entry.first.IsScalar() && entry.first.Scalar() == key) return entry.second;
  }
  return YAML::Node(YAML::NodeType::Undefined);
}

core::Result<std::string> RulesYaml::text(const YAML::Node& node, std::string_view what) const {
  if (!node.IsScalar() || node.Scalar().empty()) return fault(node, std::string(what) + " must be a non-empty text");
  return node.Scalar();
}

core::Result<double> RulesYaml::number(const YAML::Node& node, std::string_view what) const {
  core::Result<std::string> scalar = text(node, what);
  if (!scalar) return scalar.error();
  double value = 0;
  const char* end = scalar->data() + scalar->size();
  auto [ptr, ec] = std::from_chars(scalar->data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) {
    return fault(node, std::string(what) + " must be a number, not \"" + *scalar + "\"");
  }
  return value;
}

core::Result<std::vector<std::string>> RulesYaml::texts(const YAML::Node& node, std::string_view what) const {
  std::vector<std::string> values;
  if (!node.IsDefined() || node.IsNull()) return values;
  if (!node.IsSequence()) return fault(node, std::string(what) + " must be a list");
  for (const YAML::Node& item : node) {
    core::Result<std::string> value = text(item, what);
    if (!value) return value.error();
    values.push_back(std::move(*value));
  }
  return values;
}

core::Result<std::vector<std::pair<std::string, std::string>>> RulesYaml::pairs(const YAML::Node& node,
                                                                               std::string_view what) const {
  std::vector<std::pair<std::string, std::string>> values;
  if (!node.IsDefined() || node.IsNull()) return values;
  if (!node.IsMap()) return fault(node, std::string(what) + " must be a mapping");
  for (const auto& entry : node) {
    core::Result<std::string> key = text(entry.first, what);
    if (!key) return key.error();
    core::Result<std::string> value = text(entry.second, std::string(what) + " " + *key);
    if (!value) return value.error();
    values.emplace_back(std::move(*key), std::move(*value));
  }
  return values;
}

}  // namespace planfirst::retrieval
