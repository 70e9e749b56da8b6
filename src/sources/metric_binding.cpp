#include "sources/metric_binding.hpp"

#include <algorithm>
#include <charconv>

#include "core/join.hpp"
#include "core/timestamp.hpp"

namespace planfirst::sources {
namespace {

using std::chrono::days;
using std::chrono::sys_days;

constexpr std::size_t kMaxRows = 1000;

std::string day_text(sys_days day) {
  return core::format_utc_day(std::chrono::sys_seconds(day));
}

std::string describe_sprint(const StatusSprint& sprint) {
  return sprint.name + " (" + day_text(sprint.start) + " .. " + day_text(sprint.end) + ")";
}

core::Result<const StatusSprint*> default_sprint(std::string_view spec, const StatusDirectory& directory,
                                                 sys_days reference) {
  if (spec == "none") return static_cast<const StatusSprint*>(nullptr);
  if (spec == "current") {
    if (const StatusSprint* sprint = directory.sprint_containing(reference)) return sprint;
    return core::not_found("no sprint contains the reference date " + day_text(reference) +
                           "; name one: \"sprint 12\"");
  }
  if (spec == "last_closed") {
    if (const StatusSprint* sprint = directory.last_sprint_ended_before(reference)) return sprint;
    return core::not_found("no sprint ended before the reference date " + day_text(reference));
  }
  return core::invalid_argument("unknown sprint default '" + std::string(spec) +
                                "' (current, last_closed, none)");
}

// "last_30_days", "last_8_weeks": the range ending with the reference day.
core::Result<DayRange> default_period(std::string_view spec, sys_days reference) {
  const sys_days end = reference + days(1);
  for (auto [suffix, unit] : {std::pair<std::string_view, int>{"_days", 1}, {"_weeks", 7}}) {
    if (!spec.starts_with("last_") || !spec.ends_with(suffix)) continue;
    const std::string_view count = spec.substr(5, spec.size() - 5 - suffix.size());
    int n = 0;
    auto [ptr, ec] = std::from_chars(count.data(), count.data() + count.size(), n);
    if (ec == std::errc() && ptr == count.data() + count.size() && n > 0)
      return DayRange{end - days(n * unit), end};
  }
  return core::invalid_argument("unknown period default '" + std::string(spec) +
                                "' (last_N_days, last_N_weeks)");
}

template <typename Thing>
std::string choices(const std::vector<Thing>& things) {
  std::vector<std::string> names;
  for (const Thing& thing : things) names.push_back(thing.name + " (" + thing.id + ")");
  return core::join(names, ", ");
}

core::Result<void> require(const MetricParameter& parameter, const std::optional<std::string>& mention,
                           const StatusDirectory& directory) {
  if (!parameter.required || mention) return {};
  const std::string offered =
      parameter.name == "person" ? choices(directory.people) : choices(directory.components);
  return core::invalid_argument("name a " + parameter.name + " in the question: " + offered);
}

// The mention a parameter named by the question binds; nullptr for sprint, period and the rest.
const std::optional<std::string>* named_mention(std::string_view parameter,
                                                const QuestionMentions& mentions) {
  if (parameter == "priority") return &mentions.priority;
  if (parameter == "component") return &mentions.component;
  if (parameter == "person") return &mentions.person;
  if (parameter == "issue_type") return &mentions.issue_type;
  return nullptr;
}

// Whether one of `entry`'s phrases says `word` (so the entry is about it: "open bugs" and "bug").
bool speaks_of(const MetricEntry& entry, const std::string& word) {
  for (const std::vector<std::string>& phrase : entry.phrase_stems) {
    if (std::find(phrase.begin(), phrase.end(), word) != phrase.end()) return true;
  }
  return false;
}

// What the question names that `entry` takes no parameter for, so the figure does not follow it.
std::vector<std::string> unfollowed(const MetricEntry& entry, const QuestionMentions& mentions) {
  std::vector<std::string> notes;
  for (const char* name : {"person", "component", "priority"}) {
    const std::optional<std::string>& mention = *named_mention(name, mentions);
    if (mention && entry.parameter(name) == nullptr) {
      notes.push_back("the question names " + std::string(name) + " " + *mention + ", but " + entry.name +
                      " is not kept per " + name + "; the figure covers every " + name);
    }
  }
  if (mentions.issue_type && entry.parameter("issue_type") == nullptr &&
      !speaks_of(entry, *mentions.issue_type)) {
    notes.push_back("the question names " + *mentions.issue_type + "s, but " + entry.name +
                    " is not kept per issue type; the figure covers every type");
  }
  if (mentions.period && entry.parameter("period") == nullptr && entry.parameter("sprint") == nullptr) {
    notes.push_back("the question names the period " + mentions.period->describe() + ", but " + entry.name +
                    " is a count as of the reference day, not over a period");
  }
  return notes;
}

}  // namespace

const BoundParameter* MetricBinding::find(std::string_view name) const {
  for (const BoundParameter& parameter : parameters) {
    if (parameter.name == name) return &parameter;
  }
  return nullptr;
}

const std::string& MetricBinding::value_column(const MetricQuery& query) const {
  for (const auto& [name, column] : query.statistics) {
    if (name == statistic) return column;
  }
  return query.value_column;
}

std::string MetricBinding::statistic_note(const MetricQuery& query, std::string_view entry) const {
  const bool kept = std::any_of(query.statistics.begin(), query.statistics.end(),
                                [&](const auto& pair) { return pair.first == statistic; });
  if (statistic.empty() || query.statistics.empty() || kept) return {};
  return std::string(entry) + " is kept as a " + query.statistics.front().first + "; the catalog has no " +
         statistic + " of it, so the figure is the " + query.statistics.front().first;
}

std::vector<data::Value> MetricBinding::values_for(const MetricQuery& query) const {
  std::vector<data::Value> values;
  for (const std::string& name : query.params) {
    const BoundParameter* parameter = find(name);
    values.push_back(parameter == nullptr ? data::Value() : parameter->value);
  }
  return values;
}

std::string MetricBinding::describe(const MetricQuery& query) const {
  std::vector<std::string> parts;
  const std::vector<data::Value> values = values_for(query);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const bool text = values[i].kind() == data::Value::Kind::kText;
    parts.push_back("$" + std::to_string(i + 1) + " " + query.params[i] + " = " + (text ? "'" : "") +
                    values[i].to_string() + (text ? "'" : ""));
  }
  return core::join(parts, ", ");
}

core::Result<MetricBinding> bind_metric(const MetricEntry& entry, const QuestionMentions& mentions,
                                        const StatusDirectory& directory, std::size_t row_limit) {
  MetricBinding binding;
  const sys_days reference = mentions.reference_day;
  binding.parameters.push_back({"reference_date", data::Value(day_text(reference)), day_text(reference)});
  const std::size_t rows = std::clamp<std::size_t>(row_limit, 1, kMaxRows);
  binding.parameters.push_back(
      {"row_limit", data::Value(static_cast<std::int64_t>(rows)), std::to_string(rows)});
  binding.period = "as of " + day_text(reference);
  const StatusSprint* sprint = mentions.sprint ? directory.sprint(*mentions.sprint) : nullptr;
  for (const MetricParameter& parameter : entry.parameters) {
    if (parameter.name == "sprint") {
      if (sprint == nullptr) {
        core::Result<const StatusSprint*> fallback =
            default_sprint(parameter.default_value, directory, reference);
        if (!fallback) return fallback.error();
        sprint = *fallback;
      }
      if (sprint == nullptr) {
        binding.parameters.push_back({"sprint", data::Value(), "none"});
        continue;
      }
      binding.parameters.push_back({"sprint", data::Value(sprint->id), describe_sprint(*sprint)});
      binding.period = describe_sprint(*sprint);
    } else if (parameter.name == "period") {
      std::optional<DayRange> period = mentions.period;
      if (!period && sprint != nullptr) period = DayRange{sprint->start, sprint->end + days(1)};
      if (!period) {
        core::Result<DayRange> fallback = default_period(parameter.default_value, reference);
        if (!fallback) return fallback.error();
        period = *fallback;
      }
      binding.parameters.push_back(
          {"period_start", data::Value(day_text(period->start)), day_text(period->start)});
      binding.parameters.push_back({"period_end", data::Value(day_text(period->end)), day_text(period->end)});
      binding.period = period->describe();
    } else if (const std::optional<std::string>* named = named_mention(parameter.name, mentions)) {
      const std::optional<std::string>& mention = *named;
      if (core::Result<void> present = require(parameter, mention, directory); !present)
        return present.error();
      binding.parameters.push_back(
          {parameter.name, mention ? data::Value(*mention) : data::Value(), mention.value_or("any")});
    }
  }
  binding.statistic = mentions.statistic.value_or("");
  binding.notes = unfollowed(entry, mentions);
  return binding;
}

}  // namespace planfirst::sources
