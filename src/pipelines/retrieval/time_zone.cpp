#include "pipelines/retrieval/time_zone.hpp"

#include <date/tz.h>

#include <stdexcept>

namespace planfirst::retrieval {
namespace {

int digits(std::string_view text) {
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return -1;
    value = value * 10 + (c - '0');
  }
  return value;
}

// "+02:00" / "-0530" / "+02" -> minutes east of UTC; -1 hour sentinel in `ok` when unread.
bool parse_offset(std::string_view text, std::chrono::minutes& offset) {
  if (text.size() < 3 || (text[0] != '+' && text[0] != '-')) return false;
  std::string_view rest = text.substr(1);
  std::string_view hours = rest.substr(0, 2);
  std::string_view minutes = rest.size() > 2 ? rest.substr(rest[2] == ':' ? 3 : 2) : std::string_view("00");
  if ((rest.size() > 2 && rest[2] == ':' && rest.size() != 5) ||
      (rest.size() > 2 && rest[2] != ':' && rest.size() != 4)) {
    return false;
  }
  const int h = digits(hours);
  const int m = digits(minutes);
  if (h < 0 || m < 0 || h > 14 || m > 59) return false;
  offset = std::chrono::minutes((text[0] == '-' ? -1 : 1) * (h * 60 + m));
  return true;
}

}  // namespace

core::Result<TimeZone> TimeZone::parse(std::string_view name) {
  TimeZone zone;
  if (name.empty() || name == "UTC" || name == "Z" || name == "utc") return zone;
  zone.name_ = std::string(name);
  if (name[0] == '+' || name[0] == '-') {
    if (!parse_offset(name, zone.offset_)) {
      return core::invalid_argument("not a UTC offset: \"" + std::string(name) + "\" (expected +HH:MM)",
                                    "timezone");
    }
    return zone;
  }
  try {
    zone.zone_ = date::locate_zone(name);
  } catch (const std::exception& e) {
    return core::invalid_argument("unknown time zone \"" + std::string(name) + "\": " + e.what(), "timezone");
  }
  return zone;
}

std::chrono::sys_days TimeZone::local_day(std::chrono::system_clock::time_point time) const {
  const auto seconds = std::chrono::floor<std::chrono::seconds>(time);
  if (zone_ == nullptr) return std::chrono::floor<std::chrono::days>(seconds + offset_);
  const auto local = zone_->to_local(date::sys_seconds(seconds.time_since_epoch()));
  return std::chrono::sys_days(std::chrono::floor<std::chrono::days>(local).time_since_epoch());
}

std::chrono::system_clock::time_point TimeZone::midnight(std::chrono::sys_days day) const {
  if (zone_ == nullptr) return std::chrono::system_clock::time_point(day) - offset_;
  const date::local_seconds local(std::chrono::seconds(day.time_since_epoch()));
  return std::chrono::system_clock::time_point(
      zone_->to_sys(local, date::choose::earliest).time_since_epoch());
}

}  // namespace planfirst::retrieval
