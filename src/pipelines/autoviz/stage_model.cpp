#include "pipelines/autoviz/stage_model.hpp"

#include <nlohmann/json.hpp>
#include <utility>

#include "core/join.hpp"

namespace planfirst::autoviz {

StageModel::StageModel(const llm::Model& model, const contracts::ContractRegistry& contracts,
                       const llm::PromptLibrary& prompts, llm::GuardOptions options)
    : guard_(model, contracts, std::move(options)), prompts_(prompts), model_name_(model.name()) {}

StageModel::Answer StageModel::ask(std::string_view prompt, const llm::PromptVariables& variables,
                                   const llm::ReplyCheck& check) const {
  Answer answer;
  answer.record.model = model_name_;
  core::Result<const llm::PromptTemplate*> found = prompts_.get(prompt);
  core::Result<std::string> text =
      found ? (*found)->render(variables) : core::Result<std::string>(found.error());
  if (!text) {
    answer.record.fallback = text.error().describe();
    return answer;
  }
  llm::CompletionRequest request;
  request.contract = (*found)->contract();
  request.messages = {{"user", std::move(*text)}};
  request.max_tokens = 2048;
  llm::GuardedCompletion reply = guard_.generate(std::move(request), check);
  if (!reply) {
    answer.record.attempts = static_cast<int>(reply.failure().attempts.size());
    answer.record.fallback = reply.failure().describe();
    const std::optional<core::Error>& error = reply.failure().model_error;
    answer.record.unreachable = error && error->code == core::ErrorCode::kUnavailable;
    return answer;
  }
  answer.record.strategy = "llm";
  answer.record.attempts = reply->attempts;
  answer.json = reply->json;
  return answer;
}

std::string dataset_schema_text(const data::SchemaProfile& profile) {
  std::string text;
  for (const data::ColumnProfile& column : profile.columns) {
    text +=
        "- " + column.name + " (" + std::string(data::to_string(column.role)) + ", " + column.sql_type + ")";
    if (column.role == data::ColumnRole::kCategorical && !column.samples.empty()) {
      text += ": " + core::join(column.samples);
    } else if (column.span) {
      text += ": " + column.span->first + " to " + column.span->last;
    }
    text += "\n";
  }
  return text;
}

}  // namespace planfirst::autoviz
