#include "pipelines/autoviz/understand/phrase_match.hpp"

#include <algorithm>
#include <charconv>

#include "core/tokenizer.hpp"

namespace planfirst::autoviz {

std::vector<std::string> column_words(std::string_view name) {
  return core::tokenize(name, {.keep_underscores = false, .split_camel_case = true});
}

Phrases phrases_of(const std::vector<std::string>& texts) {
  core::Stemmer stemmer;
  Phrases phrases;
  for (const std::string& text : texts) phrases.push_back(stems_of_text(text, stemmer));
  return phrases;
}

bool phrase_at(const Stems& text, std::size_t at, const Stems& phrase) {
  if (phrase.empty() || at + phrase.size() > text.size()) return false;
  return std::equal(phrase.begin(), phrase.end(), text.begin() + static_cast<std::ptrdiff_t>(at));
}

bool contains_phrase(const Stems& text, const Phrases& phrases) {
  for (std::size_t at = 0; at < text.size(); ++at) {
    for (const Stems& phrase : phrases) {
      if (phrase_at(text, at, phrase)) return true;
    }
  }
  return false;
}

std::size_t phrase_ending_at(const Stems& text, std::size_t end, const Phrases& phrases) {
  for (const Stems& phrase : phrases) {
    if (phrase.size() <= end && phrase_at(text, end - phrase.size(), phrase)) return phrase.size();
  }
  return 0;
}

std::size_t phrase_starting_at(const Stems& text, std::size_t at, const Phrases& phrases) {
  for (const Stems& phrase : phrases) {
    if (phrase_at(text, at, phrase)) return phrase.size();
  }
  return 0;
}

std::string first_label(const Stems& text, const LabelledPhrases& labelled) {
  for (const auto& [label, phrases] : labelled) {
    if (contains_phrase(text, phrases)) return label;
  }
  return "";
}

std::optional<std::int64_t> count_at(const Stems& text, std::size_t at, const Stems& number_words) {
  if (at >= text.size()) return std::nullopt;
  const std::string& word = text[at];
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (error == std::errc() && end == word.data() + word.size()) {
    if (value > 0) return value;
    return std::nullopt;
  }
  auto found = std::find(number_words.begin(), number_words.end(), word);
  if (found == number_words.end() || found == number_words.begin()) return std::nullopt;
  return found - number_words.begin();
}

}  // namespace planfirst::autoviz
