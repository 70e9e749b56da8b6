// RouterModel is the model half of the router (seed 000 §5): a fastText supervised classifier
// trained on the training part of the labeled question set, deterministically (one thread, seed 1,
// fixed hyper-parameters), and cached as <cache_dir>/router-<hash>.ftz where the hash covers the
// training file's bytes and the hyper-parameters; a cached file is loaded instead of retraining.
// Predicting is const and thread-safe. fastText's exceptions are caught here and become errors.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "pipelines/analyst/labeled_questions.hpp"
#include "pipelines/analyst/request_type.hpp"

namespace fasttext {
class FastText;
}

namespace planfirst::analyst {

struct ModelPrediction {
  RequestType type = RequestType::kKnowledgeQa;
  double probability = 0.0;  // the softmax probability of `type`
};

class RouterModel {
 public:
  // Loads the cached model for `questions` from `cache_dir`, or trains it and writes it there
  // (atomically). An empty `cache_dir` trains in a temporary folder and caches nothing.
  // kUnavailable when the cache folder cannot be written; kInternal when fastText fails.
  static core::Result<RouterModel> train_or_load(const LabeledQuestions& questions,
                                                 const std::filesystem::path& cache_dir);

  RouterModel(RouterModel&&) noexcept;
  RouterModel& operator=(RouterModel&&) noexcept;
  ~RouterModel();

  ModelPrediction predict(std::string_view question) const;
  // The same for a question's question_words().
  ModelPrediction predict(const std::vector<std::string>& words) const;
  const std::filesystem::path& path() const { return path_; }  // the model file (empty when not cached)
  bool loaded_from_cache() const { return loaded_from_cache_; }
  const std::string& key() const { return key_; }  // the cache key: 16 hex digits

 private:
  RouterModel() = default;
  std::unique_ptr<fasttext::FastText> model_;
  std::filesystem::path path_;
  std::string key_;
  bool loaded_from_cache_ = false;
};

// The text fastText sees for a question: its routing words (question_words) joined by single spaces.
std::string model_text(std::string_view question);
std::string model_text(const std::vector<std::string>& words);

}  // namespace planfirst::analyst
