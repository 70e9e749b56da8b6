// LlmAnalyst is the model strategy of the analyst plan (seed 000 §2): the prompt
// assets/prompts/analyst_plan.md rendered with the user query, sent once under contract
// analyst_plan (temperature 0). It returns the reply text as sent; PlanGuard parses, validates,
// repairs or falls back, as the seed's node does. Immutable; threads may share one. Borrows the
// model and the prompts: they outlive it.
#pragma once

#include <string>
#include <string_view>

#include "core/result.hpp"
#include "llm/model.hpp"
#include "llm/prompt_library.hpp"

namespace planfirst::analyst {

inline constexpr std::string_view kAnalystPrompt = "analyst_plan";

class LlmAnalyst {
 public:
  LlmAnalyst(const llm::Model& model, const llm::PromptLibrary& prompts) : model_(model), prompts_(prompts) {}

  // The model's error (kUnavailable for a server that is down) or the prompt's.
  core::Result<std::string> ask(std::string_view user_query) const;

 private:
  const llm::Model& model_;
  const llm::PromptLibrary& prompts_;
};

}  // namespace planfirst::analyst
