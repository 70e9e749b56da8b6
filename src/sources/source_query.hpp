// SourceQuery is what a plan asks one source for: a kind of record, optional project, time range,
// statuses, assignees, authors and free text, a volume limit, and the day relative periods in the
// text count back from.
// Times are resolved before the query reaches a source.
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace planfirst::sources {

struct TimeRange {
  std::chrono::system_clock::time_point since;  // inclusive
  std::chrono::system_clock::time_point until;  // exclusive
};

struct SourceQuery {
  std::string kind;                   // "commits", "issues", "merge_requests", "metrics"
  std::vector<std::string> projects;  // empty: every project the source is configured for
  std::optional<TimeRange> time;
  std::vector<std::string> statuses;   // normalized: "open", "in-progress", "closed", ...
  std::vector<std::string> assignees;  // user names the records are assigned to (any of them)
  std::vector<std::string> authors;    // user names that wrote the records (any of them)
  std::string text;                    // the plan's normalized query string, for sources that search
  std::size_t limit = 100;             // at most this many items; the source pages until it has them
  std::optional<std::chrono::sys_days> reference_day;  // "this month" in `text`; nullopt: the clock's day
};

}  // namespace planfirst::sources
