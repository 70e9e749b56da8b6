// A categorical value written short, as data often holds it ("Ph.D.", "AsstProf"), spelled out in
// a question ("a PhD", "assistant professors"). The plain stem-for-stem match misses these. Pure.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace planfirst::autoviz {

struct AbbreviatedValue {
  std::string compact;  // its letters and digits, lower case, when it has other bytes and three letters:
                        // "Ph.D." -> phd
  std::vector<std::string>
      parts;  // its camel-case words, lower case, when two or more: "AsstProf" -> asst, prof
};

// Whether `part` abbreviates `word` (both lower case, `part` of three letters or more): as its
// beginning ("prof" for professors) or as a contraction, the word's first letter, some of its
// letters in order and its last letter ("asst" for assistant, "dept" for department, not for
// associate); a plural's final s is no letter of the word.
bool abbreviates(std::string_view part, std::string_view word);

// The short forms of `value`; both empty when it has none (one plain word, or words with spaces).
AbbreviatedValue abbreviated_value(std::string_view value);

// How many of the lower-case `tokens` from `at` spell `value` out: 1 when the token is its compact
// form ("phd"); one token per part when each part begins its token or is a subsequence of it from
// its first letter ("assistant professors" for asst, prof); else 0.
std::size_t spelled_out_at(const std::vector<std::string>& tokens, std::size_t at,
                           const AbbreviatedValue& value);

}  // namespace planfirst::autoviz
