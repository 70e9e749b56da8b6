#include "pipelines/friction/report_focus.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/join.hpp"

namespace planfirst::friction {

core::Result<ReportFocus> ReportFocus::from_json(const core::Json& json) {
  ReportFocus focus;
  if (json.is_null()) return focus;
  if (!json.is_object()) return core::invalid_argument("focus must be an object", "/focus");
  if (json.contains("lenses")) {
    const core::Json& lenses = json["lenses"];
    if (!lenses.is_array()) return core::invalid_argument("expected a list of lens names", "/focus/lenses");
    for (std::size_t i = 0; i < lenses.size(); ++i) {
      if (!lenses[i].is_string())
        return core::invalid_argument("expected a lens name", "/focus/lenses/" + std::to_string(i));
      focus.lenses.push_back(lenses[i].get<std::string>());
    }
  }
  if (json.contains("top_drivers")) {
    const core::Json& top = json["top_drivers"];
    if (!top.is_number_integer() || top.get<std::int64_t>() < 1)
      return core::invalid_argument("expected a whole number of drivers, 1 or more", "/focus/top_drivers");
    focus.top_drivers = top.get<std::int64_t>();
  }
  return focus;
}

core::Json ReportFocus::to_json() const {
  core::Json json = core::Json::object();
  if (!lenses.empty()) json["lenses"] = lenses;
  if (top_drivers > 0) json["top_drivers"] = top_drivers;
  return json;
}

std::vector<DriverFigures> ReportFocus::select(const std::vector<DriverFigures>& ranked) const {
  std::vector<DriverFigures> kept;
  for (const DriverFigures& d : ranked) {
    if (top_drivers > 0 && static_cast<std::int64_t>(kept.size()) >= top_drivers) break;
    if (lenses.empty() || std::find(lenses.begin(), lenses.end(), d.lens) != lenses.end()) kept.push_back(d);
  }
  return kept;
}

std::string ReportFocus::describe(const FrictionRules& rules) const {
  std::vector<std::string> parts;
  if (!lenses.empty()) {
    std::vector<std::string> titles;
    for (const std::string& name : lenses) {
      const Lens* lens = rules.lens(name);
      titles.push_back(lens != nullptr ? lens->title : name);
    }
    parts.push_back((titles.size() == 1 ? "lens " : "lenses ") + core::join(titles));
  }
  if (top_drivers > 0)
    parts.push_back(fmt::format("top {} driver{}", top_drivers, top_drivers == 1 ? "" : "s"));
  return core::join(parts, "; ");
}

}  // namespace planfirst::friction
