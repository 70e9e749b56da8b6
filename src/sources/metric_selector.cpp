#include "sources/metric_selector.hpp"

#include <algorithm>
#include <optional>

#include "core/ascii_case.hpp"
#include "core/join.hpp"
#include "core/stems.hpp"

namespace planfirst::sources {
namespace {

using Tokens = std::vector<std::string>;

// Whether `words` occur in order in `tokens`, at most one other word between two of them, so that
// "list open bugs" matches "list open P1 bugs" and "list all open bugs".
bool contains(const Tokens& tokens, const Tokens& words) {
  if (words.empty()) return false;
  for (std::size_t start = 0; start < tokens.size(); ++start) {
    if (tokens[start] != words[0]) continue;
    std::size_t at = start, matched = 1;
    while (matched < words.size()) {
      if (at + 1 < tokens.size() && tokens[at + 1] == words[matched]) {
        at += 1;
      } else if (at + 2 < tokens.size() && tokens[at + 2] == words[matched]) {
        at += 2;
      } else {
        break;
      }
      ++matched;
    }
    if (matched == words.size()) return true;
  }
  return false;
}

bool mentioned(const MetricParameter& parameter, const QuestionMentions& mentions) {
  if (parameter.name == "sprint") return mentions.sprint.has_value();
  if (parameter.name == "period") return mentions.period.has_value();
  if (parameter.name == "priority") return mentions.priority.has_value();
  if (parameter.name == "component") return mentions.component.has_value();
  if (parameter.name == "person") return mentions.person.has_value();
  return true;
}

// "metric", "summary", "list" or "" for the spellings plans use: "metrics", the analyst's request types
// STATUS_METRIC, STATUS_SUMMARY, STATUS_LIST; nullopt for anything else.
std::optional<std::string> entry_kind(std::string_view kind) {
  std::string word = core::ascii_lower(kind);
  if (word.starts_with("status_")) word.erase(0, 7);
  if (word == "metrics") word = "metric";
  if (word.empty() || word == "metric" || word == "summary" || word == "list") return word;
  return std::nullopt;
}

bool candidate(const MetricEntry& entry, std::string_view wanted, const QuestionMentions& mentions) {
  if (!wanted.empty() && wanted != entry.kind) return false;
  return std::all_of(entry.parameters.begin(), entry.parameters.end(), [&](const MetricParameter& parameter) {
    return !parameter.required || mentioned(parameter, mentions);
  });
}

}  // namespace

core::Result<const MetricEntry*> choose_metric(const MetricCatalog& catalog, std::string_view question,
                                               std::string_view kind, const QuestionMentions& mentions) {
  if (const MetricEntry* named = catalog.find(kind)) return named;
  const std::optional<std::string> wanted = entry_kind(kind);
  if (!wanted) {
    return core::invalid_argument(
        "the db source answers kinds metric, summary and list (or STATUS_METRIC, "
        "STATUS_SUMMARY, STATUS_LIST) or a catalog entry's name, not '" +
        std::string(kind) + "'");
  }
  const Tokens words = core::stems_of_text(question);
  const MetricEntry* best = nullptr;
  std::vector<const MetricEntry*> candidates;
  std::size_t best_score = 0;
  for (const MetricEntry& entry : catalog.entries()) {
    if (!candidate(entry, *wanted, mentions)) continue;
    candidates.push_back(&entry);
    std::size_t score = 0;
    for (const Tokens& phrase_words : entry.phrase_stems) {
      if (contains(words, phrase_words)) score += phrase_words.size();
    }
    if (score > best_score) {
      best = &entry;
      best_score = score;
    }
  }
  // The plan named a kind the question's words do not narrow: only a kind with one entry answers.
  if (best == nullptr && !wanted->empty() && candidates.size() == 1) best = candidates.front();
  if (best == nullptr) {
    std::vector<std::string> names;
    for (const MetricEntry& entry : catalog.entries()) {
      if (wanted->empty() || entry.kind == *wanted) names.push_back(entry.name);
    }
    return core::not_found(
        "no " + (wanted->empty() ? std::string("status") : *wanted) +
        " in the catalog matches the question's words; the db source knows: " + core::join(names, ", "));
  }
  return best;
}

}  // namespace planfirst::sources
