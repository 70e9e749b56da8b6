#include "pipelines/autoviz/autoviz_services.hpp"

#include <unistd.h>

#include "core/config.hpp"
#include "core/user_dirs.hpp"
#include "embed/embedder.hpp"
#include "embed/embedder_from_config.hpp"
#include "embed/hashed_embedder.hpp"
#include "llm/openai_compatible_model.hpp"
#include "pipelines/autoviz/contract_labels.hpp"
#include "pipelines/autoviz/tools/tool_library.hpp"

namespace planfirst::autoviz {
namespace {

core::Result<std::shared_ptr<const embed::Embedder>> load_embedder(const core::Config* config,
                                                                   const core::Environment& env) {
  if (config == nullptr)
    return std::shared_ptr<const embed::Embedder>(std::make_shared<embed::HashedEmbedder>());
  core::Result<std::unique_ptr<embed::Embedder>> embedder = embed::embedder_from_config(*config, env);
  if (!embedder) return embedder.error();
  return std::shared_ptr<const embed::Embedder>(std::move(*embedder));
}

// The model strategies over the rules, when `config` names an LLM server; nothing otherwise.
core::Result<void> load_model_strategies(AutovizServices& services, const core::AssetStore& assets,
                                         const core::Config* config, const core::Environment& env) {
  if (config == nullptr || config->get_string("llm.base_url").empty()) return core::ok();
  core::Result<llm::OpenAiModelOptions> options = llm::model_options_from_config(*config, env);
  if (!options) return options.error();
  core::Result<contracts::ContractRegistry> contracts = contracts::ContractRegistry::load(assets);
  if (!contracts) return contracts.error();
  services.contracts.emplace(std::move(*contracts));
  core::Result<llm::OpenAiCompatibleModel> model =
      llm::OpenAiCompatibleModel::create(*options, *services.contracts);
  if (!model) return model.error();
  services.model = std::make_unique<const llm::OpenAiCompatibleModel>(std::move(*model));
  core::Result<llm::PromptLibrary> prompts = llm::PromptLibrary::load(assets);
  if (!prompts) return prompts.error();
  services.prompts.emplace(std::move(*prompts));
  llm::GuardOptions guard;
  guard.max_reasks = static_cast<int>(config->get_int("llm.max_reasks"));
  services.stage_model.emplace(*services.model, *services.contracts, *services.prompts, std::move(guard));
  services.model_intents.emplace(*services.stage_model, services.templates, *services.intents);
  services.model_requirements.emplace(*services.stage_model, *services.requirements);
  services.model_adapter.emplace(*services.stage_model, services.tools, services.capabilities,
                                 *services.executor, *services.adapter);
  return core::ok();
}

// The installed renderer, shared between processes for render.keep_alive_seconds (0: not shared).
// A caller without a config (a benchmark, a test) keeps renders in its own child.
SvgRendererOptions renderer_options(const core::Config* config, const core::Environment& env) {
  SvgRendererOptions options = SvgRendererOptions::installed();
  if (config == nullptr) return options;
  options.keep_alive = std::chrono::seconds(config->get_int("render.keep_alive_seconds"));
  options.runtime_dir = core::user_runtime_dir(env, ::getuid());
  return options;
}

}  // namespace

const IntentClassifier& AutovizServices::intent_classifier(bool model_reachable) const {
  return model_intents && model_reachable ? static_cast<const IntentClassifier&>(*model_intents) : *intents;
}

const RequirementExtractor& AutovizServices::requirement_extractor(bool model_reachable) const {
  return model_requirements && model_reachable ? static_cast<const RequirementExtractor&>(*model_requirements)
                                               : *requirements;
}

const PlanAdapter& AutovizServices::plan_adapter(bool model_reachable) const {
  return model_adapter && model_reachable ? static_cast<const PlanAdapter&>(*model_adapter) : *adapter;
}

core::Result<std::shared_ptr<const AutovizServices>> AutovizServices::load(
    const core::AssetStore& assets, const core::Config* config, std::shared_ptr<data::DatasetPool> datasets) {
  core::Result<ToolRegistry> tools = ToolRegistry::load(assets);
  if (!tools) return tools.error();
  core::Result<TemplateRegistry> templates = TemplateRegistry::load(assets);
  if (!templates) return templates.error();
  core::Result<CapabilityMap> capabilities = CapabilityMap::load(assets);
  if (!capabilities) return capabilities.error();
  const core::Environment env = core::process_environment();
  core::Result<std::shared_ptr<const embed::Embedder>> embedder = load_embedder(config, env);
  if (!embedder) return embedder.error();
  auto services = std::make_shared<AutovizServices>();
  services->tools = std::move(*tools);
  services->templates = std::move(*templates);
  services->capabilities = std::move(*capabilities);
  services->embedder = std::move(*embedder);
  const std::filesystem::path user_cache = core::user_cache_dir(env);
  services->cache_dir = user_cache.empty() ? user_cache : user_cache / "tools";
  services->profiles = data::ProfileCache(user_cache.empty() ? user_cache : user_cache / "profiles");
  services->datasets = datasets ? std::move(datasets) : std::make_shared<data::DatasetPool>();
  core::Result<RuleIntentClassifier> intents = RuleIntentClassifier::load(assets, services->templates);
  if (!intents) return intents.error();
  services->intents.emplace(std::move(*intents));
  core::Result<RuleRequirementExtractor> requirements = RuleRequirementExtractor::load(assets);
  if (!requirements) return requirements.error();
  services->requirements.emplace(std::move(*requirements));
  core::Result<std::vector<std::string>> outputs =
      contract_labels(assets, kRequirementsContract, kRequirementsOutputsPointer);
  if (!outputs) return outputs.error();
  services->output_labels = std::move(*outputs);
  core::Result<NarrowingOptions> narrowing = NarrowingOptions::load(assets);
  if (!narrowing) return narrowing.error();
  core::Result<ToolNarrower> narrower =
      ToolNarrower::build(services->tools, *services->embedder, services->cache_dir, std::move(*narrowing));
  if (!narrower) return narrower.error();
  services->narrower.emplace(std::move(*narrower));
  core::Result<RulePlanAdapter> adapter =
      RulePlanAdapter::load(assets, services->requirements->sort_magnitudes());
  if (!adapter) return adapter.error();
  services->adapter.emplace(std::move(*adapter));
  core::Result<StepExecutor> executor = StepExecutor::create(services->tools, ToolLibrary::builtin());
  if (!executor) return executor.error();
  services->executor.emplace(std::move(*executor));
  core::Result<ReportTemplates> report = ReportTemplates::load(assets);
  if (!report) return report.error();
  services->artifacts.emplace(SvgRenderer(renderer_options(config, env)), std::move(*report));
  if (core::Result<void> strategies = load_model_strategies(*services, assets, config, env); !strategies) {
    return strategies.error();
  }
  return std::shared_ptr<const AutovizServices>(std::move(services));
}

}  // namespace planfirst::autoviz
