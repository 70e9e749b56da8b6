#include "pipelines/retrieval/intent_detector.hpp"

#include <algorithm>
#include <cmath>

#include "core/stems.hpp"

namespace planfirst::retrieval {
namespace {

// Each word of a rule phrase as the question's tokens will read: tokenized (a word may split,
// "what's" -> what, s) and stemmed; "*" stays a wildcard.
std::vector<std::string> stems_of_phrase(const Words& words, core::Stemmer& stemmer) {
  std::vector<std::string> stems;
  for (const std::string& word : words) {
    if (word == "*") {
      stems.push_back(word);
      continue;
    }
    for (std::string& stem : core::stems_of_text(word, stemmer)) stems.push_back(std::move(stem));
  }
  return stems;
}

}  // namespace

double round_confidence(double value) {
  return std::round(value * 100.0) / 100.0;
}

IntentDetector::IntentDetector(IntentRules rules) : rules_(std::move(rules)), entities_(rules_.entities) {
  core::Stemmer stemmer;
  for (std::size_t intent = 0; intent < rules_.intents.size(); ++intent) {
    for (const WeightedPhrase& phrase : rules_.intents[intent].phrases) {
      std::vector<std::string> stems = stems_of_phrase(phrase.words, stemmer);
      const Match match{intent, phrase_count_++, phrase.weight};
      if (stems.size() == 1) {
        keywords_[stems.front()].push_back(match);
      } else if (!stems.empty()) {
        phrases_.push_back({std::move(stems), match});
      }
    }
  }
}

DetectedIntents IntentDetector::detect(std::string_view question) const {
  const std::vector<std::string> stems = core::stems_of_text(question);

  std::vector<double> scores(rules_.intents.size(), 0.0);
  std::vector<char> counted(phrase_count_, 0);
  auto score = [&](const Match& match) {
    if (counted[match.phrase]) return;
    counted[match.phrase] = 1;
    scores[match.intent] += match.weight;
  };
  for (const std::string& stem : stems) {
    if (auto found = keywords_.find(stem); found != keywords_.end()) {
      for (const Match& match : found->second) score(match);
    }
  }
  for (const StemmedPhrase& phrase : phrases_) {
    for (std::size_t at = 0; at < stems.size(); ++at) {
      if (phrase_at(stems, at, phrase.stems)) {
        score(phrase.match);
        break;
      }
    }
  }

  DetectedIntents detected;
  for (std::size_t intent = 0; intent < scores.size(); ++intent) {
    if (scores[intent] <= 0.0) continue;
    detected.intents.push_back(
        {rules_.intents[intent].type, round_confidence(std::min(rules_.max_confidence, scores[intent]))});
  }
  std::stable_sort(detected.intents.begin(), detected.intents.end(),
                   [](const Intent& a, const Intent& b) { return a.confidence > b.confidence; });
  if (detected.intents.empty()) detected.intents.push_back(rules_.fallback);
  double sum = 0.0;
  for (const Intent& intent : detected.intents) sum += intent.confidence;
  detected.primary_score = detected.intents.front().confidence;
  detected.overall_score = round_confidence(sum / static_cast<double>(detected.intents.size()));
  detected.entities = entities_.extract(question_words(question));
  return detected;
}

}  // namespace planfirst::retrieval
