// RequirementExtractor is seed 002 §2: the question and the dataset's profile become Requirements
// (the contract the plan must cover), naming only columns the data has and only analysis the
// question asks for. Strategies: rules (rule_requirement_extractor.hpp) and a model under the
// requirements contract (llm_requirement_extractor.hpp), which falls back to the rules; both return
// the same value type, saying which strategy produced it.
#pragma once

#include <string_view>

#include "core/result.hpp"
#include "data/schema_profile.hpp"
#include "pipelines/autoviz/requirements.hpp"
#include "pipelines/autoviz/strategy_record.hpp"

namespace planfirst::autoviz {

struct ExtractedRequirements {
  Requirements requirements;
  StrategyRecord strategy;  // which strategy extracted them
};

class RequirementExtractor {
 public:
  virtual ~RequirementExtractor() = default;
  // kInvalidArgument when the question names no column of the data: the message lists the words
  // not understood and the table's columns.
  virtual core::Result<ExtractedRequirements> extract(std::string_view question,
                                                      const data::SchemaProfile& profile) const = 0;
};

}  // namespace planfirst::autoviz
