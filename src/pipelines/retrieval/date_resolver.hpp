// DateResolver turns the dates filter of a plan ("last week", "2024-01-15", "last 7 days") into one
// concrete time range, when the plan executes: calendar periods in the given time zone (weeks start
// on Monday), [start, end) of whole periods — "this week" runs from Monday to next Monday — and
// "last N days" the N whole days before today plus today. Several values: the span of them all.
// Immutable; threads may share one.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "pipelines/retrieval/time_zone.hpp"
#include "sources/source_query.hpp"

namespace planfirst::retrieval {

class DateResolver {
 public:
  DateResolver(std::chrono::system_clock::time_point now, TimeZone zone)
      : now_(now), zone_(std::move(zone)) {}

  // kInvalidArgument naming the value it cannot read.
  core::Result<sources::TimeRange> resolve(std::string_view value) const;
  // nullopt for no values.
  core::Result<std::optional<sources::TimeRange>> resolve_all(const std::vector<std::string>& values) const;

 private:
  std::chrono::system_clock::time_point now_;
  TimeZone zone_;
};

}  // namespace planfirst::retrieval
