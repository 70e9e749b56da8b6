#include "pipelines/analyst/router_model.hpp"

#include <fasttext/args.h>
#include <fasttext/fasttext.h>
#include <unistd.h>

#include <exception>
#include <fstream>
#include <sstream>
#include <system_error>
#include <utility>
#include <vector>

#include "core/content_hash.hpp"
#include "core/file_text.hpp"
#include "core/join.hpp"
#include "pipelines/analyst/router_rules.hpp"

namespace planfirst::analyst {
namespace {

constexpr std::string_view kLabelPrefix = "__label__";
// Every hyper-parameter is part of the cache key; changing one retrains.
constexpr std::string_view kHyperParameters =
    "sup softmax dim=50 epoch=40 lr=0.5 wordNgrams=2 minn=3 maxn=5 bucket=20000 minCount=1 thread=1 seed=1 "
    "v1";

fasttext::Args training_args(const std::filesystem::path& input) {
  fasttext::Args args;
  args.input = input.string();
  args.model = fasttext::model_name::sup;
  args.loss = fasttext::loss_name::softmax;
  args.dim = 50;
  args.epoch = 40;
  args.lr = 0.5;
  args.wordNgrams = 2;
  args.minn = 3;
  args.maxn = 5;
  args.bucket = 20000;
  args.minCount = 1;
  args.thread = 1;
  args.seed = 1;
  args.verbose = 0;
  return args;
}

std::string training_text(const LabeledQuestions& questions) {
  std::string text;
  for (const LabeledQuestion& labeled : questions.train) {
    text += std::string(kLabelPrefix) + std::string(to_string(labeled.type)) + " " +
            model_text(labeled.question) + "\n";
  }
  return text;
}

}  // namespace

std::string model_text(std::string_view question) {
  return model_text(question_words(question));
}

std::string model_text(const std::vector<std::string>& words) {
  return core::join(words, " ");
}

RouterModel::RouterModel(RouterModel&&) noexcept = default;
RouterModel& RouterModel::operator=(RouterModel&&) noexcept = default;
RouterModel::~RouterModel() = default;

core::Result<RouterModel> RouterModel::train_or_load(const LabeledQuestions& questions,
                                                     const std::filesystem::path& cache_dir) {
  RouterModel router;
  router.key_ = core::to_hex(core::fnv1a64(kHyperParameters, core::fnv1a64(questions.text)));
  router.model_ = std::make_unique<fasttext::FastText>();
  const bool cached = !cache_dir.empty();
  const std::filesystem::path folder =
      cached ? cache_dir
             : std::filesystem::temp_directory_path() /
                   ("planfirst-router-" + std::to_string(::getpid()) + "-" + router.key_);
  const std::filesystem::path model_path = folder / ("router-" + router.key_ + ".bin");
  std::error_code ec;
  try {
    if (cached && std::filesystem::exists(model_path, ec)) {
      router.model_->loadModel(model_path.string());
      router.path_ = model_path;
      router.loaded_from_cache_ = true;
      return router;
    }
  } catch (const std::exception& e) {
    // A damaged cache file is retrained below.
  }
  std::filesystem::create_directories(folder, ec);
  if (ec) return core::unavailable("cannot create the router model folder: " + ec.message(), folder.string());
  const std::filesystem::path input = folder / ("router-" + router.key_ + ".train.txt");
  if (core::Result<void> written = core::write_file_atomically(input, training_text(questions)); !written) {
    return written.error();
  }
  const std::filesystem::path partial =
      folder / ("router-" + router.key_ + ".bin.partial-" + std::to_string(::getpid()));
  try {
    router.model_ = std::make_unique<fasttext::FastText>();
    router.model_->train(training_args(input));
    router.model_->saveModel(partial.string());
  } catch (const std::exception& e) {
    std::filesystem::remove(input, ec);
    std::filesystem::remove(partial, ec);
    return core::internal_error(std::string("fastText training failed: ") + e.what(), input.string());
  }
  std::filesystem::remove(input, ec);
  if (!cached) {
    std::filesystem::remove_all(folder, ec);
    return router;
  }
  std::filesystem::rename(partial, model_path, ec);
  if (ec) return core::unavailable("cannot write the router model: " + ec.message(), model_path.string());
  router.path_ = model_path;
  return router;
}

ModelPrediction RouterModel::predict(std::string_view question) const {
  return predict(question_words(question));
}

ModelPrediction RouterModel::predict(const std::vector<std::string>& words) const {
  std::istringstream in(model_text(words) + "\n");
  std::vector<std::pair<fasttext::real, std::string>> predictions;
  ModelPrediction prediction;
  try {
    model_->predictLine(in, predictions, 1, 0.0);
  } catch (const std::exception&) {
    return prediction;
  }
  if (predictions.empty()) return prediction;
  std::string label = predictions.front().second;
  if (label.rfind(kLabelPrefix, 0) == 0) label.erase(0, kLabelPrefix.size());
  prediction.type = parse_request_type(label).value_or(RequestType::kKnowledgeQa);
  prediction.probability = static_cast<double>(predictions.front().first);
  return prediction;
}

}  // namespace planfirst::analyst
