#include "pipelines/retrieval/plan_rules.hpp"

#include <algorithm>
#include <cmath>

#include "core/registry_yaml.hpp"

namespace planfirst::retrieval {
namespace {

core::Result<int> whole_number(const core::RegistryYaml& yaml, const YAML::Node& node, std::string_view what,
                               double min) {
  core::Result<double> number = yaml.number(node, what);
  if (!number) return number.error();
  if (*number != std::floor(*number) || *number < min || *number > 1e9) {
    return yaml.fault(node,
                      std::string(what) + " must be a whole number of at least " + std::to_string(int(min)));
  }
  return static_cast<int>(*number);
}

core::Result<PlanRule> plan_rule(const core::RegistryYaml& yaml, const YAML::Node& node,
                                 std::string_view intent) {
  const std::string what = "plan of " + std::string(intent);
  PlanRule plan;
  core::Result<std::string> description =
      yaml.text(core::yaml_child(node, "description"), what + " description");
  if (!description) return description.error();
  core::Result<std::vector<std::string>> sources =
      yaml.texts(core::yaml_child(node, "sources"), what + " sources");
  if (!sources) return sources.error();
  if (sources->empty()) return yaml.fault(node, what + " needs at least one source");
  core::Result<int> priority = whole_number(yaml, core::yaml_child(node, "priority"), what + " priority", 0);
  if (!priority) return priority.error();
  core::Result<std::string> kind = yaml.text(core::yaml_child(node, "kind"), what + " kind");
  if (!kind) return kind.error();
  core::Result<std::vector<std::string>> filters =
      yaml.texts(core::yaml_child(node, "filters"), what + " filters");
  if (!filters) return filters.error();
  const YAML::Node fixed = core::yaml_child(node, "fixed");
  if (fixed.IsDefined() && !fixed.IsMap()) return yaml.fault(fixed, what + " fixed must be a mapping");
  if (fixed.IsMap()) {
    for (const auto& entry : fixed) {
      core::Result<std::vector<std::string>> values =
          yaml.texts(entry.second, what + " fixed " + entry.first.Scalar());
      if (!values) return values.error();
      plan.fixed.push_back({entry.first.Scalar(), std::move(*values)});
    }
  }
  plan.description = std::move(*description);
  plan.sources = std::move(*sources);
  plan.priority = *priority;
  plan.kind = std::move(*kind);
  plan.filters = std::move(*filters);
  plan.fixed = normalized_filters(std::move(plan.fixed));
  return plan;
}

core::Result<SourceSettings> source_settings(const core::RegistryYaml& yaml, const YAML::Node& node,
                                             std::string_view name) {
  const std::string what = "source " + std::string(name);
  core::Result<int> limit = whole_number(yaml, core::yaml_child(node, "limit"), what + " limit", 1);
  if (!limit) return limit.error();
  core::Result<int> timeout =
      whole_number(yaml, core::yaml_child(node, "timeout_ms"), what + " timeout_ms", 1);
  if (!timeout) return timeout.error();
  core::Result<std::string> kind = yaml.text(core::yaml_child(node, "kind"), what + " kind");
  if (!kind) return kind.error();
  core::Result<std::vector<std::string>> fallbacks =
      yaml.texts(core::yaml_child(node, "fallbacks"), what + " fallbacks");
  if (!fallbacks) return fallbacks.error();
  return SourceSettings{static_cast<std::size_t>(*limit), std::chrono::milliseconds(*timeout),
                        std::move(*kind), std::move(*fallbacks)};
}

core::Result<ExecutionSettings> execution_settings(const core::RegistryYaml& yaml, const YAML::Node& node) {
  ExecutionSettings settings;
  core::Result<int> parallel = whole_number(yaml, core::yaml_child(node, "max_parallel"), "max_parallel", 1);
  if (!parallel) return parallel.error();
  core::Result<SourceSettings> fallback =
      source_settings(yaml, core::yaml_child(node, "default_source"), "default_source");
  if (!fallback) return fallback.error();
  const YAML::Node sources = core::yaml_child(node, "sources");
  if (!sources.IsMap()) return yaml.fault(sources, "execution sources must be a mapping");
  for (const auto& entry : sources) {
    core::Result<SourceSettings> source = source_settings(yaml, entry.second, entry.first.Scalar());
    if (!source) return source.error();
    settings.sources.emplace(entry.first.Scalar(), std::move(*source));
  }
  settings.max_parallel = static_cast<std::size_t>(*parallel);
  settings.default_source = std::move(*fallback);
  return settings;
}

core::Result<PlanRules> read_rules(const core::RegistryYaml& yaml) {
  PlanRules rules;
  const YAML::Node plans = core::yaml_child(yaml.root(), "plans");
  if (!plans.IsMap()) return yaml.fault(plans, "plans must be a mapping of intent type to plans");
  for (const auto& entry : plans) {
    const std::string intent = entry.first.Scalar();
    if (!entry.second.IsSequence()) return yaml.fault(entry.second, "plans of " + intent + " must be a list");
    std::vector<PlanRule> intent_plans;
    for (const YAML::Node& node : entry.second) {
      core::Result<PlanRule> plan = plan_rule(yaml, node, intent);
      if (!plan) return plan.error();
      intent_plans.push_back(std::move(*plan));
    }
    rules.plans.emplace(intent, std::move(intent_plans));
  }
  core::Result<PlanRule> fallback = plan_rule(yaml, core::yaml_child(yaml.root(), "fallback"), "fallback");
  if (!fallback) return fallback.error();
  core::Result<ExecutionSettings> execution =
      execution_settings(yaml, core::yaml_child(yaml.root(), "execution"));
  if (!execution) return execution.error();
  rules.fallback = std::move(*fallback);
  rules.execution = std::move(*execution);
  return rules;
}

}  // namespace

const std::vector<PlanRule>* PlanRules::plans_for(std::string_view intent) const {
  auto found = plans.find(intent);
  return found == plans.end() ? nullptr : &found->second;
}

std::string PlanRules::kind_of(std::string_view description, std::string_view source) const {
  auto serves = [&](const PlanRule& plan) {
    return plan.description == description &&
           std::find(plan.sources.begin(), plan.sources.end(), source) != plan.sources.end();
  };
  for (const auto& [intent, intent_plans] : plans) {
    for (const PlanRule& plan : intent_plans) {
      if (serves(plan)) return plan.kind;
    }
  }
  if (serves(fallback)) return fallback.kind;
  return execution.source(source).kind;
}

core::Result<PlanRules> PlanRules::load(const core::AssetStore& assets, std::string_view path) {
  core::Result<core::RegistryYaml> yaml = core::RegistryYaml::load(assets, path);
  if (!yaml) return yaml.error();
  return yaml->guarded<PlanRules>([&] { return read_rules(*yaml); });
}

}  // namespace planfirst::retrieval
