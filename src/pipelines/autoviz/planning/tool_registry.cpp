#include "pipelines/autoviz/planning/tool_registry.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "contracts/contract.hpp"
#include "core/registry_yaml.hpp"

namespace planfirst::autoviz {
namespace {

constexpr std::string_view kJsonTypes[] = {"array",  "boolean", "integer", "null",
                                           "number", "object",  "string"};

bool is_json_type(const core::Json& type) {
  auto known = [](const core::Json& name) {
    return name.is_string() && std::ranges::find(kJsonTypes, name.get<std::string>()) != std::end(kJsonTypes);
  };
  if (type.is_array()) return !type.empty() && std::ranges::all_of(type, known);
  return known(type);
}

// Checks that `schema` (read at `node`) describes an object of named parameters, and fills the
// spec's schema text and parameter names.
core::Result<void> read_params(const core::RegistryYaml& file, const YAML::Node& node,
                               const std::string& context, ToolSpec& spec) {
  if (!node.IsMap()) return file.fault(node, context, "'params' must be a JSON Schema object (a mapping)");
  const core::Json schema = core::yaml_to_json(node);
  if (schema.value("type", core::Json()) != "object") {
    return file.fault(node, context, "'params' must declare type: object");
  }
  const YAML::Node properties = core::yaml_child(node, "properties");
  if (!properties.IsMap())
    return file.fault(node, context, "'params.properties' must be a mapping of parameter schemas");
  for (const auto& [name, property] : schema["properties"].items()) {
    const YAML::Node at = core::yaml_child(properties, name);
    if (!property.is_object())
      return file.fault(at, context, "parameter '" + name + "' must be a schema (a mapping)");
    if (!property.contains("type") && !property.contains("enum") && !property.contains("const")) {
      return file.fault(at, context, "parameter '" + name + "' needs a type, enum or const");
    }
    if (property.contains("type") && !is_json_type(property["type"])) {
      return file.fault(at, context,
                        "parameter '" + name + "' has an unknown type " + property["type"].dump());
    }
    spec.param_names.push_back(name);
  }
  if (schema.contains("required")) {
    core::Result<std::vector<std::string>> required = file.names(node, "required", context + " params");
    if (!required) return required.error();
    for (const std::string& name : *required) {
      if (!schema["properties"].contains(name)) {
        return file.fault(core::yaml_child(node, "required"), context,
                          "required parameter '" + name + "' is not in properties");
      }
    }
    spec.required_params = std::move(*required);
  }
  spec.params_schema = schema.dump();
  if (core::Result<contracts::Contract> compiled =
          contracts::Contract::compile(spec.name, spec.params_schema);
      !compiled) {
    return file.fault(node, context, "'params' is not a JSON Schema: " + compiled.error().message);
  }
  return core::ok();
}

core::Result<ToolSpec> read_tool(const core::RegistryYaml& file, const YAML::Node& node) {
  if (!node.IsMap()) return file.fault(node, "tools", "each tool must be a mapping");
  core::Result<std::string> name = file.scalar(node, "name", "tool");
  if (!name) return name.error();
  const std::string context = "tool " + *name;
  ToolSpec spec;
  spec.name = *name;
  core::Result<std::string> description = file.scalar(node, "description", context);
  if (!description) return description.error();
  spec.description = std::move(*description);
  for (auto [key, target] : {std::pair{"capabilities", &spec.capabilities}, std::pair{"inputs", &spec.inputs},
                             std::pair{"outputs", &spec.outputs}}) {
    core::Result<std::vector<std::string>> values = file.names(node, key, context);
    if (!values) return values.error();
    if (values->empty() && std::string_view(key) != "inputs")
      return file.fault(core::yaml_child(node, key), context, std::string("'") + key + "' is empty");
    *target = std::move(*values);
  }
  const YAML::Node params = core::yaml_child(node, "params");
  if (!params.IsDefined()) return file.fault(node, context, "'params' is missing");
  if (core::Result<void> read = read_params(file, params, context, spec); !read) return read.error();
  return spec;
}

}  // namespace

core::Result<ToolRegistry> ToolRegistry::load(const core::AssetStore& assets) {
  core::Result<core::RegistryYaml> file = core::RegistryYaml::load(assets, kPath);
  if (!file) return file.error();
  return file->guarded<ToolRegistry>([&]() -> core::Result<ToolRegistry> {
    ToolRegistry registry;
    core::Result<int> version = file->version();
    if (!version) return version.error();
    registry.version_ = *version;
    core::Result<YAML::Node> tools = file->sequence(file->root(), "tools", "registry");
    if (!tools) return tools.error();
    for (const YAML::Node& node : *tools) {
      core::Result<ToolSpec> spec = read_tool(*file, node);
      if (!spec) return spec.error();
      if (!registry.index_.emplace(spec->name, registry.tools_.size()).second) {
        return file->fault(node, "tool " + spec->name, "the name is used by an earlier tool");
      }
      registry.tools_.push_back(std::move(*spec));
    }
    if (registry.tools_.empty()) return file->fault(*tools, "registry", "'tools' is empty");
    return registry;
  });
}

const ToolSpec* ToolRegistry::find(std::string_view name) const {
  auto it = index_.find(name);
  return it == index_.end() ? nullptr : &tools_[it->second];
}

std::vector<std::string> ToolRegistry::names() const {
  std::vector<std::string> names;
  for (const ToolSpec& tool : tools_) names.push_back(tool.name);
  return names;
}

}  // namespace planfirst::autoviz
