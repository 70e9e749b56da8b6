#include "pipelines/autoviz/understand/extraction/role_pass.hpp"

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
#include "pipelines/autoviz/understand/extraction/refusal_pass.hpp"
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

bool is_connector(const std::string& token) {
  return token == "and" || token == "or" || token == "the" || token == "its";
}

// Whether `r` keeps groups by an aggregate ("count(*)", "avg(price)") rather than by a column.
bool keeps_groups(const Requirements& r, const data::SchemaProfile& profile) {
  return std::any_of(r.constraints.begin(), r.constraints.end(),
                     [&](const Constraint& c) { return group_filter_of(c, profile).has_value(); });
}

// "departments with 5 or more employees", "countries whose invoice totals add up to more than 150":
// groups kept by an aggregate with no key named by a grouping phrase are those of an X_id column
// whose values repeat, named by X (`ids`: named_ids), else those of the columns named that are no measure.
void group_by_named_id(const std::vector<Mention>& ids, const data::SchemaProfile& profile,
                       Requirements& requirements) {
  if (!requirements.group_by.empty() || requirements.time.column || !keeps_groups(requirements, profile))
    return;
  if (!ids.empty()) {
    requirements.group_by = {ids.front().column->name};
    std::erase(requirements.metrics, ids.front().column->name);
    return;
  }
  for (const std::string& metric : requirements.metrics) {
    const data::ColumnProfile* column = profile.find(metric);
    if (column != nullptr && column->role != data::ColumnRole::kMeasure)
      requirements.group_by.push_back(metric);
  }
  std::erase_if(requirements.metrics, [&](const std::string& metric) {
    return std::find(requirements.group_by.begin(), requirements.group_by.end(), metric) !=
           requirements.group_by.end();
  });
}

// Where the words that determine the noun at `at` begin: an owner ("dog's", tokenized "dog s") and
// `fillers` ("the", "their") before it.
std::size_t start_of_determiners(const Question& q, std::size_t at, const Stems& fillers) {
  if (at >= 2 && q.tokens[at - 1] == "s") at -= 2;
  while (at > 0 && std::find(fillers.begin(), fillers.end(), q.stems[at - 1]) != fillers.end()) --at;
  return at;
}

// Whether a count phrase ends at token `at`, or just before a "the" there ("the number of the
// categories").
bool counts_at(const Question& q, std::size_t at, const Phrases& count_phrases) {
  if (phrase_ending_at(q.stems, at, count_phrases) > 0) return true;
  return at > 0 && q.tokens[at - 1] == "the" && phrase_ending_at(q.stems, at - 1, count_phrases) > 0;
}

// Whether a count phrase and a distinct word end at `at` ("how many distinct products", "the number
// of unique customers"): the column there is counted once per value, not grouped by.
bool counts_distinct_at(const Question& q, std::size_t at, const Phrases& count_phrases,
                        const Phrases& distinct_words) {
  const std::size_t word = phrase_ending_at(q.stems, at, distinct_words);
  return word > 0 && counts_at(q, at - word, count_phrases);
}

// The column a count phrase names ("how many players", "the number of companies") is what is
// counted, not a key, when a grouping phrase names another column ("... each position").
void drop_counted_keys(const std::vector<std::string>& counted,
                       const std::set<std::string>& grouped_by_phrase, const data::SchemaProfile& profile,
                       Requirements& requirements) {
  for (const std::string& column : counted) {  // "how many players came from UCLA?": each player is a row
    const data::ColumnProfile* named = profile.find(column);
    if (named != nullptr && named->distinct_count > 0 && !profile.repeats(*named) &&
        !grouped_by_phrase.count(column))
      std::erase(requirements.group_by, column);
  }
  const bool other_key =
      std::any_of(requirements.group_by.begin(), requirements.group_by.end(), [&](const std::string& c) {
        return grouped_by_phrase.count(c) && std::find(counted.begin(), counted.end(), c) == counted.end();
      });
  if (!other_key) return;
  for (const std::string& column : counted) {
    if (!grouped_by_phrase.count(column)) std::erase(requirements.group_by, column);
  }
}

// Whether `column` reads as an axis of categories or dates rather than as values to draw.
bool is_axis_column(const data::ColumnProfile& column) {
  return column.role != data::ColumnRole::kMeasure && column.role != data::ColumnRole::kIdentifier;
}

// A date column the question names with no grain and no bucketing word ("salary over hire_date",
// "count them by date") is drawn as its values are: it becomes the first grouping column when a
// phrase groups by it or the question counts, else a listed column.
void settle_named_time(bool grouped, std::vector<std::string>& listed, Requirements& requirements) {
  const std::string column = *requirements.time.column;
  requirements.time.column.reset();
  if (grouped) {
    requirements.group_by.insert(requirements.group_by.begin(), column);
  } else {
    listed.insert(listed.begin(), column);
  }
}

// A question that asks to bin ("binning the took office into weekday interval") and names no
// date column buckets the first column it names that holds years.
void bucket_named_years(const std::vector<Mention>& mentions, Requirements& requirements) {
  for (const Mention& m : mentions) {
    if (!integer_years(*m.column)) continue;  // every value reads as a year
    requirements.time.column = m.column->name;
    std::erase(requirements.group_by, m.column->name);
    std::erase(requirements.metrics, m.column->name);
    return;
  }
}

// Two columns listed with no grouping phrase and no count ("the name and age of each teacher",
// "name versus age") are drawn as they are: metrics = {axis, value}, the axis being the first
// column of categories or dates.
void draw_listed_pair(const std::vector<std::string>& listed, const data::SchemaProfile& profile,
                      Requirements& requirements) {
  if (listed.size() != 2) return;
  const data::ColumnProfile* first = profile.find(listed[0]);
  const data::ColumnProfile* second = profile.find(listed[1]);
  if (first == nullptr || second == nullptr) return;
  const bool swap = !is_axis_column(*first) && is_axis_column(*second);
  requirements.metrics = swap ? std::vector<std::string>{listed[1], listed[0]} : listed;
  std::erase_if(requirements.group_by,
                [&](const std::string& c) { return c == listed[0] || c == listed[1]; });
}

// One measure named with no grouping, count or aggregation ("compare each editor's age", "the
// budget of each department") is drawn per row: the text column that names the rows (its name
// holds a label word; the one with the most distinct values) joins it as the axis, {Name, Age}.
void label_rows(const data::SchemaProfile& profile, const std::vector<std::string>& label_words,
                Requirements& requirements) {
  const data::ColumnProfile* measure = profile.find(requirements.metrics.front());
  if (measure == nullptr || measure->role != data::ColumnRole::kMeasure) return;
  const data::ColumnProfile* label = nullptr;
  for (const data::ColumnProfile& column : profile.columns) {
    if (data::is_numeric(column.type) || column.role == data::ColumnRole::kTemporal) continue;
    const std::vector<std::string> words = column_words(column.name);
    const bool names_rows = std::any_of(words.begin(), words.end(), [&](const std::string& word) {
      return std::find(label_words.begin(), label_words.end(), word) != label_words.end();
    });
    if (names_rows && (label == nullptr || column.distinct_count > label->distinct_count)) label = &column;
  }
  if (label != nullptr) requirements.metrics.insert(requirements.metrics.begin(), label->name);
}

// "distance by name" where every name is one row's: groups of one row aggregate nothing, so the
// measure is drawn per row, against the key.
void draw_per_unique_key(const data::SchemaProfile& profile, Requirements& requirements) {
  const data::ColumnProfile* measure = profile.find(requirements.metrics.front());
  const data::ColumnProfile* key = profile.find(requirements.group_by.front());
  if (measure == nullptr || measure->role != data::ColumnRole::kMeasure || key == nullptr || key == measure)
    return;
  if (key->null_count != 0 || key->distinct_count != profile.row_count || profile.row_count < 2) return;
  requirements.metrics.insert(requirements.metrics.begin(), key->name);
  requirements.group_by.clear();
}

// Words of a quoted value name no column; side by side, the words of one column name it once
// ("membership level" for Level_of_membership). Findings::mentions are in question order.
bool named_once(const Findings& found, const std::string& name) {
  std::size_t names = 0;
  std::optional<std::size_t> last_end;
  for (const Mention& m : found.mentions) {
    const bool quoted = std::any_of(found.quotes.begin(), found.quotes.end(), [&](const QuotedSpan& quote) {
      return m.begin >= quote.begin && m.end <= quote.end;
    });
    if (m.column->name != name || quoted) continue;
    if (last_end != m.begin) ++names;
    last_end = m.end;
  }
  return names <= 1;
}

}  // namespace

void group_asked_category(const Question& q, const std::vector<Mention>& mentions, const Phrases& askers,
                          Requirements& r) {
  if (!r.group_by.empty() || r.time.column || !listed(r.analysis, "ranking")) return;
  const auto measured = std::any_of(mentions.begin(), mentions.end(), [&](const Mention& m) {
    return m.column->role == data::ColumnRole::kMeasure && listed(r.metrics, m.column->name);
  });
  if (!measured) return;
  for (const Mention& m : mentions) {
    const auto metric = std::find(r.metrics.begin(), r.metrics.end(), m.column->name);
    if (m.column->role != data::ColumnRole::kCategorical || metric == r.metrics.end() || m.begin == 0 ||
        phrase_ending_at(q.stems, m.begin, askers) == 0) {
      continue;
    }
    r.group_by.push_back(*metric);
    r.metrics.erase(metric);
    return;
  }
}

void assign_roles(const Question& q, const RoleWords& words, Findings& found) {
  Requirements& requirements = found.requirements;
  std::vector<std::string>& ungrouped =
      found.ungrouped;  // columns named outside a grouping phrase or after a bare "by", in order
  std::set<std::string>& grouped_by_phrase =
      found.grouped_by_phrase;  // "how many": a number after "by" groups
  std::vector<std::string>& counted =
      found.counted;  // "how many players ... each position": players are counted
  bool grouping = false;
  found.counting = contains_phrase(q.stems, words.count_phrases) ||
                   !found.row_counts.empty();  // "with more than 3 students"
  const bool counting = found.counting;
  std::size_t previous_end = 0;
  const auto chart = std::find_if(words.outputs.begin(), words.outputs.end(),
                                  [](const auto& entry) { return entry.first == "chart"; });
  const bool asks_chart = chart != words.outputs.end() && contains_phrase(q.stems, chart->second);
  for (const Mention& m : found.mentions) {
    if (counting && counts_at(q, m.begin, words.count_phrases)) counted.push_back(m.column->name);
    const std::size_t owner = start_of_determiners(q, m.begin, words.group_fillers);  // "by the dog's name"
    const std::size_t phrase =
        std::max(phrase_ending_at(q.stems, owner, words.group_phrases),
                 counting ? phrase_ending_at(q.stems, owner, words.count_group_phrases) : 0);
    bool continues = grouping && m.begin >= previous_end;
    for (std::size_t at = previous_end; continues && at < m.begin; ++at)
      continues = is_connector(q.tokens[at]);
    grouping = phrase > 0 ||
               (continues && m.column->role != data::ColumnRole::kMeasure);  // "each name and the amount"
    previous_end = m.end;
    const data::ColumnProfile& column = *m.column;
    if (grouping) grouped_by_phrase.insert(column.name);
    const bool bare_by =
        m.begin > 0 && q.tokens[m.begin - 1] == "by" &&
        (m.begin < 2 || (q.tokens[m.begin - 2] != "group" && q.tokens[m.begin - 2] != "grouped"));
    if ((!grouping || bare_by) && column.role != data::ColumnRole::kTemporal)
      add_unique(ungrouped, column.name);
    if (column.role == data::ColumnRole::kTemporal) {
      if (!requirements.time.column) requirements.time.column = column.name;
      found.time_named = true;
    } else if (counting && !asks_chart && phrase == 0 &&
               counts_distinct_at(q, m.begin, words.count_phrases, words.distinct_words)) {
      add_unique(requirements.metrics,
                 column.name);  // "how many distinct products": one count, or one per key
    } else if (phrase_ending_at(q.stems, m.begin, words.metric_phrases) > 0 && phrase == 0) {
      add_unique(requirements.metrics,
                 column.name);  // "the sum of manager_id": aggregated, whatever its type
    } else if (column.role == data::ColumnRole::kMeasure &&
               (!grouping || (requirements.metrics.empty() && !counting && m.begin > 0 &&
                              q.tokens[m.begin - 1] == "by"))) {
      add_unique(requirements.metrics, column.name);  // "top 3 categories by units" ranks by units
    } else {
      add_unique(requirements.group_by, column.name);
    }
  }
  for (const std::string& id :
       found.id_keys) {  // "the 5 departments with the highest average salary": per DEPARTMENT_ID
    std::erase(requirements.metrics, id);
    add_unique(requirements.group_by, id);
    grouped_by_phrase.insert(id);
  }
  if (!found.row_counts.empty() && requirements.group_by.empty() && !requirements.time.column) {
    requirements.group_by =
        std::exchange(requirements.metrics, {});  // "which advisors have more than 3 students": per advisor
  }
}

void key_kept_groups(const data::SchemaProfile& profile, Findings& found) {
  group_by_named_id(found.ids, profile, found.requirements);
  if (keeps_groups(found.requirements,
                   profile))  // "countries whose totals add up to more than 150": keys, not a listed pair
    found.grouped_by_phrase.insert(found.requirements.group_by.begin(), found.requirements.group_by.end());
}

void settle_filtered_roles(std::string_view question, const Question& q, const data::SchemaProfile& profile,
                           const LabelledPhrases& grains, const Phrases& x_axis_before,
                           const Phrases& x_axis_after, const std::vector<std::string>& compared_values,
                           Findings& found) {
  Requirements& requirements = found.requirements;
  const std::vector<Mention>& mentions = found.mentions;
  found.quotes = quoted_spans(question, q.tokens);
  const bool grained = std::any_of(grains.begin(), grains.end(),
                                   [&](const auto& grain) { return contains_phrase(q.stems, grain.second); });
  for (const Constraint& c : requirements.constraints) {  // "whose sex is F" filters; it does not group
    if (c.type == "filter" && !found.grouped_by_phrase.count(c.column) && named_once(found, c.column)) {
      std::erase(requirements.group_by, c.column);
      if (requirements.time.column == c.column && !grained)
        requirements.time.column.reset();  // "how many employees were hired in August 1987?": one count
    }
  }
  for (const std::string& column : compared_values) add_unique(requirements.group_by, column);
  const auto on_x_axis = std::find_if(mentions.begin(), mentions.end(), [&](const Mention& m) {
    return phrase_ending_at(q.stems, m.begin, x_axis_before) > 0 ||
           phrase_starting_at(q.stems, m.end, x_axis_after) > 0;
  });
  if (on_x_axis != mentions.end())
    std::erase(found.counted, on_x_axis->column->name);  // a named axis stays a key
  drop_counted_keys(found.counted, found.grouped_by_phrase, profile, requirements);
  if (on_x_axis != mentions.end()) {  // "the x-axis is winery", "age on the x axis": that column first
    for (std::vector<std::string>* list : {&requirements.group_by, &requirements.metrics}) {
      auto it = std::find(list->begin(), list->end(), on_x_axis->column->name);
      if (it != list->end()) std::rotate(list->begin(), it, it + 1);
    }
  }
  if (found.time_named && !requirements.group_by.empty() &&
      std::find(found.counted.begin(), found.counted.end(), *requirements.time.column) !=
          found.counted.end()) {
    requirements.time.column.reset();  // "the number of invoices by state": invoice_date is counted
  }
}

void clear_understood_words(const Question& q, const Phrases& axis_joiners, const TokenClaims& claims,
                            Findings& found) {
  const std::vector<Mention>& mentions = found.mentions;
  const std::optional<SortClause>& sort = found.sort;
  // Words that name a column say nothing else: a column called "rank" asks for no ranking.
  Stems& words = found.words;
  words = q.stems;
  for (const Mention& m : mentions) {
    for (std::size_t at = m.begin; at < m.end; ++at) words[at].clear();
  }
  for (std::size_t at = sort ? sort->begin : 0; sort && at < sort->end; ++at) words[at].clear();
  for (std::size_t at : claims.taken(kCompared)) words[at].clear();  // "at least 2 goals" ranks nothing
  for (std::size_t i = 1; i < mentions.size(); ++i) {                // "name versus age" compares nothing
    const std::size_t gap = mentions[i].begin - mentions[i - 1].end;
    if (gap > 0 && phrase_ending_at(q.stems, mentions[i].begin, axis_joiners) == gap) {
      for (std::size_t at = mentions[i - 1].end; at < mentions[i].begin; ++at) words[at].clear();
    }
  }
}

void settle_listed_roles(const data::SchemaProfile& profile, const LabelledPhrases& grains,
                         const Phrases& bucket_phrases, const Phrases& time_phrases, Findings& found) {
  Requirements& requirements = found.requirements;
  const Stems& words = found.words;
  const std::set<std::string>& grouped_by_phrase = found.grouped_by_phrase;
  const std::optional<std::string>& period_column = found.period_column;
  const bool counting = found.counting;
  const bool time_named = found.time_named;
  for (const auto& [grain, phrases] : grains) {
    if (contains_phrase(words, phrases)) requirements.time.grain = grain;
  }
  std::vector<std::string> listed;  // columns named outside grouping phrases, in order, filters aside
  for (const std::string& name : found.ungrouped) {
    const bool filtered = std::any_of(requirements.constraints.begin(), requirements.constraints.end(),
                                      [&](const Constraint& c) { return c.column == name; });
    if ((!filtered || !named_once(found, name)) && !grouped_by_phrase.count(name))
      listed.push_back(name);  // "names ... in their names"
  }
  const bool grouped = !grouped_by_phrase.empty() || counting;
  if (time_named && requirements.time.column && requirements.time.grain == "unknown" &&
      !contains_phrase(words, bucket_phrases)) {
    settle_named_time(grouped_by_phrase.count(*requirements.time.column) > 0 || counting, listed,
                      requirements);
  }
  if (!grouped) draw_listed_pair(listed, profile, requirements);
  if (!time_named && contains_phrase(words, bucket_phrases)) bucket_named_years(found.mentions, requirements);
  const bool asks_time = requirements.time.grain != "unknown" || contains_phrase(words, time_phrases);
  if (period_column && !asks_time &&
      !grouped_by_phrase.count(*period_column)) {  // "how many dogs arrived this year?"
    std::erase(requirements.group_by, *period_column);
    if (requirements.time.column == period_column) requirements.time.column.reset();
    const data::ColumnProfile* measure =
        requirements.metrics.size() == 1 ? profile.find(requirements.metrics.front()) : nullptr;
    if (requirements.group_by.empty() && !requirements.time.column && measure != nullptr &&
        measure->role == data::ColumnRole::kMeasure)
      add_unique(requirements.analysis, std::string("total"));  // "what was revenue year to date?": one total
  }
  const bool keyed_by_years =
      std::any_of(requirements.group_by.begin(), requirements.group_by.end(), [&](const std::string& key) {
        const data::ColumnProfile* column = profile.find(key);
        return column != nullptr &&
               integer_years(*column)
                   .has_value();  // "the trend of games by season": Season's years are the time
      });
  if (asks_time && !requirements.time.column && !time_named && !keyed_by_years) {
    for (const data::ColumnProfile& column : profile.columns) {
      if (column.role == data::ColumnRole::kTemporal) {
        requirements.time.column = column.name;
        break;
      }
    }
  }
}

void clear_superlatives(const Question& q, const Phrases& superlatives, Findings& found) {
  const Requirements& requirements = found.requirements;
  for (const Mention& m :
       found.mentions) {  // "the highest latitude for each city": each city's maximum, no ranking
    const bool metric = std::find(requirements.metrics.begin(), requirements.metrics.end(), m.column->name) !=
                        requirements.metrics.end();
    if (found.grouped_by_phrase.empty() || !metric) continue;
    const std::size_t n = phrase_ending_at(q.stems, m.begin, superlatives);
    for (std::size_t at = m.begin - n; at < m.begin; ++at) found.words[at].clear();
  }
}

void settle_metrics(const Question& q, const data::SchemaProfile& profile, const Phrases& aggregation_words,
                    const std::vector<std::string>& label_words,
                    const std::vector<std::string>& label_analysis, std::size_t compare_when_grouped_by,
                    Findings& found) {
  Requirements& requirements = found.requirements;
  std::vector<std::string>& ungrouped = found.ungrouped;
  const bool grouped = !found.grouped_by_phrase.empty() || found.counting;
  const bool correlates = std::find(requirements.analysis.begin(), requirements.analysis.end(),
                                    "correlation") != requirements.analysis.end();
  const auto only_filtered =
      [&](const std::string& name) {  // a column named once, in a filter, is no axis or metric
        return named_once(found, name) &&
               std::any_of(requirements.constraints.begin(), requirements.constraints.end(),
                           [&](const Constraint& c) { return c.type == "filter" && c.column == name; });
      };
  if (std::any_of(requirements.metrics.begin(), requirements.metrics.end(), only_filtered) &&
      requirements.metrics.size() + requirements.group_by.size() + (requirements.time.column ? 1 : 0) > 1) {
    std::erase_if(requirements.metrics, only_filtered);
  }
  std::erase_if(ungrouped, only_filtered);
  if (correlates && ungrouped.size() >= 2) {  // a relationship is between the columns it names, in order
    for (const std::string& name : ungrouped) {
      std::erase(requirements.group_by, name);
    }
    requirements.metrics = ungrouped;
  }
  const bool per_row =
      std::all_of(requirements.analysis.begin(), requirements.analysis.end(), [&](const std::string& a) {
        return std::find(label_analysis.begin(), label_analysis.end(), a) != label_analysis.end();
      });  // every metric phrase ("the average of") holds an aggregation word
  const bool one_measure = per_row && !contains_phrase(q.stems, aggregation_words) &&
                           !requirements.time.column &&
                           requirements.metrics.size() == 1;  // drawn per row, unless grouped
  if (one_measure && !grouped && requirements.group_by.empty())
    label_rows(profile, label_words, requirements);
  if (one_measure && !found.counting && requirements.group_by.size() == 1)
    draw_per_unique_key(profile, requirements);
  if (requirements.group_by.size() >= compare_when_grouped_by)
    add_unique(requirements.analysis, std::string("compare"));
}

}  // namespace planfirst::autoviz::extraction
