// TokenClaims records which question tokens each requirement pass took, and why, so a later pass
// sees what earlier passes took: the values pass skips the tokens of comparisons, the refusals
// read every token no pass took. Claims only grow during one question's extraction.
#pragma once

#include <cstddef>
#include <map>
#include <set>

namespace planfirst::autoviz::extraction {

enum class Claim : unsigned {  // bit flags: a token may be claimed for several reasons
  kSort = 1u << 0,             // a sort clause that names no column ("by the y-axis from high to low")
  kRelativePeriod = 1u << 1,   // "last year", "the past 30 days": a filter, not a grain
  kRowCount = 1u << 2,         // "more than 3 students": each group's count of rows compared
  kComparison = 1u << 3,       // "revenue above 100": a column compared with a number
  kCalendarPeriod = 1u << 4,   // "March 2024", "Q4": a month or quarter kept
  kYear = 1u << 5,             // "in 2024", "after 1928": a year kept or compared
  kRowComparison = 1u << 6,    // "mountains higher than 4100": the rows compared by a comparative
  kRankingCount = 1u << 7,     // "top 5": a count of ranked rows, no value
  kValue = 1u << 8,            // "in the West region": a categorical value filtered
  kQuoted = 1u << 9,           // 'Aberdare Range': a quoted value, no quantity
};

// A set of claim reasons: Claim::kValue | Claim::kQuoted.
struct Claims {
  unsigned bits = 0;
  constexpr Claims(Claim why) : bits(static_cast<unsigned>(why)) {}  // NOLINT: a reason is a set of one
  constexpr explicit Claims(unsigned reasons) : bits(reasons) {}
  constexpr Claims operator|(Claims other) const { return Claims(bits | other.bits); }
};
constexpr Claims operator|(Claim a, Claim b) {
  return Claims(a) | Claims(b);
}

// What the comparison passes take: a column, a count of rows, a period or a year compared.
inline constexpr Claims kCompared =
    Claim::kRowCount | Claim::kComparison | Claim::kCalendarPeriod | Claim::kYear | Claim::kRowComparison;
// What names no value: the comparisons' tokens and the counts next to ranking words ("top 5").
inline constexpr Claims kCountedOrCompared = kCompared | Claim::kRankingCount;

class TokenClaims {
 public:
  void claim(std::size_t at, Claim why) { reasons_[at] |= static_cast<unsigned>(why); }
  void claim(const std::set<std::size_t>& tokens, Claim why) {
    for (std::size_t at : tokens) claim(at, why);
  }
  // The tokens claimed for any of `reasons`, in order.
  std::set<std::size_t> taken(Claims reasons) const;

 private:
  std::map<std::size_t, unsigned> reasons_;  // token -> its claims' bits
};

struct Question;

// Claims tokens [begin, end) of `q` for `why` and blanks their words, so no later pass reads them.
void blank_claimed(std::size_t begin, std::size_t end, Claim why, Question& q, TokenClaims& claims);

}  // namespace planfirst::autoviz::extraction
