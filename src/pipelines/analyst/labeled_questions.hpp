// LabeledQuestions is the router's labeled set, assets/analyst/router_questions.tsv: one
// "REQUEST_TYPE<TAB>question" per line. The split is fixed: every 5th line (5, 10, ...) is held out
// for evaluation, the rest train the model. Immutable value.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/asset_store.hpp"
#include "core/result.hpp"
#include "pipelines/analyst/request_type.hpp"

namespace planfirst::analyst {

inline constexpr std::string_view kRouterQuestionsAsset = "analyst/router_questions.tsv";
inline constexpr std::size_t kHeldOutEvery = 5;

struct LabeledQuestion {
  RequestType type = RequestType::kKnowledgeQa;
  std::string question;
  std::size_t line = 0;  // 1-based line in the file
};

struct LabeledQuestions {
  std::vector<LabeledQuestion> train;
  std::vector<LabeledQuestion> held_out;
  std::string text;  // the file's bytes, whose hash keys the cached model

  // kInvalidArgument naming the line that is not "TYPE<TAB>question" or names an unknown type.
  static core::Result<LabeledQuestions> parse(std::string_view text, std::string_view origin);
  static core::Result<LabeledQuestions> load(const core::AssetStore& assets);
};

}  // namespace planfirst::analyst
