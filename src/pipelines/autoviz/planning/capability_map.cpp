#include "pipelines/autoviz/planning/capability_map.hpp"

#include <algorithm>

#include "core/registry_yaml.hpp"

namespace planfirst::autoviz {
namespace {

// Reads a list of capabilities at `node`, each resolved to its canonical name.
core::Result<std::vector<std::string>> canonical_list(const core::RegistryYaml& file, const YAML::Node& node,
                                                      const std::string& context, const CapabilityMap& map) {
  core::Result<std::vector<std::string>> names = file.names_at(node, context);
  if (!names) return names.error();
  if (names->empty()) return file.fault(node, context, "the list is empty");
  std::vector<std::string> resolved;
  for (const std::string& name : *names) {
    std::optional<std::string> canonical = map.canonical(name);
    if (!canonical) return file.fault(node, context, "unknown capability '" + name + "'");
    if (std::find(resolved.begin(), resolved.end(), *canonical) == resolved.end())
      resolved.push_back(*canonical);
  }
  return resolved;
}

}  // namespace

core::Result<CapabilityMap> CapabilityMap::load(const core::AssetStore& assets) {
  core::Result<core::RegistryYaml> file = core::RegistryYaml::load(assets, kPath);
  if (!file) return file.error();
  return file->guarded<CapabilityMap>([&]() -> core::Result<CapabilityMap> {
    CapabilityMap map;
    core::Result<int> version = file->version();
    if (!version) return version.error();
    map.version_ = *version;

    core::Result<YAML::Node> capabilities = file->mapping(file->root(), "capabilities", "registry");
    if (!capabilities) return capabilities.error();
    for (const auto& entry : *capabilities) {
      if (!entry.second.IsScalar() || entry.second.Scalar().empty()) {
        return file->fault(entry.first, "capability " + entry.first.Scalar(), "needs a one-line description");
      }
      map.known_.emplace(entry.first.Scalar(), entry.first.Scalar());
    }

    const YAML::Node aliases = core::yaml_child(file->root(), "aliases");
    if (aliases.IsDefined()) {
      if (!aliases.IsMap())
        return file->fault(aliases, "registry", "'aliases' must be a mapping of alias: capability");
      for (const auto& entry : aliases) {
        const std::string alias = entry.first.Scalar();
        const std::string target = entry.second.IsScalar() ? entry.second.Scalar() : "";
        if (map.known_.contains(alias))
          return file->fault(entry.first, "alias " + alias, "is already a capability or alias");
        auto it = map.known_.find(target);
        if (it == map.known_.end() || it->second != target) {
          return file->fault(entry.second, "alias " + alias, "must name a capability, not '" + target + "'");
        }
        map.known_.emplace(alias, target);
      }
    }

    core::Result<YAML::Node> core_node = file->sequence(file->root(), "core", "registry");
    if (!core_node) return core_node.error();
    core::Result<std::vector<std::string>> core_set = canonical_list(*file, *core_node, "core", map);
    if (!core_set) return core_set.error();
    map.core_ = std::move(*core_set);

    core::Result<YAML::Node> requirements = file->mapping(file->root(), "requirements", "registry");
    if (!requirements) return requirements.error();
    for (const auto& entry : *requirements) {
      const std::string label = entry.first.Scalar();
      const std::string context = "requirement " + label;
      const YAML::Node& body = entry.second;
      if (!body.IsMap()) return file->fault(body, context, "must be a mapping with any_of or all_of");
      CapabilityRule rule;
      const YAML::Node any_of = core::yaml_child(body, "any_of");
      const YAML::Node all_of = core::yaml_child(body, "all_of");
      if (any_of.IsDefined() == all_of.IsDefined())
        return file->fault(body, context, "needs exactly one of any_of, all_of");
      if (any_of.IsDefined()) {
        core::Result<std::vector<std::string>> group =
            canonical_list(*file, any_of, context + " any_of", map);
        if (!group) return group.error();
        rule.all_of.push_back(std::move(*group));
      } else {
        if (!all_of.IsSequence() || all_of.size() == 0)
          return file->fault(all_of, context, "'all_of' must be a list of lists");
        for (const YAML::Node& group_node : all_of) {
          core::Result<std::vector<std::string>> group =
              canonical_list(*file, group_node, context + " all_of", map);
          if (!group) return group.error();
          rule.all_of.push_back(std::move(*group));
        }
      }
      const YAML::Node names_column = core::yaml_child(body, "names_column");
      if (names_column.IsDefined()) {
        if (!names_column.IsScalar() ||
            (names_column.Scalar() != "true" && names_column.Scalar() != "false")) {
          return file->fault(names_column, context, "'names_column' must be true or false");
        }
        rule.names_column = names_column.Scalar() == "true";
      }
      map.rules_.emplace(label, std::move(rule));
    }
    return map;
  });
}

std::vector<std::string> CapabilityMap::capabilities() const {
  std::vector<std::string> names;
  for (const auto& [name, canonical] : known_) {
    if (name == canonical) names.push_back(name);
  }
  return names;
}

std::optional<std::string> CapabilityMap::canonical(std::string_view capability) const {
  auto it = known_.find(capability);
  if (it == known_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> CapabilityMap::labels() const {
  std::vector<std::string> labels;
  for (const auto& [label, rule] : rules_) labels.push_back(label);
  return labels;
}

CapabilityRule CapabilityMap::rule_for(std::string_view label) const {
  auto it = rules_.find(label);
  if (it != rules_.end()) return it->second;
  return CapabilityRule{{core_}, false, true};
}

}  // namespace planfirst::autoviz
