// How a plan counts rows: the aggregate tool's metric "*" with agg_func "count" is COUNT(*) per
// group, written to a column named "count" that later steps sort and plot by.
#pragma once

#include <string_view>

namespace planfirst::autoviz {

inline constexpr std::string_view kCountRowsMetric = "*";
inline constexpr std::string_view kCountColumn = "count";

inline bool counts_rows(std::string_view agg_func, std::string_view metric) {
  return agg_func == "count" && metric == kCountRowsMetric;
}

}  // namespace planfirst::autoviz
