// read_mentions finds what a status question names: a sprint ("sprint 12", "last sprint", "current
// sprint"), a period ("this week", "last 14 days", "since 2026-10-01", "in November", "October
// 2026"), a priority ("P1", "critical"), a component and a person (matched against the
// StatusDirectory's own ids and names), an issue type ("bugs"), a statistic ("average", "median")
// and a reference date ("as of 2026-11-01"). Nothing else of the text is kept. A pure function.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "sources/status_directory.hpp"

namespace planfirst::sources {

struct DayRange {
  std::chrono::sys_days start;   // inclusive
  std::chrono::sys_days end;     // exclusive
  std::string describe() const;  // "2026-11-23 .. 2026-11-29" (the last day inclusive)
};

struct QuestionMentions {
  std::chrono::sys_days reference_day;  // "as of ..." or the day the caller passed
  std::optional<std::int64_t> sprint;   // a sprint id of the directory
  std::optional<DayRange> period;
  std::optional<std::string> priority;    // "P1".."P4"
  std::optional<std::string> component;   // a component id of the directory
  std::optional<std::string> person;      // a person id of the directory
  std::optional<std::string> issue_type;  // "bug", "story", "task"
  std::optional<std::string> statistic;   // "average", "median"
};

// `today` is the reference day unless the question says "as of YYYY-MM-DD". kInvalidArgument when
// the question names a sprint number the directory lacks (the message lists the sprints); kNotFound
// for "current sprint" or "last sprint" when no sprint fits the reference day.
core::Result<QuestionMentions> read_mentions(std::string_view question, const StatusDirectory& directory,
                                             std::chrono::sys_days today);

}  // namespace planfirst::sources
