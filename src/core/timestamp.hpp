// RFC 3339 timestamps as remote services send and expect them: "2024-01-15T10:20:30Z",
// "2024-01-15T10:20:30.123+01:00". Pure functions; UTC in, UTC out; no locale, no exceptions.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace planfirst::core {

std::string format_utc_timestamp(std::chrono::sys_seconds time);  // "2024-01-15T10:20:30Z"
std::string format_utc_day(std::chrono::sys_seconds time);        // "2024-01-15"
// The same for a clock reading, truncated to the second.
std::string format_utc_timestamp(std::chrono::system_clock::time_point time);
std::string format_utc_day(std::chrono::system_clock::time_point time);

// "YYYY-MM-DDTHH:MM:SS" with optional fraction and "Z" or "+hh:mm"/"-hh:mm" (none means UTC); 't', ' '
// and 'z' accepted. Fractions are dropped. kInvalidArgument naming `text` for anything else.
Result<std::chrono::sys_seconds> parse_timestamp(std::string_view text);

}  // namespace planfirst::core
