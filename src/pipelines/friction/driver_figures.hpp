// DriverFigures are one friction driver's counts as a lens sub-agent computed them with SQL over the
// prepared contacts (exact integers: contacts, repeats, transferred, resolved, handle seconds), and
// the rates and the Impact x Ease ranking derived from them in code. Impact (0-10) is the driver's
// handle time relative to the driver with the most (10 x handle_seconds / max handle_seconds); ease
// (1-10) comes from the lens rules; Impact x Ease = impact x ease / 10 (0-10). Pure and
// deterministic: integers in, the same doubles out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"

namespace planfirst::friction {

inline constexpr const char* kImpactEaseFormula =
    "impact = 10 x driver handle time / largest driver handle time; ease = 1-10 from "
    "assets/friction/lenses.json; "
    "Impact x Ease = impact x ease / 10";

struct DriverFigures {
  std::string lens;        // "digital"
  std::string lens_title;  // "Digital"
  std::string id;          // "app_login"
  std::string label;       // "App login failure"
  int ease = 5;
  std::int64_t contacts = 0;
  std::int64_t repeats = 0;      // contacts flagged as repeat contacts
  std::int64_t transferred = 0;  // contacts with at least one transfer
  std::int64_t resolved = 0;
  std::int64_t handle_seconds = 0;
  // Set by rank_drivers.
  double impact = 0;
  double score = 0;  // Impact x Ease
  int rank = 0;

  double share(std::int64_t total) const { return total > 0 ? static_cast<double>(contacts) / total : 0; }
  double repeat_rate() const { return ratio(repeats); }
  double transfer_rate() const { return ratio(transferred); }
  double resolution_rate() const { return ratio(resolved); }
  double avg_handle_minutes() const { return contacts > 0 ? handle_seconds / 60.0 / contacts : 0; }

  // Counts, derived rates (share of `total`) and, once ranked, impact, score and rank.
  core::Json to_json(std::int64_t total) const;
  static core::Result<DriverFigures> from_json(const core::Json& json, const std::string& pointer);

 private:
  double ratio(std::int64_t part) const { return contacts > 0 ? static_cast<double>(part) / contacts : 0; }
};

// Sets impact, score and rank (1 = first) and sorts: score descending, then contacts descending,
// then id.
void rank_drivers(std::vector<DriverFigures>& drivers);

// A rate as a percentage for text: 0.4123 -> "41%"; below 10%: one decimal ("4.5%").
std::string percent(double rate);
// One decimal: 8.46 -> "8.5".
std::string one_decimal(double value);

}  // namespace planfirst::friction
