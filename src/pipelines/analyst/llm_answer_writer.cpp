#include "pipelines/analyst/llm_answer_writer.hpp"

#include <nlohmann/json.hpp>
#include <utility>

#include "contracts/json_extraction.hpp"
#include "core/join.hpp"
#include "core/logging.hpp"
#include "pipelines/analyst/evidence_citation.hpp"

namespace planfirst::analyst {
namespace {

// The evidence keys a JSON answer cites, in its "evidence" list.
std::vector<std::string> evidence_ids(const core::Json& answer) {
  std::vector<std::string> ids;
  for (const core::Json& id : answer.value("evidence", core::Json::array())) {
    if (id.is_string()) ids.push_back(id.get<std::string>());
  }
  return ids;
}

// Why an answer citing `cited` may not stand; "" when it may.
std::string rejection(const std::vector<std::string>& cited,
                      const std::vector<sources::EvidenceItem>& evidence) {
  const std::vector<std::string> unknown = unknown_keys(cited, evidence);
  if (!unknown.empty()) return "cites evidence that was not retrieved: " + core::join(unknown, ", ");
  if (!evidence.empty() && cited.empty()) return "cites no evidence";
  return "";
}

}  // namespace

std::string evidence_prompt_text(const std::vector<sources::EvidenceItem>& evidence) {
  if (evidence.empty()) return "(none retrieved)\n";
  std::string text;
  for (const sources::EvidenceItem& item : evidence) {
    text += "[" + citation_key(item) + "] " + item.title + "\n";
    if (!item.snippet.empty()) text += item.snippet + "\n";
    for (const auto& [key, value] : item.fields) text += key + ": " + value + "\n";
    if (!item.provenance.query.empty()) text += "query: " + item.provenance.query + "\n";
    text += "\n";
  }
  return text;
}

core::Result<LlmAnswerWriter> LlmAnswerWriter::load(const core::AssetStore& assets, const llm::Model& model) {
  core::Result<std::string> text = assets.read(kAnswerPromptAsset);
  if (!text) return text.error();
  core::Result<llm::PromptTemplate> prompt =
      llm::PromptTemplate::parse(*text, assets.origin(kAnswerPromptAsset));
  if (!prompt) return prompt.error();
  return LlmAnswerWriter(std::move(*prompt), model);
}

Answer LlmAnswerWriter::write(std::string_view user_query, const AnalystPlan& plan,
                              const std::vector<sources::EvidenceItem>& evidence,
                              const std::vector<SourceReport>& reports) const {
  Answer composed = composer_.compose(user_query, plan, evidence, reports);
  if (plan.request_type == RequestType::kCasual || plan.expected_output_schema == "clarification_v1")
    return composed;
  core::Result<std::string> prompt = prompt_.render({{"user_query", std::string(user_query)},
                                                     {"expected_output_schema", plan.expected_output_schema},
                                                     {"evidence", evidence_prompt_text(evidence)}});
  std::string reason;
  if (!prompt) {
    reason = prompt.error().describe();
  } else {
    llm::CompletionRequest request;
    request.messages = {{"user", std::move(*prompt)}};
    request.max_tokens = 1024;
    core::Result<llm::Completion> completion = model_->complete(request);
    if (!completion) {
      reason = "model error: " + completion.error().describe();
    } else {
      Answer answer = composed;
      answer.strategy = "llm";
      if (answer.format == "json") {  // the JSON schemas cite in their "evidence" list
        contracts::ExtractOptions options;
        options.objects_only = true;
        const contracts::ExtractedJson json = contracts::extract_first_json(completion->text, options);
        if (json) {
          answer.text = json->dump(2);
          answer.citations = evidence_ids(*json);
        } else {
          reason = "the answer is not a JSON object";
        }
      } else {
        answer.text = completion->text;
        answer.citations = citations_in(completion->text);
      }
      if (reason.empty()) reason = rejection(answer.citations, evidence);
      if (reason.empty()) return answer;
    }
  }
  core::log_warn("analyst answer: the model's answer was rejected, composing from the evidence: {}", reason);
  composed.fallback = std::move(reason);
  return composed;
}

}  // namespace planfirst::analyst
