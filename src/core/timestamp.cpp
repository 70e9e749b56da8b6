#include "core/timestamp.hpp"

#include <cstdio>

namespace planfirst::core {
namespace {

// Reads exactly `width` digits at `at`; false when any is not a digit.
bool read_digits(std::string_view text, std::size_t at, std::size_t width, int& out) {
  if (at + width > text.size()) return false;
  out = 0;
  for (std::size_t i = at; i < at + width; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    out = out * 10 + (text[i] - '0');
  }
  return true;
}

Error not_a_timestamp(std::string_view text) {
  std::string message = "'";
  message.append(text.substr(0, 80)).append("' is not an RFC 3339 timestamp (2024-01-15T10:20:30Z)");
  return invalid_argument(std::move(message));
}

}  // namespace

std::string format_utc_timestamp(std::chrono::system_clock::time_point time) {
  return format_utc_timestamp(std::chrono::floor<std::chrono::seconds>(time));
}

std::string format_utc_day(std::chrono::system_clock::time_point time) {
  return format_utc_day(std::chrono::floor<std::chrono::seconds>(time));
}

std::string format_utc_timestamp(std::chrono::sys_seconds seconds) {
  const auto day = std::chrono::floor<std::chrono::days>(seconds);
  const std::chrono::year_month_day ymd{day};
  const std::chrono::hh_mm_ss<std::chrono::seconds> clock{seconds - day};
  char text[32];
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02d:%02d:%02dZ", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                static_cast<int>(clock.hours().count()), static_cast<int>(clock.minutes().count()),
                static_cast<int>(clock.seconds().count()));
  return text;
}

std::string format_utc_day(std::chrono::sys_seconds time) {
  return format_utc_timestamp(time).substr(0, 10);
}

Result<std::chrono::sys_seconds> parse_timestamp(std::string_view text) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (text.size() < 19 || !read_digits(text, 0, 4, year) || text[4] != '-' ||
      !read_digits(text, 5, 2, month) || text[7] != '-' || !read_digits(text, 8, 2, day) ||
      (text[10] != 'T' && text[10] != 't' && text[10] != ' ') || !read_digits(text, 11, 2, hour) ||
      text[13] != ':' || !read_digits(text, 14, 2, minute) || text[16] != ':' ||
      !read_digits(text, 17, 2, second)) {
    return not_a_timestamp(text);
  }
  const std::chrono::year_month_day ymd{std::chrono::year{year},
                                        std::chrono::month{static_cast<unsigned>(month)},
                                        std::chrono::day{static_cast<unsigned>(day)}};
  if (!ymd.ok() || hour > 23 || minute > 59 || second > 60) return not_a_timestamp(text);
  std::size_t at = 19;
  if (at < text.size() && text[at] == '.') {
    ++at;
    const std::size_t digits_start = at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
    if (at == digits_start) return not_a_timestamp(text);
  }
  std::chrono::minutes offset{0};
  if (at < text.size()) {
    const char sign = text[at];
    int offset_hours = 0, offset_minutes = 0;
    if ((sign == 'Z' || sign == 'z') && at + 1 == text.size()) {
      // UTC
    } else if ((sign == '+' || sign == '-') && text.size() == at + 6 &&
               read_digits(text, at + 1, 2, offset_hours) && text[at + 3] == ':' &&
               read_digits(text, at + 4, 2, offset_minutes) && offset_hours < 24 && offset_minutes < 60) {
      offset = std::chrono::hours(offset_hours) + std::chrono::minutes(offset_minutes);
      if (sign == '-') offset = -offset;
    } else {
      return not_a_timestamp(text);
    }
  }
  return std::chrono::sys_days{ymd} + std::chrono::hours(hour) + std::chrono::minutes(minute) +
         std::chrono::seconds(second) - offset;
}

}  // namespace planfirst::core
