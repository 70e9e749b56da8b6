// TimeZone is the zone relative dates are read in when a plan executes: UTC, a fixed offset
// ("+02:00", "-0530") or an IANA name ("Europe/Berlin") looked up in the system's tz database
// through the date library (date::date-tz with USE_OS_TZDB). A value; threads may share one.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace date {
class time_zone;
}

namespace planfirst::retrieval {

class TimeZone {
 public:
  TimeZone() = default;  // UTC

  // "UTC", "Z", "+HH:MM", "-HHMM" or an IANA name; kInvalidArgument naming `name` otherwise
  // (an unknown zone, or no tz database on the system).
  static core::Result<TimeZone> parse(std::string_view name);

  const std::string& name() const { return name_; }
  // The local calendar day `time` falls on.
  std::chrono::sys_days local_day(std::chrono::system_clock::time_point time) const;
  // The instant local midnight starts `day` (the earliest one where a clock change repeats it).
  std::chrono::system_clock::time_point midnight(std::chrono::sys_days day) const;

 private:
  std::string name_ = "UTC";
  std::chrono::minutes offset_{0};         // when zone_ is null
  const date::time_zone* zone_ = nullptr;  // owned by the date library's tz database
};

}  // namespace planfirst::retrieval
