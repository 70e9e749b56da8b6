#include "sources/youtrack_query.hpp"

#include <chrono>
#include <utility>

#include "core/ascii_case.hpp"
#include "core/join.hpp"
#include "core/timestamp.hpp"

namespace planfirst::sources {
namespace {

bool is_plain_word(std::string_view value) {
  if (value.empty()) return false;
  for (const char c : value) {
    const bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '_' || c == '.';
    if (!plain) return false;
  }
  return true;
}

// "State: A, {B C}"; an empty list writes nothing.
core::Result<std::string> attribute(std::string_view name, const std::vector<std::string>& values) {
  std::vector<std::string> quoted;
  for (const std::string& value : values) {
    core::Result<std::string> one = youtrack_value(value);
    if (!one) return one.error();
    quoted.push_back(std::move(*one));
  }
  if (quoted.empty()) return std::string();
  return std::string(name) + ": " + core::join(quoted, ", ");
}

}  // namespace

core::Result<std::string> youtrack_value(std::string_view value) {
  if (value.find_first_of("{}") != std::string_view::npos) {
    return core::invalid_argument(
        "YouTrack cannot quote a value holding a brace: \"" + std::string(value) + "\"", "query");
  }
  if (value.find_first_not_of(' ') == std::string_view::npos) {
    return core::invalid_argument("YouTrack query values must not be empty", "query");
  }
  if (is_plain_word(value)) return std::string(value);
  return "{" + std::string(value) + "}";
}

std::string youtrack_state(std::string_view status) {
  const std::string word = core::ascii_lower(status);
  if (word == "todo" || word == "to-do") return "To Do";
  std::string out;
  bool start = true;
  for (const char c : word) {
    char spaced = c == '-' || c == '_' ? ' ' : c;
    if (start && spaced >= 'a' && spaced <= 'z') spaced = static_cast<char>(spaced - 'a' + 'A');
    out += spaced;
    start = spaced == ' ';
  }
  return out;
}

core::Result<std::string> youtrack_query(const SourceQuery& query, const std::vector<std::string>& projects,
                                         std::string_view state_field) {
  std::vector<std::string> terms;
  core::Result<std::string> project_term = attribute("project", projects);
  if (!project_term) return project_term.error();
  if (!project_term->empty()) terms.push_back(std::move(*project_term));

  std::vector<std::string> states, tags;
  for (const std::string& status : query.statuses) {
    const std::string word = core::ascii_lower(status);
    if (word == "unresolved" || word == "resolved") {
      tags.push_back(word == "unresolved" ? "#Unresolved" : "#Resolved");
    } else {
      states.push_back(youtrack_state(status));
    }
  }
  core::Result<std::string> state_term = attribute(state_field, states);
  if (!state_term) return state_term.error();
  if (!state_term->empty()) tags.insert(tags.begin(), std::move(*state_term));
  if (tags.size() == 1) terms.push_back(tags.front());
  if (tags.size() > 1) terms.push_back("(" + core::join(tags, " or ") + ")");

  // "for:" is the assignee, "reporter:" who created the issue; several names of one are any of them.
  const std::pair<std::string_view, const std::vector<std::string>*> people[] = {
      {"for", &query.assignees}, {"reporter", &query.authors}};
  for (const auto& [name, values] : people) {
    core::Result<std::string> people_term = attribute(name, *values);
    if (!people_term) return people_term.error();
    if (!people_term->empty()) terms.push_back(std::move(*people_term));
  }

  if (query.time) {
    if (query.time->until <= query.time->since) {
      return core::invalid_argument("the time range ends before it starts", "time");
    }
    // Both ends of a YouTrack range are whole days, inclusive; ours ends just before `until`.
    terms.push_back("created: " + core::format_utc_day(query.time->since) + " .. " +
                    core::format_utc_day(query.time->until - std::chrono::milliseconds(1)));
  }
  terms.push_back("sort by: created desc");
  return core::join(terms, " ");
}

}  // namespace planfirst::sources
