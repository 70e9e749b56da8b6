#include "sources/question_mentions.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <map>
#include <regex>
#include <vector>

#include "core/ascii_case.hpp"
#include "core/date_parse.hpp"
#include "core/timestamp.hpp"
#include "core/tokenizer.hpp"

namespace planfirst::sources {
namespace {

using std::chrono::days;
using std::chrono::sys_days;
using Tokens = std::vector<std::string>;

constexpr std::size_t kAbsent = static_cast<std::size_t>(-1);

std::string day_text(sys_days day) {
  return core::format_utc_day(std::chrono::sys_seconds(day));
}

// Where `words` occur as consecutive tokens, or kAbsent.
std::size_t find_words(const Tokens& tokens, const Tokens& words) {
  if (words.empty() || words.size() > tokens.size()) return kAbsent;
  for (std::size_t i = 0; i + words.size() <= tokens.size(); ++i) {
    if (std::equal(words.begin(), words.end(), tokens.begin() + static_cast<std::ptrdiff_t>(i))) return i;
  }
  return kAbsent;
}

std::size_t find_any(const Tokens& tokens, std::initializer_list<Tokens> phrases) {
  std::size_t first = kAbsent;
  for (const Tokens& phrase : phrases) first = std::min(first, find_words(tokens, phrase));
  return first;
}

std::optional<std::int64_t> number(std::string_view token) {
  std::int64_t value = 0;
  auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || ptr != token.data() + token.size()) return std::nullopt;
  return value;
}

// "<marker> YYYY-MM-DD" for the two markers questions use, compiled once.
const std::regex& marked_day(std::string_view marker) {
  static const std::regex kSince(R"(since\s+(\d{4}-\d{2}-\d{2}))");
  static const std::regex kAsOf(R"(as of\s+(\d{4}-\d{2}-\d{2}))");
  return marker == "since" ? kSince : kAsOf;
}

// The day after `marker` ("as of", "since") in `text`, lower-cased.
std::optional<sys_days> day_after(const std::string& text, std::string_view marker) {
  const std::regex& pattern = marked_day(marker);
  std::smatch match;
  if (!std::regex_search(text, match, pattern)) return std::nullopt;
  core::Result<core::ParsedDate> parsed = core::parse_date(match[1].str());
  if (!parsed) return std::nullopt;
  return parsed->day();
}

sys_days monday_of(sys_days day) {
  const unsigned from_monday = (std::chrono::weekday(day).c_encoding() + 6) % 7;
  return day - days(from_monday);
}

sys_days first_of_month(sys_days day) {
  const std::chrono::year_month_day ymd(day);
  return sys_days(ymd.year() / ymd.month() / 1);
}

// "in november", "during nov", "october 2026": the named month of the year given, else the latest one
// that starts on or before the reference day. Without a year the month must follow "in", "during",
// "for" or "of", so that "may" the verb is not May.
std::optional<DayRange> read_month(const Tokens& tokens, sys_days reference) {
  static constexpr std::array<std::string_view, 12> kMonths = {
      "january", "february", "march",     "april",   "may",      "june",
      "july",    "august",   "september", "october", "november", "december"};
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::string& word = tokens[i];
    const auto named = std::find_if(kMonths.begin(), kMonths.end(), [&word](std::string_view month) {
      return word == month || (word.size() == 3 && month.starts_with(word)) ||
             (word == "sept" && month[0] == 's');
    });
    if (named == kMonths.end()) continue;
    const std::optional<std::int64_t> year = i + 1 < tokens.size() ? number(tokens[i + 1]) : std::nullopt;
    const bool has_year = year && *year >= 1900 && *year <= 2999;
    const bool introduced = i > 0 && (tokens[i - 1] == "in" || tokens[i - 1] == "during" ||
                                      tokens[i - 1] == "for" || tokens[i - 1] == "of");
    if (!has_year && !introduced) continue;
    const std::chrono::month month{static_cast<unsigned>(named - kMonths.begin() + 1)};
    std::chrono::year in_year = std::chrono::year_month_day(reference).year();
    if (has_year) {
      in_year = std::chrono::year(static_cast<int>(*year));
    } else if (sys_days(in_year / month / 1) > reference) {
      in_year -= std::chrono::years(1);
    }
    const sys_days first = sys_days(in_year / month / 1);
    return DayRange{first, first_of_month(first + days(31))};
  }
  return std::nullopt;
}

std::optional<DayRange> read_period(const Tokens& tokens, const std::string& text, sys_days reference) {
  const sys_days tomorrow = reference + days(1);
  if (find_any(tokens, {{"this", "week"}, {"current", "week"}}) != kAbsent) {
    return DayRange{monday_of(reference), monday_of(reference) + days(7)};
  }
  if (find_any(tokens, {{"last", "week"}, {"previous", "week"}, {"past", "week"}}) != kAbsent) {
    return DayRange{monday_of(reference) - days(7), monday_of(reference)};
  }
  if (find_any(tokens, {{"this", "month"}, {"current", "month"}}) != kAbsent) {
    const sys_days first = first_of_month(reference);
    return DayRange{first, first_of_month(first + days(31))};
  }
  if (find_any(tokens, {{"last", "month"}, {"previous", "month"}, {"past", "month"}}) != kAbsent) {
    const sys_days first = first_of_month(reference);
    return DayRange{first_of_month(first - days(1)), first};
  }
  for (std::size_t i = 0; i + 2 < tokens.size(); ++i) {
    if (tokens[i] != "last" && tokens[i] != "past") continue;
    const std::optional<std::int64_t> n = number(tokens[i + 1]);
    if (!n || *n <= 0 || *n > 3660) continue;
    const std::string& unit = tokens[i + 2];
    if (unit == "days" || unit == "day") return DayRange{tomorrow - days(*n), tomorrow};
    if (unit == "weeks" || unit == "week") return DayRange{tomorrow - days(7 * *n), tomorrow};
  }
  if (std::optional<sys_days> since = day_after(text, "since")) return DayRange{*since, tomorrow};
  return read_month(tokens, reference);
}

core::Result<std::optional<std::int64_t>> read_sprint(const Tokens& tokens, const StatusDirectory& directory,
                                                      sys_days reference) {
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    std::optional<std::int64_t> id;
    if (tokens[i] == "sprint" && i + 1 < tokens.size()) id = number(tokens[i + 1]);
    if (tokens[i].starts_with("sprint") && tokens[i].size() > 6)
      id = number(std::string_view(tokens[i]).substr(6));
    if (!id) continue;
    if (directory.sprint(*id) == nullptr) {
      std::string known = directory.sprints.empty() ? std::string("none")
                                                    : std::to_string(directory.sprints.front().id) + ".." +
                                                          std::to_string(directory.sprints.back().id);
      return core::invalid_argument("the status database has no sprint " + std::to_string(*id) +
                                    " (its sprints: " + known + ")");
    }
    return std::optional<std::int64_t>(*id);
  }
  if (find_any(tokens, {{"last", "sprint"}, {"previous", "sprint"}, {"last", "closed", "sprint"}}) !=
      kAbsent) {
    const StatusSprint* last = directory.last_sprint_ended_before(reference);
    if (last == nullptr) return core::not_found("no sprint ended before " + day_text(reference));
    return std::optional<std::int64_t>(last->id);
  }
  if (find_any(tokens,
               {{"current", "sprint"}, {"this", "sprint"}, {"active", "sprint"}, {"ongoing", "sprint"}}) !=
      kAbsent) {
    const StatusSprint* current = directory.sprint_containing(reference);
    if (current == nullptr) return core::not_found("no sprint contains " + day_text(reference));
    return std::optional<std::int64_t>(current->id);
  }
  return std::optional<std::int64_t>();
}

// The first of `words` (singular and plural spellings) found, as its canonical name.
std::optional<std::string> read_word(
    const Tokens& tokens, std::initializer_list<std::pair<std::string_view, std::string_view>> words) {
  for (const std::string& token : tokens) {
    for (const auto& [spelling, name] : words) {
      if (token == spelling) return std::string(name);
    }
  }
  return std::nullopt;
}

std::optional<std::string> read_priority(const Tokens& tokens) {
  for (const std::string& token : tokens) {
    if (token.size() == 2 && token[0] == 'p' && token[1] >= '1' && token[1] <= '4')
      return core::ascii_upper(token);
    if (token == "critical") return std::string("P1");
  }
  return std::nullopt;
}

// The id of the named thing mentioned first: by its id's or its name's words, or (when `first_words`)
// by the first word of its name alone if no other thing shares it.
template <typename Thing>
std::optional<std::string> read_named(const Tokens& tokens, const std::vector<Thing>& things,
                                      bool first_words) {
  std::map<std::string_view, std::size_t> sharing;  // first name word -> how many names start with it
  if (first_words) {
    for (const Thing& thing : things) {
      if (!thing.name_words.empty()) ++sharing[thing.name_words.front()];
    }
  }
  std::size_t best = kAbsent;
  std::optional<std::string> found;
  for (const Thing& thing : things) {
    const Tokens& name = thing.name_words;
    std::size_t at = std::min(find_words(tokens, thing.id_words), find_words(tokens, name));
    if (at == kAbsent && first_words && !name.empty() && sharing[name.front()] == 1) {
      at = find_words(tokens, {name.front()});
    }
    if (at < best) {
      best = at;
      found = thing.id;
    }
  }
  return found;
}

}  // namespace

std::string DayRange::describe() const {
  return day_text(start) + " .. " + day_text(end - days(1));
}

core::Result<QuestionMentions> read_mentions(std::string_view question, const StatusDirectory& directory,
                                             sys_days today) {
  const std::string text = core::ascii_lower(question);
  const Tokens tokens = core::tokenize(text);
  QuestionMentions mentions;
  mentions.reference_day = day_after(text, "as of").value_or(today);
  core::Result<std::optional<std::int64_t>> sprint = read_sprint(tokens, directory, mentions.reference_day);
  if (!sprint) return sprint.error();
  mentions.sprint = *sprint;
  mentions.period = read_period(tokens, text, mentions.reference_day);
  mentions.priority = read_priority(tokens);
  mentions.component = read_named(tokens, directory.components, false);
  mentions.person = read_named(tokens, directory.people, true);
  mentions.issue_type = read_word(tokens, {{"bug", "bug"},
                                           {"bugs", "bug"},
                                           {"story", "story"},
                                           {"stories", "story"},
                                           {"task", "task"},
                                           {"tasks", "task"}});
  mentions.statistic = read_word(
      tokens, {{"average", "average"}, {"mean", "average"}, {"avg", "average"}, {"median", "median"}});
  return mentions;
}

}  // namespace planfirst::sources
