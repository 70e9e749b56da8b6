// AnalystServices holds what every node of the analyst graph uses and no run changes: the router
// (rules from assets/, the fastText model trained or loaded from the cache, the project's scope),
// the rules analyst, the contracts and the output guard, the sources plans may fetch from (none
// configured: each required
// source is recorded "not configured"), the answer composer, and, when an LLM server is configured,
// the model strategies of the plan and the answer. Metrics go to a registry co-owned with whoever
// prints them. Immutable after load(); graphs and threads share one.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "contracts/contract_registry.hpp"
#include "core/asset_store.hpp"
#include "core/metrics.hpp"
#include "core/result.hpp"
#include "llm/model.hpp"
#include "llm/prompt_library.hpp"
#include "pipelines/analyst/answer_composer.hpp"
#include "pipelines/analyst/labeled_questions.hpp"
#include "pipelines/analyst/llm_analyst.hpp"
#include "pipelines/analyst/llm_answer_writer.hpp"
#include "pipelines/analyst/plan_guard.hpp"
#include "pipelines/analyst/project_scope.hpp"
#include "pipelines/analyst/question_router.hpp"
#include "pipelines/analyst/router_model.hpp"
#include "pipelines/analyst/router_rules.hpp"
#include "pipelines/analyst/rule_analyst.hpp"
#include "sources/source_map.hpp"

namespace planfirst::core {
class Config;
}

namespace planfirst::analyst {

struct AnalystOptions {
  const core::Config* config = nullptr;  // llm.* keys; nullptr: defaults (no model)
  std::string llm_base_url;              // overrides config llm.base_url when not empty
  std::filesystem::path cache_dir;       // router model cache; empty: <user cache dir>/analyst
  sources::SourceMap sources;            // the retrievers plans may name
  std::map<std::string, std::string, std::less<>> source_hints;  // source -> how to configure it
  std::shared_ptr<core::MetricsRegistry> metrics;                // null: a registry of its own
};

struct AnalystServices {
  std::optional<RouterRules> rules;                      // always set by load()
  std::optional<RouterModel> router_model;               // always set by load()
  std::optional<ProjectScope> scope;                     // always set by load()
  std::optional<QuestionRouter> router;                  // always set by load(); refers to the three above
  std::optional<RuleAnalyst> rule_analyst;               // always set by load()
  std::optional<contracts::ContractRegistry> contracts;  // always set by load()
  std::shared_ptr<core::MetricsRegistry> metrics;        // co-owned with the caller that prints it
  std::optional<PlanGuard> guard;                        // always set by load(); refers to `contracts`
  sources::SourceMap sources;
  std::map<std::string, std::string, std::less<>> source_hints;
  AnswerComposer composer;

  // Set only when an LLM server is configured; each refers to the members above it.
  std::unique_ptr<const llm::Model> model;
  std::optional<llm::PromptLibrary> prompts;
  std::optional<LlmAnalyst> llm_analyst;
  std::optional<LlmAnswerWriter> answer_writer;

  // Errors name the asset, the key or the cache folder at fault. Creating the model does not contact
  // the server; the first run trains the router model when no cached one matches the labeled set.
  static core::Result<std::shared_ptr<const AnalystServices>> load(const core::AssetStore& assets,
                                                                   AnalystOptions options = {});
};

}  // namespace planfirst::analyst
