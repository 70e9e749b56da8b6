#include "pipelines/friction/driver_figures.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace planfirst::friction {

core::Json DriverFigures::to_json(std::int64_t total) const {
  core::Json json{{"lens", lens},
                  {"lens_title", lens_title},
                  {"id", id},
                  {"label", label},
                  {"ease", ease},
                  {"contacts", contacts},
                  {"repeats", repeats},
                  {"transferred", transferred},
                  {"resolved", resolved},
                  {"handle_seconds", handle_seconds},
                  {"share", share(total)},
                  {"repeat_rate", repeat_rate()},
                  {"transfer_rate", transfer_rate()},
                  {"resolution_rate", resolution_rate()},
                  {"avg_handle_minutes", avg_handle_minutes()}};
  if (rank > 0) {
    json["impact"] = impact;
    json["score"] = score;
    json["rank"] = rank;
  }
  return json;
}

core::Result<DriverFigures> DriverFigures::from_json(const core::Json& json, const std::string& pointer) {
  if (!json.is_object()) return core::invalid_argument("a driver must be an object", pointer);
  DriverFigures d;
  for (auto [key, field] :
       {std::pair{"lens", &d.lens}, {"lens_title", &d.lens_title}, {"id", &d.id}, {"label", &d.label}}) {
    if (!json.contains(key) || !json[key].is_string())
      return core::invalid_argument("expected a string", pointer + "/" + key);
    *field = json[key].get<std::string>();
  }
  for (auto [key, field] : {std::pair{"contacts", &d.contacts},
                            {"repeats", &d.repeats},
                            {"transferred", &d.transferred},
                            {"resolved", &d.resolved},
                            {"handle_seconds", &d.handle_seconds}}) {
    if (!json.contains(key) || !json[key].is_number_integer()) {
      return core::invalid_argument("expected an integer", pointer + "/" + key);
    }
    *field = json[key].get<std::int64_t>();
  }
  d.ease = json.value("ease", 5);
  d.impact = json.value("impact", 0.0);
  d.score = json.value("score", 0.0);
  d.rank = json.value("rank", 0);
  return d;
}

void rank_drivers(std::vector<DriverFigures>& drivers) {
  std::int64_t largest = 0;
  for (const DriverFigures& d : drivers) largest = std::max(largest, d.handle_seconds);
  for (DriverFigures& d : drivers) {
    d.impact = largest > 0 ? 10.0 * static_cast<double>(d.handle_seconds) / static_cast<double>(largest) : 0;
    d.score = d.impact * d.ease / 10.0;
  }
  std::sort(drivers.begin(), drivers.end(), [](const DriverFigures& a, const DriverFigures& b) {
    if (a.score != b.score) return a.score > b.score;
    if (a.contacts != b.contacts) return a.contacts > b.contacts;
    return a.id < b.id;
  });
  for (std::size_t i = 0; i < drivers.size(); ++i) drivers[i].rank = static_cast<int>(i + 1);
}

std::string percent(double rate) {
  const double pct = rate * 100;
  return pct < 10 ? fmt::format("{:.1f}%", pct) : fmt::format("{:.0f}%", pct);
}

std::string one_decimal(double value) {
  return fmt::format("{:.1f}", value);
}

}  // namespace planfirst::friction
