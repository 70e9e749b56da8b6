// TemporalSpan is what a profile measures of a temporal column: its first and last value, the
// whole days between them and how densely the days hold data. A value type.
#pragma once

#include <cstdint>
#include <string>

namespace planfirst::data {

struct TemporalSpan {
  std::string first;                // earliest value, ISO-8601 ("2023-01-01" or "2023-01-01 08:00:00")
  std::string last;                 // latest value
  std::int64_t days = 0;            // whole days from first to last
  std::int64_t days_with_data = 0;  // distinct calendar days that hold a value
  double rows_per_day = 0;          // non-null rows / (days + 1)
  double coverage = 0;              // days_with_data / (days + 1), 0..1
};

}  // namespace planfirst::data
