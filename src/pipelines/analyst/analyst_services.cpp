#include "pipelines/analyst/analyst_services.hpp"

#include "core/config.hpp"
#include "core/user_dirs.hpp"
#include "llm/openai_compatible_model.hpp"

namespace planfirst::analyst {
namespace {

core::Result<void> load_model_strategies(AnalystServices& services, const core::AssetStore& assets,
                                         const AnalystOptions& options) {
  const core::Config defaults;
  core::Config config = options.config != nullptr ? *options.config : defaults;
  if (!options.llm_base_url.empty()) {
    if (core::Result<void> set = config.set_flag("llm.base_url", options.llm_base_url); !set)
      return set.error();
  }
  if (config.get_string("llm.base_url").empty()) return core::ok();
  core::Result<llm::OpenAiModelOptions> model_options =
      llm::model_options_from_config(config, core::process_environment());
  if (!model_options) return model_options.error();
  core::Result<llm::OpenAiCompatibleModel> model =
      llm::OpenAiCompatibleModel::create(*model_options, *services.contracts, services.metrics.get());
  if (!model) return model.error();
  services.model = std::make_unique<const llm::OpenAiCompatibleModel>(std::move(*model));
  core::Result<llm::PromptLibrary> prompts = llm::PromptLibrary::load(assets);
  if (!prompts) return prompts.error();
  services.prompts.emplace(std::move(*prompts));
  services.llm_analyst.emplace(*services.model, *services.prompts);
  core::Result<LlmAnswerWriter> writer = LlmAnswerWriter::load(assets, *services.model);
  if (!writer) return writer.error();
  services.answer_writer.emplace(std::move(*writer));
  return core::ok();
}

}  // namespace

core::Result<std::shared_ptr<const AnalystServices>> AnalystServices::load(const core::AssetStore& assets,
                                                                           AnalystOptions options) {
  auto services = std::make_shared<AnalystServices>();
  core::Result<RouterRules> rules = RouterRules::load(assets);
  if (!rules) return rules.error();
  services->rules.emplace(std::move(*rules));
  core::Result<LabeledQuestions> questions = LabeledQuestions::load(assets);
  if (!questions) return questions.error();
  std::filesystem::path cache_dir = options.cache_dir;
  if (cache_dir.empty()) {
    const std::filesystem::path user = core::user_cache_dir(core::process_environment());
    if (!user.empty()) cache_dir = user / "analyst";
  }
  core::Result<RouterModel> model = RouterModel::train_or_load(*questions, cache_dir);
  if (!model) return model.error();
  services->router_model.emplace(std::move(*model));
  core::Result<ProjectScope> scope = ProjectScope::load(assets, *questions);
  if (!scope) return scope.error();
  services->scope.emplace(std::move(*scope));
  services->router.emplace(*services->rules, *services->router_model, &*services->scope);
  core::Result<RuleAnalyst> rule_analyst = RuleAnalyst::load(assets);
  if (!rule_analyst) return rule_analyst.error();
  services->rule_analyst.emplace(std::move(*rule_analyst));
  core::Result<contracts::ContractRegistry> contracts = contracts::ContractRegistry::load(assets);
  if (!contracts) return contracts.error();
  services->contracts.emplace(std::move(*contracts));
  services->metrics = options.metrics ? options.metrics : std::make_shared<core::MetricsRegistry>();
  services->guard.emplace(*services->contracts, AnalystMetrics(services->metrics.get()));
  services->sources = std::move(options.sources);
  services->source_hints = std::move(options.source_hints);
  if (core::Result<void> loaded = load_model_strategies(*services, assets, options); !loaded)
    return loaded.error();
  return std::shared_ptr<const AnalystServices>(std::move(services));
}

}  // namespace planfirst::analyst
