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

// "alice's" or "alice’s" -> "alice"; "" for a word that is no possessive.
std::string possessor(const std::string& word) {
  for (std::string_view suffix : {std::string_view("'s"), std::string_view("\xE2\x80\x99s")}) {
    if (word.size() > suffix.size() && word.ends_with(suffix))
      return word.substr(0, word.size() - suffix.size());
  }
  return "";
}

// A user name as GitLab and YouTrack write them: a letter, then letters, digits, '.', '-', '_'.
bool is_user_name(const std::string& word) {
  const bool starts_alnum = !word.empty() && is_name_char(word[0]) && word[0] != '-' && word[0] != '.';
  const bool has_letter = std::any_of(
      word.begin(), word.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); });
  return starts_alnum && has_letter && std::all_of(word.begin(), word.end(), is_name_char);
}

// The longest phrase of `phrases` that starts at `at`; 0 when none does.
std::size_t longest_at(const Words& words, std::size_t at, const std::vector<Words>& phrases) {
  std::size_t longest = 0;
  for (const Words& phrase : phrases) {
    if (phrase.size() > longest && phrase_at(words, at, phrase)) longest = phrase.size();
  }
  return longest;
}

// Reads the people of EntityRules::people into their roles' filters; `used` marks the words read
// as dates or statuses.
class PeopleReader {
 public:
  PeopleReader(const EntityRules& rules, const QuestionWords& words, const std::vector<char>& used,
               Entities& entities)
      : rules_(rules), words_(words), used_(used), entities_(entities) {}

  void read() {
    const Words& lower = words_.lower;
    std::vector<char> consumed(lower.size(), 0);  // words of a marker already read
    for (std::size_t at = 0; at < lower.size(); ++at) {
      if (read_possessive(at) || consumed[at]) continue;
      const PersonRole* role = nullptr;
      std::size_t length = 0;
      for (const PersonRole& candidate : rules_.people.roles) {
        const std::size_t found = longest_at(lower, at, candidate.markers);
        if (found > length) {
          role = &candidate;
          length = found;
        }
      }
      if (role == nullptr) continue;
      std::fill(consumed.begin() + static_cast<std::ptrdiff_t>(at),
                consumed.begin() + static_cast<std::ptrdiff_t>(at + length), 1);
      if (at > 0 && listed(rules_.people.not_after, lower[at - 1])) continue;  // "sorted by date"
      read_names(*role, at + length);
    }
  }

 private:
  // The name at `at` and those a list adds: "by alice or bob last week".
  void read_names(const PersonRole& role, std::size_t at) {
    if (!name_at(at)) return;
    std::vector<std::string>& names = *entities_.values(role.filter);
    add_once(names, words_.raw[at]);
    const Words& lower = words_.lower;
    for (std::size_t joiner = at + 1; joiner + 1 < lower.size(); joiner += 2) {
      if (lower[joiner] != "or" && lower[joiner] != "and") return;
      if (!name_at(joiner + 1) || !ends_list(joiner + 2)) return;
      add_once(names, words_.raw[joiner + 1]);
    }
  }

  // "alice's issues": the possessor is a name of the role whose noun follows, maybe after up to two
  // dates or statuses. Whether the word at `at` was read so.
  bool read_possessive(std::size_t at) {
    const std::string name = possessor(words_.raw[at]);
    if (name.empty() || !can_name(at, name)) return false;
    std::size_t noun = at + 1;
    while (noun < used_.size() && used_[noun] && noun <= at + 2) ++noun;
    for (const PersonRole& role : rules_.people.roles) {
      if (longest_at(words_.lower, noun, role.possessive_nouns) == 0) continue;
      add_once(*entities_.values(role.filter), name);
      return true;
    }
    return false;
  }

  bool name_at(std::size_t at) const { return at < words_.raw.size() && can_name(at, words_.raw[at]); }

  // Whether `name`, the word at `at` or its start, can be a person: a user name that is no word the
  // other entities or the rules claim.
  bool can_name(std::size_t at, const std::string& name) const {
    if (used_[at] || !is_user_name(name)) return false;
    const std::string lower = words_.lower[at].substr(0, name.size());
    const EntityRules& rules = rules_;
    if (listed(rules.people.skip, lower) || listed(rules.project_skip, lower) ||
        listed(rules.project_markers, lower) || listed(entities_.projects, name)) {
      return false;
    }
    for (const auto& [word, provider] : rules.providers) {
      if (lower == word) return false;
    }
    for (const PersonRole& role : rules.people.roles) {
      for (const Words& noun : role.possessive_nouns) {
        if (listed(noun, lower)) return false;
      }
    }
    return true;
  }

  // Whether a list of names may end before `at`: the question ends, or a date, a status, a joining
  // word, a project marker or a person marker follows.
  bool ends_list(std::size_t at) const {
    const Words& lower = words_.lower;
    if (at >= lower.size() || used_[at] || listed(rules_.project_skip, lower[at]) ||
        listed(rules_.project_markers, lower[at])) {
      return true;
    }
    return std::any_of(rules_.people.roles.begin(), rules_.people.roles.end(),
                       [&](const PersonRole& role) { return longest_at(lower, at, role.markers) > 0; });
  }

  const EntityRules& rules_;
  const QuestionWords& words_;
  const std::vector<char>& used_;
  Entities& entities_;
};

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
  PeopleReader(rules_, words, used, entities).read();  // after the projects: no project is a name
  return entities;
}

}  // namespace planfirst::retrieval
