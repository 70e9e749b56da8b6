#include "core/similarity.hpp"

#include <algorithm>
#include <vector>

#include "core/ascii_case.hpp"

namespace planfirst::core {
namespace {

constexpr double kPrefixScale = 0.1;
constexpr std::size_t kMaxPrefix = 4;
constexpr double kBoostThreshold = 0.7;

struct Matches {
  std::vector<bool> in_a;
  std::vector<bool> in_b;
  std::size_t count = 0;
};

Matches find_matches(std::string_view a, std::string_view b) {
  const std::size_t longest = std::max(a.size(), b.size());
  const std::size_t window = longest / 2 > 0 ? longest / 2 - 1 : 0;
  Matches matches{std::vector<bool>(a.size()), std::vector<bool>(b.size()), 0};
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::size_t to = std::min(i + window + 1, b.size());
    for (std::size_t j = i > window ? i - window : 0; j < to; ++j) {
      if (matches.in_b[j] || a[i] != b[j]) continue;
      matches.in_a[i] = matches.in_b[j] = true;
      ++matches.count;
      break;
    }
  }
  return matches;
}

// Half the number of matched bytes that appear in a different order in `b` than in `a`.
double transpositions(std::string_view a, std::string_view b, const Matches& matches) {
  std::size_t out_of_order = 0;
  for (std::size_t i = 0, j = 0; i < a.size(); ++i) {
    if (!matches.in_a[i]) continue;
    while (!matches.in_b[j]) ++j;
    if (a[i] != b[j]) ++out_of_order;
    ++j;
  }
  return static_cast<double>(out_of_order) / 2.0;
}

}  // namespace

double jaro(std::string_view a, std::string_view b) {
  if (a.empty() && b.empty()) return 1.0;
  const Matches matches = find_matches(a, b);
  if (matches.count == 0) return 0.0;
  const auto m = static_cast<double>(matches.count);
  const double t = transpositions(a, b, matches);
  return (m / static_cast<double>(a.size()) + m / static_cast<double>(b.size()) + (m - t) / m) / 3.0;
}

double jaro_winkler(std::string_view a, std::string_view b) {
  const double similarity = jaro(a, b);
  if (similarity <= kBoostThreshold) return similarity;
  const std::size_t limit = std::min({a.size(), b.size(), kMaxPrefix});
  std::size_t prefix = 0;
  while (prefix < limit && a[prefix] == b[prefix]) ++prefix;
  return similarity + static_cast<double>(prefix) * kPrefixScale * (1.0 - similarity);
}

std::optional<std::string> closest_name(std::string_view typed, const std::vector<std::string>& names,
                                        double threshold) {
  const std::string lowered = ascii_lower(typed);
  std::optional<std::string> closest;
  double best = threshold;
  for (const std::string& name : names) {
    const std::string other = ascii_lower(name);
    if (other == lowered) return std::nullopt;  // it names one: nothing to correct
    const double score = jaro_winkler(lowered, other);
    if (score < best || (closest && score == best)) continue;
    best = score;
    closest = name;
  }
  return closest;
}

}  // namespace planfirst::core
