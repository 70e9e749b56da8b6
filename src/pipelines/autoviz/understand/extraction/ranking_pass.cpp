#include "pipelines/autoviz/understand/extraction/ranking_pass.hpp"

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
#include "pipelines/autoviz/understand/extraction/refusal_pass.hpp"
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

constexpr std::int64_t kMaxCountBefore =
    1000;  // "the 3 largest": a count before; "the 2024 largest" is a year

struct RankingWord {
  std::size_t length = 0;  // 0: none
  bool desc = true;
};

// The superlative naming its column ending right before `end` in `text` ("fastest"), desc winning a tie.
RankingWord named_ranking_word_ending_at(const Stems& text, std::size_t end, const RankingWords& ranking) {
  const std::size_t desc = phrase_ending_at(text, end, ranking.named_desc);
  return {std::max(desc, phrase_ending_at(text, end, ranking.named_asc)), desc > 0};
}

// The ranking word ending right before `end` in `text` ("top", "the most", "fastest"), desc
// winning a tie.
RankingWord ranking_word_ending_at(const Stems& text, std::size_t end, const RankingWords& ranking) {
  const std::size_t desc = phrase_ending_at(text, end, ranking.desc);
  const RankingWord word{std::max(desc, phrase_ending_at(text, end, ranking.asc)), desc > 0};
  return word.length > 0 ? word : named_ranking_word_ending_at(text, end, ranking);
}

// The column a ranking word at [begin, end) ranks by: a metric of numbers or dates it names ("the
// fastest": speed) or named within three words after it ("the lowest average cost"), else the first metric
// that is a measure, the first metric, or the row count when rows are counted ("the number of", or "the most"
// per key); "" when there is none.
std::string ranked_column(std::size_t begin, std::size_t end, const std::vector<Mention>& mentions,
                          bool counting, const data::SchemaProfile& profile, const Requirements& r) {
  const auto is_metric = [&](const std::string& name) {
    return std::find(r.metrics.begin(), r.metrics.end(), name) != r.metrics.end();
  };
  for (const Mention& m : mentions) {  // "the top 3 products by units": not the products' names
    if (m.begin >= begin && m.begin <= end + 3 && is_metric(m.column->name) && is_comparable(*m.column))
      return m.column->name;
  }
  for (const std::string& metric : r.metrics) {
    const data::ColumnProfile* column = profile.find(metric);
    if (column != nullptr && column->role == data::ColumnRole::kMeasure) return metric;
  }
  if (!r.metrics.empty()) return r.metrics.front();
  if (counting) return std::string(kCountColumn);  // "top 5 countries by number of invoices"
  return "";
}

// The tokens of the counts next to ranking words ("top 5", "the 3 largest") or before a column a
// ranking word follows ("the 2 aircraft with the most flights"): they name no value.
std::set<std::size_t> ranking_count_tokens(const Question& q, const std::vector<Mention>& mentions,
                                           const RankingWords& ranking) {
  std::set<std::size_t> counts;
  std::optional<std::size_t> last_ranking_end;
  for (std::size_t at = 0; at < q.stems.size(); ++at) {
    const std::size_t length = ranking_word_ending_at(q.stems, at + 1, ranking).length;
    if (length == 0) continue;
    last_ranking_end = at + 1;
    if (count_at(q.stems, at + 1, ranking.number_words)) counts.insert(at + 1);
    const std::size_t start = at + 1 - length;
    if (start > 0 && count_at(q.stems, start - 1, ranking.number_words)) counts.insert(start - 1);
  }
  for (const Mention& m : mentions) {
    if (!last_ranking_end || *last_ranking_end <= m.end || m.begin == 0) continue;
    const std::optional<std::int64_t> n = count_at(q.stems, m.begin - 1, ranking.number_words);
    if (n && *n <= kMaxCountBefore) counts.insert(m.begin - 1);
  }
  return counts;
}

// Whether a ranking word, not a comparison's ("at most 10"), ends right before `end`; its length.
std::size_t ranking_word_length(const Stems& text, std::size_t end, const RankingWords& ranking) {
  const std::size_t length = ranking_word_ending_at(text, end, ranking).length;
  const bool compares =
      std::any_of(ranking.comparisons.begin(), ranking.comparisons.end(),
                  [&](const auto& entry) { return phrase_ending_at(text, end, entry.second) > length; });
  return compares ? 0 : length;
}

}  // namespace

std::vector<std::string> add_id_keys(const Question& q, const std::vector<Mention>& ids,
                                     const RankingWords& ranking, const Phrases& links, const Phrases& askers,
                                     std::vector<Mention>& mentions) {
  std::vector<bool> taken(q.stems.size(), false);
  const auto span = [&](const Mention& m) {
    return std::make_pair(taken.begin() + static_cast<std::ptrdiff_t>(m.begin),
                          taken.begin() + static_cast<std::ptrdiff_t>(m.end));
  };
  for (const Mention& m : mentions) std::fill(span(m).first, span(m).second, true);
  const auto ranked_after = [&](std::size_t at) {
    while (const std::size_t n = phrase_starting_at(q.stems, at, links)) at += n;
    for (std::size_t end = at + 1; end <= q.stems.size(); ++end) {
      const std::size_t length = ranking_word_length(q.stems, end, ranking);
      if (length > 0 && end - length == at) return true;
    }
    return false;
  };
  const auto ranked_before = [&](std::size_t begin) {  // "top 3 tourist attractions"
    return begin >= 2 && count_at(q.stems, begin - 1, ranking.number_words) &&
           ranking_word_length(q.stems, begin - 1, ranking) > 0;
  };
  // "which 3 products were ordered in the largest quantity", "which staff member is assigned the most"
  const auto asked_then_ranked = [&](const Mention& m) {
    const bool asked = m.begin > 0 && (count_at(q.stems, m.begin - 1, ranking.number_words) ||
                                       phrase_ending_at(q.stems, m.begin, askers) > 0);
    if (!asked) return false;
    for (std::size_t end = m.end + 1; end <= q.stems.size(); ++end) {
      if (ranking_word_length(q.stems, end, ranking) > 0) return true;
    }
    return false;
  };
  std::vector<std::string> added;
  for (const Mention& id : ids) {
    const auto [first, last] = span(id);
    const bool grouped = phrase_ending_at(q.stems, id.begin, ranking.groups) > 0;  // "each order"
    if (std::any_of(first, last, [](bool t) { return t; }) ||
        !(ranked_after(id.end) || ranked_before(id.begin) || asked_then_ranked(id) || grouped))
      continue;
    std::fill(first, last, true);
    mentions.push_back(id);
    add_unique(added, id.column->name);
  }
  std::stable_sort(mentions.begin(), mentions.end(),
                   [](const Mention& a, const Mention& b) { return a.begin < b.begin; });
  return added;
}

namespace {

// The ranking the question states. A ranking word with a count right after or before it ("top 5",
// "the 3 largest", "the five biggest"), or a count before a column and a ranking word later ("the 3
// regions with the highest revenue"): a sort on the ranked column and a limit. A ranking word
// alone after a key it ranks ("the region with the lowest cost"): a sort in its direction. `words` are the
// question's stems with the understood words cleared.
void add_ranking(const Question& q, const Stems& words, const std::vector<Mention>& mentions,
                 const RankingWords& ranking, bool counting, const data::SchemaProfile& profile,
                 Requirements& requirements) {
  struct Found {
    std::size_t begin = 0;  // the ranking word
    std::size_t end = 0;    // one past it, and past its count when the count follows
    bool desc = true;
    std::optional<std::int64_t> n;
  };
  std::optional<Found> found;
  for (std::size_t at = 0; at < words.size() && (!found || !found->n); ++at) {
    RankingWord word = ranking_word_ending_at(words, at + 1, ranking);
    if (word.length == 0)
      word = named_ranking_word_ending_at(q.stems, at + 1, ranking);  // a column's mention
    const std::size_t length = word.length;
    const bool compares = std::any_of(
        ranking.comparisons.begin(), ranking.comparisons.end(),
        [&](const auto& entry) { return phrase_ending_at(words, at + 1, entry.second) > length; });
    if (length == 0 || compares) continue;
    std::optional<std::int64_t> n = count_at(q.stems, at + 1, ranking.number_words);  // "top 5"
    const std::size_t start = at + 1 - length;
    if (!n && start > 0) {  // "the 3 largest"
      n = count_at(words, start - 1, ranking.number_words);
      if (n && *n > kMaxCountBefore) n.reset();
    }
    if (!found || n) found = Found{start, n ? at + 2 : at + 1, word.desc, n};
  }
  if (!found) return;
  // What the ranking word ranks, named before it: a key ("which region has the highest revenue"), the
  // periods of the time column ("which month had the biggest revenue") or the rows, by the table's
  // name ("which station has the most platforms"); or the rows named right after it ("the most
  // expensive flight", "the highest-paid employee"). "The highest revenue
  // for each region" ranks nothing: it asks each region's maximum.
  std::vector<std::size_t> ranked;  // where the ranked things are named
  // Keys that repeat or periods, named in the plural ("which regions have the highest revenue"): all
  // of them, sorted; in the singular ("which region has..."), the first. Else only the rows are
  // ranked ("which flight has the highest price", "the name of the tallest coaster"): the first.
  bool keys_ranked = false;
  // "highest first", "most first": an order for every key, not the first key
  bool plural = phrase_starting_at(q.stems, found->end, ranking.orders) > 0;
  const auto is_plural = [&](std::size_t last) {  // "regions" (stem region), not "region", "status", "city"
    return q.tokens[last].size() > 1 && q.tokens[last].back() == 's' && q.tokens[last] != q.stems[last];
  };
  const auto after_group_phrase = [&](std::size_t begin) {  // "per product category": each of them
    std::size_t at = begin;
    while (at > 0 && std::find(ranking.fillers.begin(), ranking.fillers.end(), q.stems[at - 1]) !=
                         ranking.fillers.end())
      --at;
    return phrase_ending_at(q.stems, at, ranking.groups) > 0;
  };
  for (const Mention& m : mentions) {
    if (m.end > found->begin || m.column->role == data::ColumnRole::kMeasure) continue;
    ranked.push_back(m.begin);
    if (profile.repeats(*m.column) || data::is_temporal(m.column->type)) {
      keys_ranked = true;
      plural = plural || is_plural(m.end - 1) || after_group_phrase(m.begin);
    }
  }
  const auto names_table = [&](std::size_t at) {
    return at < q.stems.size() && !q.stems[at].empty() &&
           std::find(q.table.begin(), q.table.end(), q.stems[at]) != q.table.end();
  };
  // "which team has the highest ACC percent" over a table keyed by Team_ID: its rows, shown by the
  // key's name column (Team_Name) when it has one.
  const auto row_key_named = [&](std::size_t at) -> const data::ColumnProfile* {
    for (const data::ColumnProfile& column : profile.columns) {
      const std::optional<Stems> thing =
          profile.repeats(column) ? std::nullopt : id_thing(q, profile, column);
      if (!thing || at + thing->size() > found->begin ||
          !std::equal(thing->begin(), thing->end(), q.stems.begin() + static_cast<std::ptrdiff_t>(at)))
        continue;
      return &shown_by_name(q, profile, column, *thing);
    }
    return nullptr;
  };
  // The column that names the table's rows: Name, or dog_name for a table of dogs.
  const auto rows_name = [&]() -> const data::ColumnProfile* {
    Stems own = q.table;
    own.push_back("name");
    for (const data::ColumnProfile& column : profile.columns) {
      const Stems& stems = column_stems(q, profile, column);
      if (stems == Stems{"name"} || stems == own) return &column;
    }
    return nullptr;
  };
  const data::ColumnProfile* row_key = nullptr;  // what shows the ranked rows beside the value
  for (std::size_t at = 0; at < found->begin; ++at) {
    std::size_t unit = 0;  // "which month": the periods of the time column
    for (const auto& [label, phrases] : ranking.units) {
      if (!requirements.time.column) break;
      unit = std::max(unit, phrase_starting_at(q.stems, at, phrases));
    }
    if (unit > 0) {
      keys_ranked = true;
      plural = plural || is_plural(at + unit - 1);
    }
    if (unit > 0 || names_table(at)) {
      ranked.push_back(at);
      if (unit == 0 && row_key == nullptr && requirements.group_by.empty()) row_key = rows_name();
    } else if (const data::ColumnProfile* key = requirements.group_by.empty() ? row_key_named(at) : nullptr) {
      ranked.push_back(at);
      if (row_key == nullptr) row_key = key;
    }
  }
  if (requirements.group_by.empty()) {  // "the tallest roller coaster", "the most expensive flight"
    Stems kept;  // the words of the values filters keep: "the most expensive clothes product"
    for (const Constraint& c : requirements.constraints) {
      const std::string* value = c.type == "filter" && c.value.items.size() == 1
                                     ? std::get_if<std::string>(&c.value.items.front())
                                     : nullptr;
      if (value != nullptr) {
        const Stems stems = stems_of(core::tokenize(*value));
        kept.insert(kept.end(), stems.begin(), stems.end());
      }
    }
    std::size_t after = found->end;
    for (bool moved = true; moved;) {
      moved = false;
      for (const Mention& m : mentions) {
        if (m.begin != after) continue;
        after = m.end;  // the column the ranking word ranks by: "expensive"
        moved = true;
      }
      if (after < q.stems.size() && std::find(kept.begin(), kept.end(), q.stems[after]) != kept.end()) {
        ++after;
        moved = true;
      }
    }
    if (names_table(after)) {  // "who is the oldest dog": shown by its name
      ranked.push_back(after);
      if (row_key == nullptr) row_key = rows_name();
    }
  }
  for (std::size_t at : ranked) {  // "the 3 regions with the highest revenue": a count before them
    const std::optional<std::int64_t> n =
        at > 0 ? count_at(words, at - 1, ranking.number_words) : std::nullopt;
    if (!found->n && n && *n <= kMaxCountBefore) found->n = n;
  }
  if (!found->n && ranked.empty()) return;  // "the highest revenue": one maximum, nothing to order
  const bool keys = !requirements.group_by.empty() || requirements.time.column;
  const bool counts_rows = counting || (keys && phrase_starting_at(words, found->begin, ranking.counts) > 0);
  const std::string by =
      ranked_column(found->begin, found->end, mentions, counts_rows, profile, requirements);
  if (!by.empty())
    requirements.constraints.push_back({"sort", by, "", ParamValue{}, found->desc ? "desc" : "asc", 0});
  if (!by.empty() && row_key != nullptr && row_key->name != by &&
      std::find(requirements.metrics.begin(), requirements.metrics.end(), row_key->name) ==
          requirements.metrics.end())
    requirements.metrics.insert(requirements.metrics.begin(), row_key->name);
  const data::ColumnProfile* ranked_by =
      profile.find(by);  // "top 5 departments by number of employees" ranks
  if (ranked_by != nullptr &&
      ranked_by->role == data::ColumnRole::kMeasure &&  // by Num_Employees; it groups nothing
      std::find(requirements.metrics.begin(), requirements.metrics.end(), by) != requirements.metrics.end()) {
    std::erase(requirements.group_by, by);
  }
  if (!found->n && (!keys_ranked || !plural) && !by.empty())
    found->n = 1;  // "which flight has the highest price": that one
  if (found->n) requirements.constraints.push_back({"limit", "", "", ParamValue{}, "", *found->n});
  if (!by.empty() || found->n) add_unique(requirements.analysis, std::string("ranking"));
}

// The sort constraint of `clause`: its axis resolved to a column (x: the first time or grouping
// column, else the first metric; y: the first metric, the second when the first is the x axis, or
// "count" when the question counts rows), else a column named
// inside it. Nothing when a ranking already asked for a sort.
void add_sort(const SortClause& clause, const std::vector<Mention>& mentions, Requirements& requirements) {
  const bool sorted = std::any_of(requirements.constraints.begin(), requirements.constraints.end(),
                                  [](const Constraint& c) { return c.type == "sort"; });
  if (sorted) return;
  const std::vector<std::string>& metrics = requirements.metrics;
  std::string x =
      requirements.time.column.value_or(requirements.group_by.empty() ? "" : requirements.group_by.front());
  const bool pair = x.empty() && metrics.size() >= 2;  // one column drawn against another
  std::string y = metrics.empty() ? std::string(kCountColumn) : metrics[pair ? 1 : 0];
  if (x.empty()) x = metrics.empty() ? "" : metrics.front();
  std::string column = clause.axis == "y" || (clause.axis.empty() && clause.magnitude) ? y : x;
  if (clause.axis.empty()) {
    for (const Mention& m : mentions) {
      if (m.begin >= clause.begin && m.begin < clause.end) column = m.column->name;
    }
  }
  if (!column.empty())
    requirements.constraints.push_back({"sort", column, "", ParamValue{}, clause.direction, 0});
}

// The sort of `clause` (add_sort). A clause with no direction word under a ranking word takes its
// direction, and keyless rows keep the one asked for: "the largest single order by revenue".
void add_ranked_sort(SortClause clause, const Stems& words, const RankingWords& ranking,
                     const std::vector<Mention>& mentions, Requirements& requirements) {
  bool ranked_rows = false;
  for (std::size_t at = 0; !clause.stated && at < words.size(); ++at) {
    const RankingWord word = ranking_word_ending_at(words, at + 1, ranking);
    if (word.length == 0) continue;
    clause.direction = word.desc ? "desc" : "asc";
    ranked_rows =
        requirements.group_by.empty() && !requirements.time.column && requirements.metrics.size() <= 1;
    break;
  }
  const bool limited = std::any_of(requirements.constraints.begin(), requirements.constraints.end(),
                                   [](const Constraint& c) { return c.type == "limit"; });
  add_sort(clause, mentions, requirements);
  if (ranked_rows && !limited) requirements.constraints.push_back({"limit", "", "", ParamValue{}, "", 1});
}

// Blanks the grouping words ("by") a sort clause uses for its key: right after the direction ("in
// descending order by age") or after the verb and its object ("sort them by salary", "arrange the
// people by weight"); "list regions by revenue in descending order" still groups by region.
void release_sort_key(const SortClause& sort, const SortPhrases& phrases, const Phrases& group_phrases,
                      Question& q, TokenClaims& claims) {
  const bool plain_verb = phrase_starting_at(q.stems, sort.begin, phrases.plain) > 0;  // order, sort, rank
  for (std::size_t at = sort.begin + 1; at < sort.end; ++at) {
    bool after_verb = at == sort.begin + 1 || plain_verb;  // "show by the hire date from low to high"
    for (std::size_t k = sort.begin + 1; after_verb && k < at; ++k) {
      after_verb = phrase_starting_at(q.stems, k, phrases.objects) == 1 ||
                   std::find(q.table.begin(), q.table.end(), q.stems[k]) != q.table.end();
    }
    const bool after_direction = q.stems[at - 1] == "order" ||
                                 phrase_ending_at(q.stems, at, phrases.desc) > 0 ||
                                 phrase_ending_at(q.stems, at, phrases.asc) > 0;
    if (!after_verb && !after_direction) continue;
    for (std::size_t n = phrase_starting_at(q.stems, at, group_phrases); n > 0; --n)
      blank_claimed(at + n - 1, at + n, Claim::kSort, q, claims);
  }
}

// Whether sort clause `sort` (a verb and "by", no direction stated) sorts nothing: a bucket phrase
// follows its "by" ("show orders by weekday" groups by the weekday), or a plural noun opens the
// question ("orders by region": not the verb of "order by").
bool sorts_nothing(const Question& q, const SortClause& sort, const Phrases& bucket_phrases) {
  if (sort.stated) return false;
  if (sort.begin == 0 && q.tokens[0] != q.stems[0] && q.tokens[0].ends_with('s')) return true;
  for (std::size_t at = sort.begin; at < sort.end && at + 1 < q.stems.size(); ++at) {
    if (q.tokens[at] == "by") return phrase_starting_at(q.stems, at + 1, bucket_phrases) > 0;
  }
  return false;
}

}  // namespace

std::optional<SortClause> claim_sort_clause(std::string_view question, const SortPhrases& phrases,
                                            const Phrases& group_phrases, const Phrases& bucket_phrases,
                                            Question& q, TokenClaims& claims) {
  std::optional<SortClause> sort = find_sort_clause(q.stems, phrases, core::sentence_ends(question));
  if (sort && sorts_nothing(q, *sort, bucket_phrases)) sort.reset();
  if (sort && !sort->axis.empty()) {  // "by the y-axis from high to low" names no column
    blank_claimed(sort->begin, sort->end, Claim::kSort, q, claims);
  } else if (sort) {
    release_sort_key(*sort, phrases, group_phrases, q, claims);
  }
  return sort;
}

void claim_ranking_counts(const Question& q, const RankingWords& ranking, TokenClaims& claims,
                          const Findings& found) {
  claims.claim(ranking_count_tokens(q, found.mentions, ranking),
               Claim::kRankingCount);  // "top 5" filters no id 5
}

void rank(const Question& q, const data::SchemaProfile& profile, const RankingWords& ranking,
          Findings& found) {
  add_ranking(q, found.words, found.mentions, ranking, found.counting, profile, found.requirements);
  if (found.sort) add_ranked_sort(*found.sort, found.words, ranking, found.mentions, found.requirements);
}

}  // namespace planfirst::autoviz::extraction
