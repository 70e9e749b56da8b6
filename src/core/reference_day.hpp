// ReferenceDay is the day relative periods ("this month", "last week", "right now") count back from,
// and who set it: a flag, the project's settings, or the clock. A value; pure functions.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "core/json.hpp"
#include "core/result.hpp"

namespace planfirst::core {

enum class ReferenceOrigin { kClock, kFlag, kProject };

std::string_view to_string(ReferenceOrigin origin);  // "clock", "flag", "project"

struct ReferenceDay {
  std::chrono::sys_days day;
  ReferenceOrigin origin = ReferenceOrigin::kClock;
  std::string
      set_by;  // what set it, for people: "--as-of", "examples/project/planfirst.toml", "today's date"

  std::string describe() const;  // "2026-11-25 (as_of in examples/project/planfirst.toml)"
};

// The UTC day of `now`, set by the clock.
ReferenceDay reference_day_from_clock(std::chrono::system_clock::time_point now);

// A day written YYYY-MM-DD (a real calendar day); kInvalidArgument naming `what` (a flag or a key)
// and the text otherwise.
Result<std::chrono::sys_days> parse_reference_day(std::string_view text, std::string_view what);

// {"date": "2026-11-25", "origin": "project", "set_by": "..."} and back. A state without one is
// nullopt; one that is not of that shape is kInvalidArgument naming `pointer`.
Json to_json(const ReferenceDay& day);
Result<std::optional<ReferenceDay>> reference_day_from_json(const Json& json, std::string_view pointer);

}  // namespace planfirst::core
