// ProjectScope knows the words that name something of the project: the content words of the
// router's training questions of every type but CASUAL, plus the terms of
// assets/analyst/project_scope.json (people, components, metrics, document topics), compared as
// Snowball stems, minus that file's generic words and bare numbers. The router calls a question out
// of scope when none of its words is one and no type's rules match it decisively (question_router.hpp).
// Immutable after load(); threads may share one.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/asset_store.hpp"
#include "core/result.hpp"
#include "pipelines/analyst/answer.hpp"
#include "pipelines/analyst/labeled_questions.hpp"

namespace planfirst::analyst {

inline constexpr std::string_view kProjectScopeAsset = "analyst/project_scope.json";
// The intent of the plan made for an out-of-scope question (CASUAL, no retrieval).
inline constexpr std::string_view kOutOfScopeIntent = "out_of_scope";

class ProjectScope {
 public:
  // kInvalidArgument naming the asset and the key at fault. Reads the training part of `questions`.
  static core::Result<ProjectScope> load(const core::AssetStore& assets, const LabeledQuestions& questions);
  static core::Result<ProjectScope> parse(std::string_view json_text, std::string_view origin,
                                          const std::vector<LabeledQuestion>& training);

  // The words of `words` (question_words of a question) that name something of the project, in order.
  std::vector<std::string> project_words(const std::vector<std::string>& words) const;
  // The reply to an out-of-scope question: answer_v1_markdown, no citations, strategy "rules".
  Answer out_of_scope_answer() const;

  std::size_t vocabulary_size() const { return stems_.size(); }

 private:
  std::set<std::string, std::less<>> generic_;  // lower-case words, as written in the asset
  std::set<std::string, std::less<>> stems_;    // stems of the project's words
  std::string answer_;
};

}  // namespace planfirst::analyst
