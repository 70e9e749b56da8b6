#include "pipelines/retrieval/entity_extractor.hpp"

#include <algorithm>

#include "core/date_parse.hpp"
#include "core/join.hpp"

namespace planfirst::retrieval {
namespace {

bool listed(const std::vector<std::string>& list, const std::string& word) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

void add_once(std::vector<std::string>& values, std::string value) {
  if (!listed(values, value)) values.push_back(std::move(value));
}

bool is_name_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_' ||
         c == '.';
}

// "group/app": one slash between two names of letters, digits, '-', '_' or '.'.
bool is_project_path(const std::string& word) {
  const std::size_t slash = word.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == word.size() ||
      word.find('/', slash + 1) != std::string::npos) {
    return false;
  }
  return std::all_of(word.begin(), word.end(), [](char c) { return c == '/' || is_name_char(c); }) &&
         word != "and/or";
}

// An absolute date the dates filter may carry: "2024-01-15", "2024-01".
bool is_absolute_date(const std::string& word) {
  if (word.size() < 7 || word[0] < '0' || word[0] > '9' || word.find('-') == std::string::npos) return false;
  return core::parse_date(word).has_value();
}

}  // namespace

Entities EntityExtractor::extract(const QuestionWords& words) const {
  Entities entities;
  const Words& lower = words.lower;
  std::vector<char> used(lower.size(), 0);  // words already read as a date or status
  for (std::size_t at = 0; at < lower.size(); ++at) {
    for (const Words& phrase : rules_.dates) {
      if (!phrase_at(lower, at, phrase)) continue;
      Words matched(lower.begin() + static_cast<std::ptrdiff_t>(at),
                    lower.begin() + static_cast<std::ptrdiff_t>(at + phrase.size()));
      add_once(entities.dates, core::join(matched, " "));
      std::fill(used.begin() + static_cast<std::ptrdiff_t>(at),
                used.begin() + static_cast<std::ptrdiff_t>(at + phrase.size()), 1);
      break;
    }
    if (!used[at] && is_absolute_date(lower[at])) {
      add_once(entities.dates, lower[at]);
      used[at] = 1;
    }
    for (const auto& [phrase, status] : rules_.statuses) {
      if (used[at] || !phrase_at(lower, at, phrase)) continue;
      add_once(entities.statuses, status);
      std::fill(used.begin() + static_cast<std::ptrdiff_t>(at),
                used.begin() + static_cast<std::ptrdiff_t>(at + phrase.size()), 1);
      break;
    }
    for (const auto& [word, provider] : rules_.providers) {
      if (lower[at] == word) add_once(entities.providers, provider);
    }
  }
  auto usable = [&](std::size_t at) {
    return at < lower.size() && !used[at] && !listed(rules_.project_skip, lower[at]) &&
           !listed(rules_.project_markers, lower[at]);
  };
  for (std::size_t at = 0; at < lower.size(); ++at) {
    if (is_project_path(words.raw[at])) {
      add_once(entities.projects, words.raw[at]);
    } else if (listed(rules_.project_markers, lower[at])) {
      if (usable(at + 1)) {
        add_once(entities.projects, words.raw[at + 1]);
      } else if (at >= 2 && usable(at - 1) && listed(rules_.project_skip, lower[at - 2])) {
        add_once(entities.projects, words.raw[at - 1]);  // "the backend repo"
      }
    }
  }
  return entities;
}

}  // namespace planfirst::retrieval
