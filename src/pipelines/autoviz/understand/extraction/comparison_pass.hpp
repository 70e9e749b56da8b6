// The comparison pass reads the numbers a question compares: counts of rows ("advisors with more
// than 3 students"), columns compared with a number ("price above 100", "an average price above
// 300") and rows compared through a comparative ("mountains higher than 4100"). Each step claims the
// tokens it used, so no later pass reads them as values or rankings.
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "pipelines/autoviz/understand/extraction/findings.hpp"
#include "pipelines/autoviz/understand/extraction/question.hpp"
#include "pipelines/autoviz/understand/extraction/token_claims.hpp"
#include "pipelines/autoviz/understand/phrase_match.hpp"

namespace planfirst::autoviz::extraction {

// The words of the group_filters rules: an aggregation before a compared measure, across determiners.
struct GroupFilterWords {
  const LabelledPhrases& aggregations;
  const LabelledPhrases& after;  // "add up to": after the measure
  const Stems& determiners;
  const LabelledPhrases& verbs;  // "sold": before the comparison, after the grouped entity
};

// The words a count threshold is stated with: comparisons before the count, suffixes after it,
// "exactly", and counts written out.
struct CountWords {
  const LabelledPhrases& comparisons;
  const LabelledPhrases& suffixes;
  const Phrases& exactly;
  const Stems& number_words;
};

// Filters on each group's count of rows, count(*), that a comparison and a count before a word for
// the rows state (ground_row_counts), claimed as Claim::kRowCount. Sets Findings::rows and
// row_counts, and drops the mentions a count takes ("2 flights" names the rows).
void claim_row_counts(const Question& q, const data::SchemaProfile& profile, const Stems& row_nouns,
                      const CountWords& words, TokenClaims& claims, Findings& found);

// Filters for the columns compared with a number (ground_comparisons), claimed as Claim::kComparison.
void claim_comparisons(const Question& q, const data::SchemaProfile& profile,
                       const LabelledPhrases& comparisons, const LabelledPhrases& suffixes,
                       const LabelledPhrases& year_comparisons, const GroupFilterWords& group_words,
                       TokenClaims& claims, Findings& found);

// Filters for the rows compared through a comparative where no column, period or year was compared
// (ground_row_comparisons), claimed as Claim::kRowComparison.
void claim_row_comparisons(const Question& q, const data::SchemaProfile& profile,
                           const LabelledPhrases& comparisons, const Stems& row_links,
                           const std::map<std::string, std::vector<std::string>>& comparatives,
                           TokenClaims& claims, Findings& found);

// The comparisons with a number the question states that no filter took (`understood`): "longer
// than 2000" where no column is longer, "more than 1" customer where customers are no rows; the
// words of each as the question has them.
std::vector<std::string> unmet_comparisons(const Question& q,
                                           const std::vector<std::pair<std::string, Phrases>>& comparisons,
                                           const std::set<std::size_t>& understood);

}  // namespace planfirst::autoviz::extraction
