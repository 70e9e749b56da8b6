// LlmAnswerWriter lets the model write the answer from the retrieved evidence (prompt
// assets/analyst/answer_prompt.md), then checks it: every "[<source>:<id>]" it cites must name a
// retrieved item, a JSON schema must parse as a JSON object, and an answer over evidence must cite
// some. A rejected or failed answer is replaced by the AnswerComposer's, with the reason in
// Answer::fallback. Immutable; threads may share one. Borrows the model: it outlives the writer.
#pragma once

#include <string_view>
#include <vector>

#include "core/asset_store.hpp"
#include "core/result.hpp"
#include "llm/model.hpp"
#include "llm/prompt_template.hpp"
#include "pipelines/analyst/answer_composer.hpp"

namespace planfirst::analyst {

inline constexpr std::string_view kAnswerPromptAsset = "analyst/answer_prompt.md";

class LlmAnswerWriter {
 public:
  static core::Result<LlmAnswerWriter> load(const core::AssetStore& assets, const llm::Model& model);

  Answer write(std::string_view user_query, const AnalystPlan& plan,
               const std::vector<sources::EvidenceItem>& evidence,
               const std::vector<SourceReport>& reports) const;

 private:
  LlmAnswerWriter(llm::PromptTemplate prompt, const llm::Model& model)
      : prompt_(std::move(prompt)), model_(&model) {}

  llm::PromptTemplate prompt_;
  const llm::Model* model_;  // borrowed; never null
  AnswerComposer composer_;
};

// The evidence as the prompt lists it: one block per item, "[<key>] <title>\n<snippet or fields>".
std::string evidence_prompt_text(const std::vector<sources::EvidenceItem>& evidence);

}  // namespace planfirst::analyst
