// The ranking pass reads how a question orders and cuts its rows: a sort clause ("in descending
// order by age"), ranking words and their counts ("top 5", "the 3 largest", "the fastest") and the
// keys a ranking names ("which musical has the most actors"). It adds sorts and limits.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pipelines/autoviz/understand/extraction/findings.hpp"
#include "pipelines/autoviz/understand/extraction/question.hpp"
#include "pipelines/autoviz/understand/extraction/token_claims.hpp"
#include "pipelines/autoviz/understand/phrase_match.hpp"
#include "pipelines/autoviz/understand/sort_clause.hpp"

namespace planfirst::autoviz::extraction {

// The words that rank: directions, superlatives naming their column, counts written out, and the
// words that make a ranking word no ranking ("at least") or rank by rows, units or groups.
struct RankingWords {
  const Phrases& desc;
  const Phrases& asc;
  const Phrases& named_desc;  // fastest, tallest...: they also name the column they rank by
  const Phrases& named_asc;
  const Stems& number_words;
  const std::vector<std::pair<std::string, Phrases>>&
      comparisons;  // "at least 10000" compares; it ranks nothing
  const LabelledPhrases&
      units;              // day, week, month...: "which month had the biggest revenue" ranks the months
  const Phrases& counts;  // most, least...: with no measure named, they rank by the number of rows
  const Phrases& groups;  // by, per, for each...: "per country, most first" orders every country
  const Stems& fillers;   // words between a grouping phrase and its column
  const Phrases& orders;  // first, last: "highest first" orders; it picks no first
};

// The question's sort clause, unless it sorts nothing (sorts_nothing). One naming an axis ("by the
// y-axis from high to low") names no column: its tokens are claimed as Claim::kSort and blanked;
// another releases the grouping word of its key (release_sort_key).
std::optional<SortClause> claim_sort_clause(std::string_view question, const SortPhrases& phrases,
                                            const Phrases& group_phrases, const Phrases& bucket_phrases,
                                            Question& q, TokenClaims& claims);

// The counts next to ranking words (ranking_count_tokens: "top 5" filters no id 5), claimed as
// Claim::kRankingCount.
void claim_ranking_counts(const Question& q, const RankingWords& ranking, TokenClaims& claims,
                          const Findings& found);

// The ranking the words left state (add_ranking), then the sort of the sort clause (add_ranked_sort).
void rank(const Question& q, const data::SchemaProfile& profile, const RankingWords& ranking,
          Findings& found);

// "Which musical has the most actors?", "the 5 departments with the highest average salary", "the top
// 3 tourist attractions by visits", "how many items does each order have": the thing an X_id column
// identifies (`ids`), named right before a ranking word (with only `links` between), right after a
// ranking word and a count, right after a count or an asking word (`askers`: "which") with a ranking
// word later, or right after a grouping phrase, is a key: a mention of that column, returned. Tokens
// another mention holds stay with it.
std::vector<std::string> add_id_keys(const Question& q, const std::vector<Mention>& ids,
                                     const RankingWords& ranking, const Phrases& links, const Phrases& askers,
                                     std::vector<Mention>& mentions);

}  // namespace planfirst::autoviz::extraction
