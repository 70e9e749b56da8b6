// Fuzzy string similarity for matching names a user typed against names a schema holds, in [0, 1]
// where 1 is identical. Compares bytes, case-sensitively: lower-case both sides first for a
// case-blind match. Pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace planfirst::core {

// Jaro similarity: matching bytes within the window max(|a|,|b|)/2 - 1, and their transpositions.
// Two empty strings are identical (1); one empty string matches nothing (0).
double jaro(std::string_view a, std::string_view b);

// Jaro-Winkler: jaro + l * 0.1 * (1 - jaro) for a common prefix of l <= 4 bytes, boosted only when
// jaro > 0.7 (Winkler's threshold). jaro_winkler("MARTHA", "MARHTA") = 0.9611.
double jaro_winkler(std::string_view a, std::string_view b);

// The name of `names` most like `typed`, case aside, when its Jaro-Winkler similarity reaches
// `threshold` and it is not `typed` itself: "revnue" -> "revenue". The first of equals wins.
std::optional<std::string> closest_name(std::string_view typed, const std::vector<std::string>& names,
                                        double threshold = 0.85);

}  // namespace planfirst::core
