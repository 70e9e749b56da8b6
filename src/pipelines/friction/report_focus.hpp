// ReportFocus is the report's direction a person gives at the synthesizer checkpoint (state "focus",
// contract friction_synthesis_answer): the lenses the report keeps and how many drivers it shows.
// select() keeps the ranked drivers of those lenses, best Impact x Ease first; figures are untouched.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/json.hpp"
#include "core/result.hpp"
#include "pipelines/friction/driver_figures.hpp"
#include "pipelines/friction/friction_rules.hpp"

namespace planfirst::friction {

struct ReportFocus {
  std::vector<std::string> lenses;  // lens names ("digital"); empty: every lens
  std::int64_t top_drivers = 0;     // 0: every driver

  // From state "focus" (null: no focus). kInvalidArgument naming the field under /focus at fault.
  static core::Result<ReportFocus> from_json(const core::Json& json);
  core::Json to_json() const;  // {} when there is no focus
  bool empty() const { return lenses.empty() && top_drivers == 0; }

  // The drivers of `ranked` (in rank order) the report shows.
  std::vector<DriverFigures> select(const std::vector<DriverFigures>& ranked) const;
  // "lenses Digital, Policy; top 5 drivers" (lens titles from `rules`); "" when empty().
  std::string describe(const FrictionRules& rules) const;
};

}  // namespace planfirst::friction
