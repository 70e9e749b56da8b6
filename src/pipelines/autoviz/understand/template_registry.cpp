#include "pipelines/autoviz/understand/template_registry.hpp"

#include <algorithm>

#include "core/registry_yaml.hpp"
#include "pipelines/autoviz/contract_labels.hpp"

namespace planfirst::autoviz {
namespace {

core::Result<PlanTemplate> read_template(const core::RegistryYaml& file, const std::string& name,
                                         const YAML::Node& node) {
  const std::string context = "template " + name;
  if (!node.IsMap()) return file.fault(node, context, "must be a mapping with description and steps");
  PlanTemplate plan_template;
  plan_template.name = name;
  core::Result<std::string> description = file.scalar(node, "description", context);
  if (!description) return description.error();
  plan_template.description = std::move(*description);
  core::Result<YAML::Node> steps = file.sequence(node, "steps", context);
  if (!steps) return steps.error();
  for (const YAML::Node& step_node : *steps) {
    TemplateStep step;
    if (step_node.IsScalar()) {
      step.tool = step_node.Scalar();
    } else {
      core::Result<std::string> tool = file.scalar(step_node, "tool", context + " step");
      if (!tool) return tool.error();
      step.tool = std::move(*tool);
      const YAML::Node optional = core::yaml_child(step_node, "optional");
      if (optional.IsDefined()) {
        if (!optional.IsScalar() || (optional.Scalar() != "true" && optional.Scalar() != "false")) {
          return file.fault(optional, context, "'optional' must be true or false");
        }
        step.optional = optional.Scalar() == "true";
      }
    }
    if (step.tool.empty()) return file.fault(step_node, context, "a step needs a tool");
    plan_template.steps.push_back(std::move(step));
  }
  if (plan_template.steps.empty()) return file.fault(*steps, context, "'steps' is empty");
  return plan_template;
}

}  // namespace

std::vector<std::string> PlanTemplate::tools() const {
  std::vector<std::string> tools;
  for (const TemplateStep& step : steps) {
    if (std::ranges::find(tools, step.tool) == tools.end()) tools.push_back(step.tool);
  }
  return tools;
}

core::Result<TemplateRegistry> TemplateRegistry::load(const core::AssetStore& assets) {
  core::Result<std::vector<std::string>> known_intents =
      contract_labels(assets, kIntentContract, kIntentPointer);
  if (!known_intents) return known_intents.error();
  core::Result<core::RegistryYaml> file = core::RegistryYaml::load(assets, kPath);
  if (!file) return file.error();
  return file->guarded<TemplateRegistry>([&]() -> core::Result<TemplateRegistry> {
    TemplateRegistry registry;
    core::Result<int> version = file->version();
    if (!version) return version.error();
    registry.version_ = *version;

    core::Result<YAML::Node> templates = file->mapping(file->root(), "templates", "registry");
    if (!templates) return templates.error();
    for (const auto& entry : *templates) {
      core::Result<PlanTemplate> plan_template = read_template(*file, entry.first.Scalar(), entry.second);
      if (!plan_template) return plan_template.error();
      registry.templates_.emplace(entry.first.Scalar(), std::move(*plan_template));
    }

    core::Result<YAML::Node> intents = file->mapping(file->root(), "intents", "registry");
    if (!intents) return intents.error();
    for (const auto& entry : *intents) {
      const std::string intent = entry.first.Scalar();
      if (std::ranges::find(*known_intents, intent) == known_intents->end()) {
        return file->fault(entry.first, "intent " + intent, "is not in the intent contract's closed set");
      }
      const std::string target = entry.second.IsScalar() ? entry.second.Scalar() : "";
      if (!registry.templates_.contains(target)) {
        return file->fault(entry.second, "intent " + intent, "names no template under 'templates'");
      }
      registry.intents_.emplace(intent, target);
    }
    for (const std::string& intent : *known_intents) {
      if (!registry.intents_.contains(intent)) {
        return file->fault(*intents, "intents",
                           "intent '" + intent + "' of the intent contract has no template");
      }
    }
    return registry;
  });
}

std::vector<std::string> TemplateRegistry::intents() const {
  std::vector<std::string> intents;
  for (const auto& [intent, name] : intents_) intents.push_back(intent);
  return intents;
}

const PlanTemplate* TemplateRegistry::for_intent(std::string_view intent) const {
  auto it = intents_.find(intent);
  return it == intents_.end() ? nullptr : find(it->second);
}

const PlanTemplate* TemplateRegistry::find(std::string_view template_name) const {
  auto it = templates_.find(template_name);
  return it == templates_.end() ? nullptr : &it->second;
}

}  // namespace planfirst::autoviz
