// StageModel is how a planning stage asks the configured model: the stage's prompt from
// assets/prompts/ rendered with its variables, sent under the prompt's contract through ContractGuard
// (extract, validate, the stage's own ReplyCheck, re-ask with the errors), and the outcome recorded
// as a StrategyRecord. A prompt that does not render counts as the model giving up, so the stage
// falls back to its rules. Immutable; threads may share one. Borrows the model, the contracts and the
// prompts: they outlive it.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/json.hpp"
#include "data/schema_profile.hpp"
#include "llm/contract_guard.hpp"
#include "llm/prompt_library.hpp"
#include "pipelines/autoviz/strategy_record.hpp"

namespace planfirst::autoviz {

class StageModel {
 public:
  struct Answer {
    std::shared_ptr<const core::Json>
        json;               // the reply that passed the contract and the check; null: gave up
    StrategyRecord record;  // strategy "llm", or "rules" with the reason in `fallback`
  };

  StageModel(const llm::Model& model, const contracts::ContractRegistry& contracts,
             const llm::PromptLibrary& prompts, llm::GuardOptions options);

  Answer ask(std::string_view prompt, const llm::PromptVariables& variables,
             const llm::ReplyCheck& check = {}) const;

 private:
  llm::ContractGuard guard_;
  const llm::PromptLibrary& prompts_;
  std::string model_name_;
};

// The profile as the prompts show a dataset, one line per column: "- revenue (measure, DOUBLE)",
// "- region (categorical, VARCHAR): East, North, West", "- date (temporal, DATE): 2023-01-01 to 2024-12-31".
std::string dataset_schema_text(const data::SchemaProfile& profile);

}  // namespace planfirst::autoviz
