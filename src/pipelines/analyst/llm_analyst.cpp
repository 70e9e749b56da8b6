#include "pipelines/analyst/llm_analyst.hpp"

#include <utility>

namespace planfirst::analyst {

core::Result<std::string> LlmAnalyst::ask(std::string_view user_query) const {
  core::Result<const llm::PromptTemplate*> prompt = prompts_.get(kAnalystPrompt);
  if (!prompt) return prompt.error();
  core::Result<std::string> text = (*prompt)->render({{"user_query", std::string(user_query)}});
  if (!text) return text.error();
  llm::CompletionRequest request;
  request.contract = (*prompt)->contract();
  request.messages = {{"user", std::move(*text)}};
  request.max_tokens = 512;
  core::Result<llm::Completion> completion = model_.complete(request);
  if (!completion) return completion.error();
  return std::move(completion->text);
}

}  // namespace planfirst::analyst
