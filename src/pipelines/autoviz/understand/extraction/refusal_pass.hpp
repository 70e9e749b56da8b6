// The refusal pass turns away the questions the rules would answer wrongly, naming what to say
// instead: a comparison no column takes ("longer than 2000"), a quantity no column holds ("total
// profit" with no profit column), a question that names no column, a ratio of two measures.
#pragma once

#include <optional>
#include <string_view>

#include "core/result.hpp"
#include "pipelines/autoviz/understand/extraction/findings.hpp"
#include "pipelines/autoviz/understand/extraction/question.hpp"
#include "pipelines/autoviz/understand/extraction/token_claims.hpp"
#include "pipelines/autoviz/understand/phrase_match.hpp"

namespace planfirst::autoviz::extraction {

// The words a refusal reads: what names rows, anchors a quantity, or is known not to be one.
struct RefusalWords {
  const Stems& row_nouns;  // rows, records, entries: "how many rows are there?" counts them
  const Stems& stopwords;
  const Phrases& count_phrases;
  const Phrases& aggregation_words;
  const Phrases& group_phrases;
  const Phrases& time_phrases;
  const Phrases& bucket_phrases;
  const LabelledPhrases& grains;
  const LabelledPhrases& analysis;
  const LabelledPhrases& outputs;
};

// kInvalidArgument when the question compares with a number no pass took (unmet_comparisons),
// naming the columns of numbers and dates.
core::Result<void> refuse_unmet_comparisons(const Question& q, const data::SchemaProfile& profile,
                                            const LabelledPhrases& comparisons, const TokenClaims& claims);

// kInvalidArgument when the question keys by something but asks for a quantity no column holds
// (unheld_quantity; the quoted values are claimed as Claim::kQuoted, naming none), or names no
// column, filter or key and does not only count the rows, listing the words not understood.
core::Result<void> refuse_unnamed(const Question& q, const data::SchemaProfile& profile,
                                  const RefusalWords& words, TokenClaims& claims, const Findings& found);

// "revenue per unit by product category": a measure per another measure, beside another key, is a
// ratio of the two (no plan step computes one), not a grouping by the second; refused naming both.
std::optional<core::Error> ratio_of_measures(std::string_view question, const Question& q,
                                             const std::vector<Mention>& mentions, const Requirements& r);

}  // namespace planfirst::autoviz::extraction
