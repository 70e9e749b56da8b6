#include "pipelines/autoviz/understand/extraction/refusal_pass.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/ascii_case.hpp"
#include "core/calendar.hpp"
#include "core/date_parse.hpp"
#include "core/join.hpp"
#include "core/similarity.hpp"
#include "core/stemmer.hpp"
#include "core/timestamp.hpp"
#include "core/tokenizer.hpp"
#include "core/wordnet_synonyms.hpp"
#include "pipelines/autoviz/group_filter.hpp"
#include "pipelines/autoviz/row_count.hpp"
#include "pipelines/autoviz/understand/abbreviated_value.hpp"
#include "pipelines/autoviz/understand/extraction/column_pass.hpp"
#include "pipelines/autoviz/understand/extraction/comparison_pass.hpp"
#include "pipelines/autoviz/understand/extraction/findings.hpp"
#include "pipelines/autoviz/understand/extraction/label_pass.hpp"
#include "pipelines/autoviz/understand/extraction/numbers.hpp"
#include "pipelines/autoviz/understand/extraction/period_pass.hpp"
#include "pipelines/autoviz/understand/extraction/question.hpp"
#include "pipelines/autoviz/understand/extraction/ranking_pass.hpp"
#include "pipelines/autoviz/understand/extraction/role_pass.hpp"
#include "pipelines/autoviz/understand/extraction/token_claims.hpp"
#include "pipelines/autoviz/understand/extraction/value_pass.hpp"
#include "pipelines/autoviz/understand/phrase_match.hpp"
#include "pipelines/autoviz/understand/quoted_value.hpp"
#include "pipelines/autoviz/understand/relative_period.hpp"
#include "pipelines/autoviz/understand/rule_requirement_extractor.hpp"
#include "pipelines/autoviz/understand/sort_clause.hpp"
#include "pipelines/autoviz/understand/text_filter.hpp"

namespace planfirst::autoviz::extraction {

namespace {

// Whether the question only counts the table's rows: it names them (a row noun such as "rows", a
// word of the table's name, or the thing an id column identifies: "orders" beside order_id), and
// every other word is a stopword or a count phrase ("how many orders are there?"). "The number of
// attractions per way to get there" counts something it does not name, so it is refused.
bool counts_only_rows(const Question& q, const Stems& words, const Stems& stopwords,
                      const Phrases& count_phrases) {
  bool rows = false;
  for (std::size_t at = 0; at < q.stems.size(); ++at) {
    if (const std::size_t n = phrase_starting_at(q.stems, at, count_phrases)) {
      at += n - 1;
    } else if (listed(words, q.stems[at])) {
      rows = true;
    } else if (!q.stems[at].empty() && !listed(stopwords, q.stems[at])) {
      return false;
    }
  }
  return rows;
}

// The words naming what a question measures when no column holds it: the words right before its
// first phrase of `anchors` (groupings, time phrases, grains: "total profit per channel", "profit
// over time"), else right after it ("monthly profit"), none a column's, a value's (`taken`), a
// stopword or a word of `known` (aggregations, analyses, outputs). Empty when the question names
// its rows (`rows`: "orders by region", "how films are produced by each studio" count them) or no
// such words.
std::vector<std::string> unheld_quantity(const Question& q, const std::vector<Mention>& mentions,
                                         const std::set<std::size_t>& taken, const Stems& rows,
                                         const Stems& stopwords, const std::vector<const Phrases*>& anchors,
                                         const std::vector<const Phrases*>& known) {
  if (std::any_of(q.stems.begin(), q.stems.end(),
                  [&](const std::string& stem) { return listed(rows, stem); }))
    return {};
  const auto length_at = [&](const std::vector<const Phrases*>& lists, std::size_t at) {
    std::size_t n = 0;
    for (const Phrases* phrases : lists) n = std::max(n, phrase_starting_at(q.stems, at, *phrases));
    return n;
  };
  const auto unknown = [&](std::size_t at) {
    return !q.tokens[at].empty() && !in_mention(mentions, at) && !taken.count(at) &&
           !listed(stopwords, q.stems[at]) && length_at(anchors, at) == 0 && length_at(known, at) == 0;
  };
  std::size_t anchor = 0;
  while (anchor < q.stems.size() && length_at(anchors, anchor) == 0) ++anchor;
  if (anchor == q.stems.size()) return {};
  std::vector<std::string> words;
  for (std::size_t at = anchor; at-- > 0 && unknown(at);) words.insert(words.begin(), q.tokens[at]);
  for (std::size_t at = anchor + length_at(anchors, anchor);
       words.empty() && at < q.tokens.size() && unknown(at); ++at) {
    words.push_back(q.tokens[at]);
  }
  return words;
}

std::vector<std::string> column_names(const data::SchemaProfile& profile) {
  std::vector<std::string> names;
  for (const data::ColumnProfile& column : profile.columns) names.push_back(column.name);
  return names;
}

// " (did you mean 'revenue'?)" for each of `words` that is a column name misspelt, else empty.
std::string spelling_hint(const data::SchemaProfile& profile, const std::vector<std::string>& words) {
  std::vector<std::string> meant;
  for (const std::string& word : words) {
    if (const std::optional<std::string> name = core::closest_name(word, column_names(profile)))
      meant.push_back("'" + *name + "'" + (words.size() > 1 ? " for '" + word + "'" : ""));
  }
  return meant.empty() ? "" : " (did you mean " + core::join(meant) + "?)";
}

// The refusal of a question asking for `asked`, which no column of `profile` holds.
core::Error unheld_quantity_error(const data::SchemaProfile& profile, const std::vector<std::string>& asked) {
  std::vector<std::string> measures;
  for (const data::ColumnProfile& column : profile.columns) {
    if (column.role == data::ColumnRole::kMeasure) measures.push_back(column.name);
  }
  const std::string words = core::join(asked, " ");
  const std::string held =
      measures.empty() ? "; it has no measure column" : "; the measures are: " + core::join(measures);
  const std::string hint = spelling_hint(profile, asked);
  return core::invalid_argument("the question asks for '" + words + "', which no column of " + profile.table +
                                    " holds" + hint + held +
                                    (hint.empty() ? "; to count rows, ask for the number of " + words : ""),
                                "metrics");
}

}  // namespace

std::optional<core::Error> ratio_of_measures(std::string_view question, const Question& q,
                                             const std::vector<Mention>& mentions, const Requirements& r) {
  if (q.spans.empty() || (r.group_by.size() < 2 && !(r.group_by.size() == 1 && r.time.column)))
    return std::nullopt;
  for (const Mention& a : mentions) {
    for (const Mention& b : mentions) {
      if (b.begin != a.end + 1 || q.stems[a.end] != "per" || a.column->role != data::ColumnRole::kMeasure ||
          b.column->role != data::ColumnRole::kMeasure || !listed(r.metrics, a.column->name) ||
          !listed(r.group_by, b.column->name)) {
        continue;
      }
      const std::string words(
          question.substr(q.spans[a.begin].begin, q.spans[b.end - 1].end - q.spans[a.begin].begin));
      return core::invalid_argument("the question asks for '" + words + "', a ratio of " + a.column->name +
                                        " to " + b.column->name + ", which no plan step computes; ask for " +
                                        a.column->name + " and " + b.column->name +
                                        " side by side, or for the average " + a.column->name,
                                    "metrics");
    }
  }
  return std::nullopt;
}

core::Result<void> refuse_unmet_comparisons(const Question& q, const data::SchemaProfile& profile,
                                            const LabelledPhrases& comparisons, const TokenClaims& claims) {
  if (const std::vector<std::string> unmet =
          unmet_comparisons(q, comparisons, claims.taken(kCountedOrCompared));
      !unmet.empty()) {
    std::vector<std::string> numeric;
    for (const data::ColumnProfile& column : profile.columns) {
      if (is_comparable(column)) numeric.push_back(column.name);
    }
    return core::invalid_argument("the question compares '" + unmet.front() +
                                      "' and compares no column that way: say which column it compares; the "
                                      "columns of numbers and dates are: " +
                                      (numeric.empty() ? "(none)" : core::join(numeric)),
                                  profile.table);
  }
  return core::ok();
}

core::Result<void> refuse_unnamed(const Question& q, const data::SchemaProfile& profile,
                                  const RefusalWords& words, TokenClaims& claims, const Findings& found) {
  const Requirements& requirements = found.requirements;
  const bool counting = found.counting;
  std::optional<Stems> row_nouns;  // any id's thing names the rows counted; read by at most two checks below
  const auto counted_rows = [&]() -> const Stems& {
    if (!row_nouns) row_nouns = row_words(q, profile, words.row_nouns, false);
    return *row_nouns;
  };
  if (requirements.metrics.empty() && !counting &&
      (!requirements.group_by.empty() || requirements.time.column)) {
    // "total profit per channel" with no profit column: counting its orders would answer something else
    std::vector<const Phrases*> anchors{&words.group_phrases, &words.time_phrases, &words.bucket_phrases};
    for (const auto& [grain, phrases] : words.grains) anchors.push_back(&phrases);
    std::vector<const Phrases*> known{&words.aggregation_words, &words.count_phrases};
    for (const auto* labelled : {&words.analysis, &words.outputs}) {
      for (const auto& [label, phrases] : *labelled) known.push_back(&phrases);
    }
    for (const QuotedSpan& quote : found.quotes) {  // a quoted value names no quantity
      for (std::size_t at = quote.begin; at < quote.end; ++at) claims.claim(at, Claim::kQuoted);
    }
    const std::vector<std::string> asked =
        unheld_quantity(q, found.mentions, claims.taken(kCountedOrCompared | Claim::kValue | Claim::kQuoted),
                        counted_rows(), words.stopwords, anchors, known);
    if (!asked.empty()) return unheld_quantity_error(profile, asked);
  }
  if (found.mentions.empty() && requirements.constraints.empty() && requirements.group_by.empty() &&
      !requirements.time.column &&
      !(counting && counts_only_rows(q, counted_rows(), words.stopwords, words.count_phrases))) {
    // "orders per weekday" asks time; "male and female staff" compares sexes; "how many orders are there?"
    // counts rows
    std::vector<std::string> unknown;
    for (std::size_t at = 0; at < q.tokens.size();
         ++at) {  // blanked words (a sort clause, a period) were understood
      if (!q.tokens[at].empty() &&
          std::find(words.stopwords.begin(), words.stopwords.end(), q.stems[at]) == words.stopwords.end()) {
        unknown.push_back(q.tokens[at]);
      }
    }
    const std::string hint = spelling_hint(profile, unknown);
    return core::invalid_argument(
        "the question names no column of " + profile.table +
            "; words not understood: " + (unknown.empty() ? "(none)" : core::join(unknown)) + hint +
            "; the columns are: " + core::join(column_names(profile)),
        profile.table);
  }
  return core::ok();
}

}  // namespace planfirst::autoviz::extraction
