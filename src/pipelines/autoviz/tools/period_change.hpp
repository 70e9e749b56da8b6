// The columns compare_periods adds to each period's total: the previous period's, the change from
// it and that change in percent (NULL for the first period, and for a change from zero).
#pragma once

#include <string_view>

namespace planfirst::autoviz {

inline constexpr std::string_view kPreviousColumn = "previous";
inline constexpr std::string_view kChangeColumn = "change";
inline constexpr std::string_view kChangePercentColumn = "change_pct";

}  // namespace planfirst::autoviz
