// Numbers as a person reads them: rounded for display, digits grouped by thousands. For terminals
// and reports only; files keep full precision. Pure.
#pragma once

#include <cstdint>
#include <string>

namespace planfirst::core {

// A double rounded for display: two decimals with trailing zeros dropped ("4432266.48", "25",
// "10.5"), three significant digits below 1 ("0.00123"), and its digits grouped by thousands from
// `group_from` on ("4,432,266.48"). NaN and infinities as "nan", "inf", "-inf".
std::string format_number(double value, double group_from);
// An integer, its digits grouped by thousands from `group_from` on: 127065 -> "127,065".
std::string format_integer(std::int64_t value, double group_from);

}  // namespace planfirst::core
