// Findings is what the requirement passes have found in one question so far: the requirements
// they filled and what a later pass reads of an earlier one (the columns named, the keys, the
// counts, the words left). RuleRequirementExtractor::extract makes one per question; the passes
// fill it in order.
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "pipelines/autoviz/requirements.hpp"
#include "pipelines/autoviz/understand/extraction/question.hpp"
#include "pipelines/autoviz/understand/phrase_match.hpp"
#include "pipelines/autoviz/understand/quoted_value.hpp"
#include "pipelines/autoviz/understand/relative_period.hpp"
#include "pipelines/autoviz/understand/sort_clause.hpp"

namespace planfirst::autoviz::extraction {

struct Findings {
  Requirements requirements;
  std::optional<SortClause> sort;            // the sort clause, unless it sorts nothing
  std::optional<RelativePeriod> period;      // the one relative period that keeps rows ("last year")
  std::optional<std::string> period_column;  // the dates it keeps; none beside a named year
  std::optional<std::string> years_column;   // the dates several named years keep ("2023 vs 2024")
  std::vector<Mention> mentions;             // the columns named, in question order
  std::vector<Mention> ids;                  // where the things X_id columns identify are named
  std::vector<std::string> id_keys;          // the X_id columns a ranking or grouping keys by
  Stems rows;                                // the words naming the table's rows, by their own words and ids
  std::set<std::size_t> row_counts;          // the tokens of counts of rows compared ("more than 3 students")
  bool counting = false;  // the question counts rows ("how many", "with more than 3 students")
  std::vector<std::string>
      ungrouped;  // columns named outside a grouping phrase or after a bare "by", in order
  std::set<std::string> grouped_by_phrase;  // "how many": a number after "by" groups
  bool time_named = false;                  // a temporal column is named
  std::vector<std::string> counted;         // "how many players ... each position": players are counted
  std::vector<QuotedSpan> quotes;           // the quoted values
  Stems words;  // the stems no column, sort clause or comparison took: what asks for grains, analysis,
                // outputs, ranking
};

}  // namespace planfirst::autoviz::extraction
