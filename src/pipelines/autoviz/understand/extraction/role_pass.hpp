// The role pass decides what each named column is to the answer: a metric, a key grouped by (a
// temporal one the time column) or a filter only, then settles the roles that filters, axes,
// counts, grains and analysis words change. It fills Findings::requirements' metrics, group_by and
// time, and the facts of roles later passes read (counting, grouped_by_phrase, words).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "pipelines/autoviz/understand/extraction/findings.hpp"
#include "pipelines/autoviz/understand/extraction/question.hpp"
#include "pipelines/autoviz/understand/extraction/token_claims.hpp"
#include "pipelines/autoviz/understand/phrase_match.hpp"

namespace planfirst::autoviz::extraction {

// The words that give a named column its role.
struct RoleWords {
  const Phrases& group_phrases;        // by, per, for each...: the column after is a key
  const Phrases& count_phrases;        // how many, the number of: the question counts rows
  const Phrases& count_group_phrases;  // group only when the question counts rows
  const Stems& group_fillers;          // words between a grouping phrase and its column ("by the region")
  const Phrases& metric_phrases;       // "the sum of": the column after is a metric, whatever its type
  const Phrases& distinct_words;       // "how many distinct products": the column is counted, not grouped by
  const LabelledPhrases& outputs;      // the "chart" output: a chart asked for keeps a distinct count's key
};

// Each named column's role, in question order: a temporal column is the time column; a column
// after a grouping phrase (or continuing its list) is a key; a column a distinct count or a metric
// phrase names, or a measure outside a grouping, is a metric. The ids a ranking keys by are keys;
// with rows counted and no key, the metrics are the keys ("which advisors have more than 3
// students"). Sets Findings::counting, ungrouped, grouped_by_phrase, time_named and counted.
void assign_roles(const Question& q, const RoleWords& words, Findings& found);

// Groups kept by an aggregate are those of a named id (group_by_named_id); such keys are grouped by
// phrase ("countries whose totals add up to more than 150": keys, not a listed pair).
void key_kept_groups(const data::SchemaProfile& profile, Findings& found);

// A column named once and filtered is no key ("whose sex is F"), nor the time column unless a grain
// is asked; the columns whose values are compared are keys; a column on the x axis comes first and
// stays a key; counted columns are no keys (drop_counted_keys). Sets Findings::quotes.
void settle_filtered_roles(std::string_view question, const Question& q, const data::SchemaProfile& profile,
                           const LabelledPhrases& grains, const Phrases& x_axis_before,
                           const Phrases& x_axis_after, const std::vector<std::string>& compared_values,
                           Findings& found);

// Sets Findings::words: the question's stems without the words that name columns (a column called
// "rank" asks for no ranking), the sort clause, the comparisons and axis joiners ("name versus age").
void clear_understood_words(const Question& q, const Phrases& axis_joiners, const TokenClaims& claims,
                            Findings& found);

// The grain the words ask; the columns listed outside grouping phrases drawn as they are (a named
// date, a listed pair: settle_named_time, draw_listed_pair); named years bucketed; a relative
// period's column no key unless time is asked; the first temporal column when time is asked.
void settle_listed_roles(const data::SchemaProfile& profile, const LabelledPhrases& grains,
                         const Phrases& bucket_phrases, const Phrases& time_phrases, Findings& found);

// "the highest latitude for each city": a superlative before a grouped metric is each group's
// maximum, no ranking; its words are cleared.
void clear_superlatives(const Question& q, const Phrases& superlatives, Findings& found);

// The metrics once the analysis is known: a column only filtered is no metric; a correlation is
// between the columns listed; one measure is drawn per row (label_rows, draw_per_unique_key);
// `compare_when_grouped_by` keys or more compare.
void settle_metrics(const Question& q, const data::SchemaProfile& profile, const Phrases& aggregation_words,
                    const std::vector<std::string>& label_words,
                    const std::vector<std::string>& label_analysis, std::size_t compare_when_grouped_by,
                    Findings& found);

// "which region has the highest revenue": a category named right after an asking word, in a
// ranking with a measure and no other key, is what the ranking groups by, not a metric.
void group_asked_category(const Question& q, const std::vector<Mention>& mentions, const Phrases& askers,
                          Requirements& r);

}  // namespace planfirst::autoviz::extraction
