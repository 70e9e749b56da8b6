// RuleRequirementExtractor is the offline strategy of seed 002 §2, a schema-aware parser driven by
// assets/autoviz/requirement_rules.yaml: question words are tokenized and stemmed; columns are
// grounded by their words (snake_case and camelCase split), exactly, by stem, through the synonym
// table ("product type" -> product_category) or by Jaro-Winkler >= 0.92, last through WordNet for
// words nothing else matched ("area" -> region); a column after a grouping
// phrase ("by", "per", "for each", "across") is a group_by (a temporal one becomes the time column),
// a measure is a metric (after a grouping phrase only while no metric was named: "top 3 categories
// by units"); categorical values found in the question become filters;
// "top N" becomes a sort and a limit. A date column the question names without a grain or a
// bucketing word is a plain column; two columns listed without a grouping phrase or a count
// ("name and age") are drawn as they are (metrics, the axis first). Deterministic. Immutable after load();
// threads may share one.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/asset_store.hpp"
#include "pipelines/autoviz/understand/relative_period.hpp"
#include "pipelines/autoviz/understand/requirement_extractor.hpp"
#include "pipelines/autoviz/understand/sort_clause.hpp"
#include "pipelines/autoviz/understand/text_filter.hpp"

namespace planfirst::core {
class WordNetSynonyms;
}

namespace planfirst::autoviz {

// How questions name categorical values beyond their spelling, and negate them.
struct ValueWords {
  std::map<std::string, std::vector<std::string>>
      synonyms;      // question stem -> lower-case values ("male" -> m)
  Stems negations;   // not, except, ...: "!=" instead of "="
  Stems links;       // words a negation reaches across ("not in the")
  Stems list_words;  // or, only: values named together are kept, not compared
  Stems joiners;  // and, or, nor: a negation reaches along a list of values ("excluding Online and Retail")
  Stems name_links;  // in, the: a capitalized name after one, before a category's name, is its value ("in the
                     // Nowhere region")
  std::vector<std::string> true_flags;  // lower-case values that mean yes in a yes/no column
  std::vector<Stems> column_cues;       // word groups tying a value to a column: from, depart, origin
};

// How a question compares a year or a month with its year: op -> phrases before it ("after 1928")
// or after it ("2014 or later"); a range word before the first of two periods and a joiner between
// them ("between 2010 and 2015", "from March 2024 to June 2024").
struct PeriodWords {
  std::vector<std::pair<std::string, std::vector<Stems>>> before;
  std::vector<std::pair<std::string, std::vector<Stems>>> after;
  std::vector<Stems> ranges;
  std::vector<Stems> joiners;
  std::vector<Stems> fillers;  // "after the year 2000": between the comparison and the year
  std::vector<Stems> lists;    // "2023 vs 2024": years named together
};

class RuleRequirementExtractor final : public RequirementExtractor {
 public:
  static constexpr std::string_view kPath = "autoviz/requirement_rules.yaml";

  // kInvalidArgument with "<origin>:<line>" for a malformed rule file or an analysis label outside
  // the requirements contract's closed set.
  static core::Result<RuleRequirementExtractor> load(const core::AssetStore& assets);

  // kInvalidArgument naming the byte for a question that is not well-formed UTF-8, or listing the
  // words not understood and the columns for one that names no column.
  core::Result<ExtractedRequirements> extract(std::string_view question,
                                              const data::SchemaProfile& profile) const override;

  // The sort.magnitude phrases ("from high to low"), each as stems: directions that order amounts.
  const std::vector<std::vector<std::string>>& sort_magnitudes() const { return sort_.magnitude; }

 private:
  using Phrases = std::vector<std::vector<std::string>>;   // each phrase as stems
  std::vector<std::pair<std::string, Phrases>> analysis_;  // label -> phrases, file order
  std::vector<std::pair<std::string, Phrases>> outputs_;
  std::vector<std::string> default_outputs_;
  std::vector<std::string> output_words_;  // every output phrase's stems: "line", "pie", "table"...
  std::size_t compare_when_grouped_by_ = 2;
  Phrases group_phrases_;
  Phrases count_phrases_;
  Phrases count_group_phrases_;  // group only when the question counts rows
  Stems year_links_;             // words before a year that make it a filter ("in 2024")
  Stems period_links_;   // words before a month or quarter with no year that make it one of the data's ("in
                         // March")
  Stems group_fillers_;  // words between a grouping phrase and its column ("by the region")
  std::vector<std::pair<std::string, Phrases>> comparisons_;  // filter op -> phrases
  std::vector<std::pair<std::string, Phrases>>
      comparison_suffixes_;  // op -> phrases after the number: "or higher"
  std::vector<std::pair<std::string, Phrases>>
      group_aggregations_;  // agg_func -> words before a compared measure
  std::vector<std::pair<std::string, Phrases>>
      group_aggregations_after_;  // sum -> "add up to": after the measure
  std::vector<std::pair<std::string, Phrases>>
      group_verbs_;           // sum -> "sold": between the grouped entity and the comparison
  Stems group_determiners_;   // words between such a word and the measure ("an average price")
  Phrases group_exactly_;     // "exactly 5 employees": a count threshold of equality
  PeriodWords period_words_;  // "after 1928", "since July 2024", "2014 or later", "between 2010 and 2015"
  Phrases time_phrases_;
  Phrases bucket_phrases_;  // ask to bucket a date column the question names
  Phrases name_joiners_;    // "problem whose id" names problem_id
  Stems name_units_;        // inches, mph...: "sea level pressure" names sea_level_pressure_inches
  std::map<std::string, std::vector<std::string>>
      row_comparatives_;       // higher -> height: "mountains higher than 4100"
  Stems row_links_;            // are, that...: "mountains that are higher than 4100"
  Phrases x_axis_before_;      // "the x-axis is <column>": that column is the chart's x axis
  Phrases x_axis_after_;       // "<column> on the x axis"
  Phrases axis_joiners_;       // "versus" between two named columns: axes, no comparison
  Phrases metric_phrases_;     // "the sum of": the column after is a metric, whatever its type
  Phrases aggregation_words_;  // "maximum", "average": the question aggregates its metric
  Phrases superlatives_;       // "highest" before a grouped metric: each group's maximum, no ranking
  Phrases distinct_words_;  // "how many distinct products": the column is counted, not grouped by (no chart
                            // asked)
  struct RowLabels {
    std::vector<std::string> words;          // a text column whose name holds one names the rows
    std::vector<std::string> with_analysis;  // analysis that still draws a measure per row
  } row_labels_;
  std::vector<std::pair<std::string, Phrases>> grains_;
  Phrases ranking_desc_;
  Phrases ranking_asc_;
  Phrases ranking_counts_;      // most, least, fewest: with no measure named they rank by rows
  Phrases ranking_named_desc_;  // fastest, tallest...: superlatives that name their column (synonyms_)
  Phrases ranking_named_asc_;   // slowest, shortest...
  Phrases ranking_orders_;      // first, last: "highest first" orders every key
  Phrases ranking_key_links_;   // with, has...: "which musical has the most actors" ranks Musical_ID
  Phrases ranking_key_askers_;  // which, what: "which staff member is assigned the most logs" ranks a key
  Stems number_words_;          // zero, one, two, ...: a count written out, by its index
  std::map<std::string, std::int64_t> number_scales_;  // million -> 1000000: "1 million followers"
  Stems row_nouns_;  // rows, records, entries: "how many rows are there?" counts them
  std::vector<std::pair<std::string, Phrases>>
      month_words_;  // month -> its words, calendar order: "March 2024"
  SortPhrases sort_;
  RelativePeriodPhrases relative_periods_;
  TextFilterPhrases text_filters_;
  ValueWords value_words_;
  std::map<std::string, std::vector<std::string>> synonyms_;  // stem -> stems
  std::vector<std::string> stopwords_;                        // stems
  std::shared_ptr<const core::WordNetSynonyms> wordnet_;      // null: no WordNet tier

  friend class RequirementRulesReader;
};

}  // namespace planfirst::autoviz
