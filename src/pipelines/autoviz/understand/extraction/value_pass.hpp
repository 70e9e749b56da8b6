// The value pass keeps as filters the categorical values a question names ("in the West region",
// "male students", 'Aberdare Range', "whose name contains Smith"), except at the tokens comparisons
// and ranking counts claimed, and claims its own; values of one column named together are compared
// or listed (settle_values). Fills Findings::requirements' filters.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "pipelines/autoviz/understand/extraction/findings.hpp"
#include "pipelines/autoviz/understand/extraction/question.hpp"
#include "pipelines/autoviz/understand/extraction/token_claims.hpp"
#include "pipelines/autoviz/understand/phrase_match.hpp"
#include "pipelines/autoviz/understand/text_filter.hpp"

namespace planfirst::autoviz {
struct ValueWords;
}  // namespace planfirst::autoviz

namespace planfirst::autoviz::extraction {

// Filters for the categorical values the question names outside the tokens comparisons and ranking
// counts claimed (ground_values), claimed as Claim::kValue; then the values no column holds
// (ground_unknown_values), refused when the profile lists a column's values all.
core::Result<void> claim_values(std::string_view question, const Question& q,
                                const data::SchemaProfile& profile, const Stems& stopwords,
                                const ValueWords& words, TokenClaims& claims, Findings& found);

// Filters for the "contains" phrases on the text columns named, then for the quoted values no
// filter on a column already states.
void add_text_filters(std::string_view question, const Question& q, const TextFilterPhrases& phrases,
                      const Stems& negations, Findings& found);

// A yes/no column named keeps its yes value (ground_flags); values of one column named together are
// listed or compared (settle_several_values). Returns the columns compared, to group by.
std::vector<std::string> settle_values(const Question& q, const data::SchemaProfile& profile,
                                       const ValueWords& words, Findings& found);

// A word naming a column inside a longer value of another column ("a Bulgarian victory" of result,
// not bulgarian_commander; "heavy-lift helicopters" of Description, not the weight) names the value.
std::vector<Mention> without_words_of_values(const Question& q, const data::SchemaProfile& profile,
                                             std::vector<Mention> mentions, const Stems& stopwords,
                                             const ValueWords& words);

}  // namespace planfirst::autoviz::extraction
