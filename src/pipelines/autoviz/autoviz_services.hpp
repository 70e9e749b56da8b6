// AutovizServices holds what every node of the autoviz graph uses: the registries read from
// assets/, the rule strategies, the model strategies when an LLM server is configured, the step
// executor with the tools' compiled params schemas, the run artifacts writer with its report
// templates and SVG renderer, the embedder and the cache folder of the tool index, and the pool
// that lends the nodes of a run their opened dataset. Nodes call a stage through
// intent_classifier(), requirement_extractor() and plan_adapter(), never knowing which strategy
// runs. Loaded once per process; immutable after load() but for the (thread-safe) dataset pool, so
// graphs and threads share one.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>

#include "contracts/contract_registry.hpp"
#include "core/asset_store.hpp"
#include "core/result.hpp"
#include "data/dataset_pool.hpp"
#include "data/profile_cache.hpp"
#include "llm/model.hpp"
#include "llm/prompt_library.hpp"
#include "pipelines/autoviz/planning/capability_map.hpp"
#include "pipelines/autoviz/planning/llm_plan_adapter.hpp"
#include "pipelines/autoviz/planning/rule_plan_adapter.hpp"
#include "pipelines/autoviz/planning/tool_narrower.hpp"
#include "pipelines/autoviz/planning/tool_registry.hpp"
#include "pipelines/autoviz/report/run_artifacts.hpp"
#include "pipelines/autoviz/tools/step_executor.hpp"
#include "pipelines/autoviz/understand/llm_intent_classifier.hpp"
#include "pipelines/autoviz/understand/llm_requirement_extractor.hpp"
#include "pipelines/autoviz/understand/rule_intent_classifier.hpp"
#include "pipelines/autoviz/understand/rule_requirement_extractor.hpp"
#include "pipelines/autoviz/understand/template_registry.hpp"

namespace planfirst::core {
class Config;
}
namespace planfirst::embed {
class Embedder;
}

namespace planfirst::autoviz {

struct AutovizServices {
  ToolRegistry tools;
  TemplateRegistry templates;
  CapabilityMap capabilities;
  std::optional<RuleIntentClassifier> intents;           // always set by load(); refers to `templates`
  std::optional<RuleRequirementExtractor> requirements;  // always set by load()
  std::optional<ToolNarrower> narrower;    // always set by load(); refers to `tools`, `embedder`
  std::optional<RulePlanAdapter> adapter;  // always set by load()
  std::optional<StepExecutor> executor;    // always set by load(); `tools`' schemas, builtin tools
  std::optional<RunArtifacts> artifacts;   // always set by load(); SVGs where bootstrap installs vega
  std::vector<std::string> output_labels;  // the requirements contract's outputs, in its order
  std::shared_ptr<const embed::Embedder> embedder;
  std::filesystem::path cache_dir;              // where the tool index is cached; empty: not cached
  data::ProfileCache profiles{{}};              // dataset files' profiles, under the user's cache folder
  std::shared_ptr<data::DatasetPool> datasets;  // always set by load(); profile and execute read through it

  // Set only when config llm.base_url names a server; each refers to the members above it.
  std::optional<contracts::ContractRegistry> contracts;
  std::unique_ptr<const llm::Model> model;
  std::optional<llm::PromptLibrary> prompts;
  std::optional<StageModel> stage_model;
  std::optional<LlmIntentClassifier> model_intents;
  std::optional<LlmRequirementExtractor> model_requirements;
  std::optional<LlmPlanAdapter> model_adapter;

  // The model strategy when a server is configured and `model_reachable`, else the rules.
  const IntentClassifier& intent_classifier(bool model_reachable = true) const;
  const RequirementExtractor& requirement_extractor(bool model_reachable = true) const;
  const PlanAdapter& plan_adapter(bool model_reachable = true) const;

  // The registries from `assets`; the embedder from `config` (embed.*; none: the built-in hashed
  // one) and the cache under the user's cache folder; the model strategies when `config` names an
  // LLM server (llm.base_url, llm.model, llm.api_key_env, llm.structured_output, llm.timeout_seconds,
  // llm.max_reasks, as `planfirst llm` reads them). Creating the model does not contact the server.
  // Errors name the asset or key at fault. `datasets`: a pool the caller may have started opening
  // the run's data in (prefetch); nullptr: a pool of its own.
  static core::Result<std::shared_ptr<const AutovizServices>> load(
      const core::AssetStore& assets, const core::Config* config,
      std::shared_ptr<data::DatasetPool> datasets = nullptr);
};

}  // namespace planfirst::autoviz
