#include "core/reference_day.hpp"

#include <nlohmann/json.hpp>

#include "core/date_parse.hpp"
#include "core/timestamp.hpp"

namespace planfirst::core {

std::string_view to_string(ReferenceOrigin origin) {
  switch (origin) {
    case ReferenceOrigin::kFlag: return "flag";
    case ReferenceOrigin::kProject: return "project";
    case ReferenceOrigin::kClock: break;
  }
  return "clock";
}

std::string ReferenceDay::describe() const {
  const std::string date = format_utc_day(std::chrono::sys_seconds(day));
  switch (origin) {
    case ReferenceOrigin::kFlag: return date + " (set by " + set_by + ")";
    case ReferenceOrigin::kProject: return date + " (as_of in " + set_by + ")";
    case ReferenceOrigin::kClock: break;
  }
  return date + " (today)";
}

ReferenceDay reference_day_from_clock(std::chrono::system_clock::time_point now) {
  return {std::chrono::floor<std::chrono::days>(now), ReferenceOrigin::kClock, "the clock"};
}

Result<std::chrono::sys_days> parse_reference_day(std::string_view text, std::string_view what) {
  Result<ParsedDate> parsed = parse_date(text);
  if (!parsed || parsed->format != DateFormat::kIsoDate) {
    return invalid_argument(
        std::string(what) + " must be a day written YYYY-MM-DD, not '" + std::string(text) + "'",
        std::string(what));
  }
  return parsed->day();
}

Json to_json(const ReferenceDay& day) {
  return Json{{"date", format_utc_day(std::chrono::sys_seconds(day.day))},
              {"origin", std::string(to_string(day.origin))},
              {"set_by", day.set_by}};
}

Result<std::optional<ReferenceDay>> reference_day_from_json(const Json& json, std::string_view pointer) {
  if (json.is_null()) return std::optional<ReferenceDay>();
  const std::string where(pointer);
  if (!json.is_object() || !json.contains("date") || !json["date"].is_string()) {
    return invalid_argument("the reference day must be an object with a \"date\" (YYYY-MM-DD)", where);
  }
  Result<std::chrono::sys_days> day = parse_reference_day(json["date"].get<std::string>(), where + "/date");
  if (!day) return day.error();
  ReferenceDay read{*day, ReferenceOrigin::kClock, "the clock"};
  const std::string origin = json.value("origin", "clock");
  if (origin == "flag") {
    read.origin = ReferenceOrigin::kFlag;
  } else if (origin == "project") {
    read.origin = ReferenceOrigin::kProject;
  } else if (origin != "clock") {
    return invalid_argument("origin must be clock, flag or project, not '" + origin + "'", where + "/origin");
  }
  if (json.contains("set_by") && json["set_by"].is_string()) read.set_by = json["set_by"].get<std::string>();
  return std::optional<ReferenceDay>(std::move(read));
}

}  // namespace planfirst::core
