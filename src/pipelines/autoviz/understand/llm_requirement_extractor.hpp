// LlmRequirementExtractor is the model strategy of seed 002 §2: prompt B
// (assets/prompts/extract_requirements.md) with the question and the dataset's columns, answered
// under the requirements contract. The contract closes the analysis and output labels, so a label
// outside the set is re-asked with the error (seed §2's "block and re-run extraction"); so is a
// column the data does not have. When the guard gives up the rules extract, and the result records
// why. Immutable; threads may share one. Borrows the model and the rules: they outlive it.
#pragma once

#include <string_view>
#include <vector>

#include "contracts/validation_report.hpp"
#include "pipelines/autoviz/stage_model.hpp"
#include "pipelines/autoviz/understand/requirement_extractor.hpp"

namespace planfirst::autoviz {

class LlmRequirementExtractor final : public RequirementExtractor {
 public:
  static constexpr std::string_view kPrompt = "extract_requirements";

  LlmRequirementExtractor(const StageModel& model, const RequirementExtractor& rules)
      : model_(model), rules_(rules) {}

  // The rules' error (a question naming no column), when they answer and fail.
  core::Result<ExtractedRequirements> extract(std::string_view question,
                                              const data::SchemaProfile& profile) const override;

 private:
  const StageModel& model_;
  const RequirementExtractor& rules_;
};

// The column the aggregate tool writes when it counts rows (metrics ["*"], agg_func count).
inline constexpr std::string_view kRowCountColumn = "count";

// Every column `requirements` names (metrics, group_by, time, constraints) that `profile` lacks, at
// its JSON pointer ("/group_by/1"), keyword "column", the message listing the data's columns; a sort
// may also name kRowCountColumn.
std::vector<contracts::Violation> unknown_columns(const Requirements& requirements,
                                                  const data::SchemaProfile& profile);

}  // namespace planfirst::autoviz
