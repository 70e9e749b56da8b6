// How many calendar periods of a grain a temporal column's values fall in, once the question's
// filters on that column narrow its span ("year over year" on two years of data is one change
// each), and where the period before a filter's bound starts.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "data/schema_profile.hpp"
#include "pipelines/autoviz/requirements.hpp"

namespace planfirst::autoviz {

// The periods of `grain` ("day" ... "year") from the column's first to its last value, within the
// filters on it in `constraints`, counted up to `cap`; nullopt when the column has no span or a
// bound is not an ISO date.
std::optional<std::int64_t> periods_spanned(const data::ColumnProfile& column, std::string_view grain,
                                            const std::vector<Constraint>& constraints, std::int64_t cap);

// The first day (ISO) of the `grain` period before the one holding the ISO date `bound`, when the
// column has values before `bound`: where "year over year in 2024" must start reading to compare 2024.
std::optional<std::string> period_before(const data::ColumnProfile& column, std::string_view grain,
                                         const ParamValue& bound);

}  // namespace planfirst::autoviz
