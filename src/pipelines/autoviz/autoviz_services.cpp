#include "pipelines/autoviz/autoviz_services.hpp"

#include "core/config.hpp"
#include "embed/embedder.hpp"
#include "embed/embedder_from_config.hpp"
#include "embed/hashed_embedder.hpp"
#include "pipelines/autoviz/tool_library.hpp"

namespace planfirst::autoviz {
namespace {

// $XDG_CACHE_HOME/planfirst, else $HOME/.cache/planfirst; empty when neither is set.
std::filesystem::path user_cache_dir(const core::Environment& env) {
  if (auto xdg = env.find("XDG_CACHE_HOME"); xdg != env.end() && !xdg->second.empty()) {
    return std::filesystem::path(xdg->second) / "planfirst";
  }
  if (auto home = env.find("HOME"); home != env.end() && !home->second.empty()) {
    return std::filesystem::path(home->second) / ".cache" / "planfirst";
  }
  return {};
}

core::Result<std::shared_ptr<const embed::Embedder>> load_embedder(const core::Config* config,
                                                                  const core::Environment& env) {
  if (config == nullptr) return std::shared_ptr<const embed::Embedder>(std::make_shared<embed::HashedEmbedder>());
  core::Result<std::unique_ptr<embed::Embedder>> embedder = embed::embedder_from_config(*config, env);
  if (!embedder) return embedder.error();
  return std::shared_ptr<const embed::Embedder>(std::move(*embedder));
}

}  // namespace

core::Result<std::shared_ptr<const AutovizServices>> AutovizServices::load(const core::AssetStore& assets,
                                                                           const core::Config* config) {
  core::Result<ToolRegistry> tools = ToolRegistry::load(assets);
  if (!tools) return tools.error();
  core::Result<TemplateRegistry> templates = TemplateRegistry::load(assets);
  if (!templates) return templates.error();
  core::Result<CapabilityMap> capabilities = CapabilityMap::load(assets);
  if (!capabilities) return capabilities.error();
  const core::Environment env = core::process_environment();
  core::Result<std::shared_ptr<const embed::Embedder>> embedder = load_embedder(config, env);
  if (!embedder) return embedder.error();
  auto services = std::make_shared<AutovizServices>(AutovizServices{std::move(*tools), std::move(*templates),
                                                                    std::move(*capabilities), std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                                                                    std::nullopt, std::nullopt, std::move(*embedder), user_cache_dir(env) / "tools"});
  core::Result<RuleIntentClassifier> intents = RuleIntentClassifier::load(assets, services->templates);
  if (!intents) return intents.error();
  services->intents.emplace(std::move(*intents));
  core::Result<RuleRequirementExtractor> requirements = RuleRequirementExtractor::load(assets);
  if (!requirements) return requirements.error();
  services->requirements.emplace(std::move(*requirements));
  core::Result<NarrowingOptions> narrowing = NarrowingOptions::load(assets);
  if (!narrowing) return narrowing.error();
  core::Result<ToolNarrower> narrower =
      ToolNarrower::build(services->tools, *services->embedder, services->cache_dir, std::move(*narrowing));
  if (!narrower) return narrower.error();
  services->narrower.emplace(std::move(*narrower));
  core::Result<RulePlanAdapter> adapter = RulePlanAdapter::load(assets);
  if (!adapter) return adapter.error();
  services->adapter.emplace(std::move(*adapter));
  core::Result<StepExecutor> executor = StepExecutor::create(services->tools, ToolLibrary::builtin());
  if (!executor) return executor.error();
  services->executor.emplace(std::move(*executor));
  core::Result<ReportTemplates> report = ReportTemplates::load(assets);
  if (!report) return report.error();
  services->artifacts.emplace(SvgRenderer(SvgRendererOptions::installed()), std::move(*report));
  return std::shared_ptr<const AutovizServices>(std::move(services));
}

}  // namespace planfirst::autoviz
