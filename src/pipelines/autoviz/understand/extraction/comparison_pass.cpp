#include "pipelines/autoviz/understand/extraction/comparison_pass.hpp"

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
#include "pipelines/autoviz/understand/extraction/findings.hpp"
#include "pipelines/autoviz/understand/extraction/label_pass.hpp"
#include "pipelines/autoviz/understand/extraction/numbers.hpp"
#include "pipelines/autoviz/understand/extraction/period_pass.hpp"
#include "pipelines/autoviz/understand/extraction/question.hpp"
#include "pipelines/autoviz/understand/extraction/ranking_pass.hpp"
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

// The filter on `column` that a comparison phrase ending at `end` and its number state
// ("lower than 50000", "between 10 and 20"), or for a date column its date ("before 2002-06-21");
// nothing without both.
std::optional<Constraint> comparison_at(const Question& q, std::size_t end, const data::ColumnProfile& column,
                                        const std::vector<std::pair<std::string, Phrases>>& comparisons) {
  for (const auto& [op, phrases] : comparisons) {
    if (phrase_ending_at(q.stems, end, phrases) == 0) continue;
    if (column.role == data::ColumnRole::kTemporal) {
      const std::optional<std::string> date = date_after(q, end);
      if (date && op != "between")
        return Constraint{"filter", column.name, op, ParamValue{{*date}, false}, "", 0};
      continue;
    }
    const auto first = number_for_column(q, end, column);
    if (!first) continue;
    if (op != "between")
      return Constraint{"filter", column.name, op, ParamValue{{first->first}, false}, "", 0};
    const std::size_t joiner = end + first->second;
    const auto second = number_for_column(q, joiner + 1, column);
    if (second && joiner < q.tokens.size() && q.tokens[joiner] == "and") {
      ParamScalar low = first->first, high = second->first;
      if (scalar_number(high) < scalar_number(low)) std::swap(low, high);  // "between 200 and 50": [50, 200]
      return Constraint{"filter", column.name, op, ParamValue{{low, high}, true}, "", 0};
    }
  }
  return std::nullopt;
}

// "higher than 1000 or lower than 500": the comparison `filter` whose number is token `number`,
// followed by "or" and the opposite comparison with a number on the other side, keeps the rows
// outside the range: not_between [low, high]. Returns the last token used, or 0 when no such "or".
std::size_t outside_range(const Question& q, std::size_t number, const data::ColumnProfile& column,
                          const std::vector<std::pair<std::string, Phrases>>& comparisons,
                          Constraint& filter) {
  if ((filter.op != ">" && filter.op != "<") || number + 2 >= q.tokens.size() || q.tokens[number + 1] != "or")
    return 0;
  for (std::size_t end = number + 3; end <= number + 4 && end < q.tokens.size(); ++end) {
    const std::optional<Constraint> other = comparison_at(q, end, column, comparisons);
    if (!other || other->op == filter.op || (other->op != ">" && other->op != "<")) continue;
    const auto& above = filter.op == ">" ? filter.value.items.front() : other->value.items.front();
    const auto& below = filter.op == ">" ? other->value.items.front() : filter.value.items.front();
    if (scalar_number(below) > scalar_number(above)) return 0;
    filter = Constraint{"filter", column.name, "not_between", ParamValue{{below, above}, true}, "", 0};
    return end;
  }
  return 0;
}

// A number compares a column at most this many words after its name ("salary is in the range of
// 8000 and 12000").
constexpr std::size_t kComparisonReach = 5;

// The filter on numeric `column` that the number at token `at` and a suffix after it state ("95 or
// higher"), with the tokens they take; nothing without both.
struct SuffixComparison {
  Constraint filter;
  std::size_t begin, end;
};

std::optional<SuffixComparison> suffix_comparison_at(const Question& q, std::size_t at,
                                                     const data::ColumnProfile& column,
                                                     const LabelledPhrases& suffixes) {
  if (column.role == data::ColumnRole::kTemporal) return std::nullopt;
  const auto number = number_for_column(q, at, column);
  if (!number) return std::nullopt;
  for (const auto& [op, phrases] : suffixes) {
    const std::size_t n = phrase_starting_at(q.stems, at + number->second, phrases);
    const std::size_t end = at + number->second + n;
    if (n > 0 && (end >= q.stems.size() || q.stems[end] != "than")) {  // "or lower than 500" compares anew
      return SuffixComparison{
          Constraint{"filter", column.name, op, ParamValue{{number->first}, false}, "", 0}, at, end};
    }
  }
  return std::nullopt;
}

// Whether a year comparison ends before token `number` and that token is a four-digit number
// ("before 1900"): it compares a date or year column, whatever column stands before it.
bool year_compared_at(const Question& q, std::size_t number, const LabelledPhrases& year_comparisons) {
  if (number >= q.tokens.size() || q.tokens[number].size() != 4 || !number_after(q, number)) return false;
  return std::any_of(year_comparisons.begin(), year_comparisons.end(),
                     [&](const auto& entry) { return phrase_ending_at(q.stems, number, entry.second) > 0; });
}

// Where the number ending right before token `end` starts: "1" of "1 million", "99" of "99.5";
// `end` - 1 for any other word.
std::size_t number_start_before(const Question& q, std::size_t end) {
  std::size_t at = end;
  if (at > 0 && at - 1 < q.scale.size() && q.scale[at - 1] != 0) --at;
  if (at >= 2 && at - 2 < q.point_after.size() && q.point_after[at - 2]) return at - 2;
  return at > 0 ? at - 1 : 0;
}

// "students in major 600": a whole number right after a column of whole numbers that repeat, within
// the column's range, is a value of it; nothing otherwise.
std::optional<Constraint> number_named_after(const Question& q, const data::SchemaProfile& profile,
                                             const Mention& m) {
  const data::ColumnProfile& column = *m.column;
  if (column.type != data::ColumnType::kInteger || !profile.repeats(column) || m.end >= q.tokens.size() ||
      (m.end < q.point_after.size() && q.point_after[m.end]) ||
      (m.end + 1 < q.scale.size() && q.scale[m.end + 1] != 0)) {
    return std::nullopt;
  }
  const std::optional<std::int64_t> number = number_after(q, m.end);
  if (!number || !within_range(column, static_cast<double>(*number))) return std::nullopt;
  return Constraint{"filter", column.name, "=", ParamValue{{ParamScalar(*number)}, false}, "", 0};
}

// The aggregate a word before mention `m` names, across determiners and words of the column's or
// the table's name that name no column there, and across the column's mentions right before it
// ("an average price": avg; "the total payment amount" of amount_payment: sum; "average price of
// products priced above 700": none, "price" is a mention apart), and the token it starts at;
// nothing otherwise.
std::optional<std::pair<std::string, std::size_t>> aggregation_before(const Question& q, const Mention& m,
                                                                      const std::vector<Mention>& mentions,
                                                                      const GroupFilterWords& words) {
  const Stems own = stems_of(column_words(m.column->name));
  const auto skipped = [&](std::size_t at) {
    const bool mentioned = std::any_of(mentions.begin(), mentions.end(), [&](const Mention& other) {
      return at >= other.begin && at < other.end;
    });
    if (mentioned) return false;
    for (const Stems* list : {&words.determiners, &own, &q.table}) {
      if (std::find(list->begin(), list->end(), q.stems[at]) != list->end()) return true;
    }
    return false;
  };
  std::size_t at = m.begin;
  for (auto same = mentions.rbegin(); same != mentions.rend();
       ++same) {  // "payment amount": two words of amount_payment
    if (same->end == at && same->column == m.column) at = same->begin;
  }
  while (at > 0 && skipped(at - 1)) --at;
  for (const auto& [func, phrases] : words.aggregations) {
    if (const std::size_t n = phrase_ending_at(q.stems, at, phrases)) return std::pair{func, at - n};
  }
  return std::nullopt;
}

// The aggregate a verb of accumulation names when it stands between the entity the question asks
// about and the comparison on measure `m`, at most five words before it ("which products sold more
// than 100 units": sum of units per product; "orders with more than 5 units": none).
std::optional<std::string> accumulated(const Question& q, const Mention& m,
                                       const std::vector<Mention>& mentions, const GroupFilterWords& words) {
  const std::size_t from = m.begin > 5 ? m.begin - 5 : 0;
  for (std::size_t at = m.begin; at > from; --at) {
    for (const auto& [func, phrases] : words.verbs) {
      const std::size_t n = phrase_ending_at(q.stems, at, phrases);
      if (n == 0) continue;
      const std::size_t verb = at - n;
      const bool entity = std::any_of(mentions.begin(), mentions.end(), [&](const Mention& other) {
        return other.column != m.column && other.column->role != data::ColumnRole::kMeasure &&
               other.end <= verb && other.end + 1 >= verb;
      });
      if (entity) return func;
    }
  }
  return std::nullopt;
}

// `filter` on mention `m`, or on the aggregate of it a word before it names ("origins with an
// average price above 300": avg(price), a filter on each group's average) or a phrase right after
// it ("invoice totals add up to more than 150": sum(total)), whose words go to `used` ("the lowest
// price" then ranks nothing).
Constraint aggregated(const Question& q, const Mention& m, const std::vector<Mention>& mentions,
                      const GroupFilterWords& words, Constraint filter, std::set<std::size_t>& used) {
  if (m.column->role == data::ColumnRole::kTemporal) return filter;
  for (const auto& [func, phrases] : words.after) {
    if (const std::size_t n = phrase_starting_at(q.stems, m.end, phrases)) {
      filter.column = group_filter_spelling({func, m.column->name});
      for (std::size_t at = m.end; at < m.end + n; ++at) used.insert(at);
      return filter;
    }
  }
  if (const auto aggregate = aggregation_before(q, m, mentions, words)) {
    filter.column = group_filter_spelling({aggregate->first, m.column->name});
    for (std::size_t at = aggregate->second; at < m.begin; ++at) used.insert(at);
  } else if (const std::optional<std::string> func = accumulated(q, m, mentions, words)) {
    filter.column = group_filter_spelling({*func, m.column->name});
  }
  return filter;
}

// Filters for a numeric column compared with a number within five words after it, no other column
// between ("salary lower than 50000", "price between 10 and 20", "whose id is 10"), or named right
// after a comparison and its number ("with at least 1 death"); a year comparison ("the budget of
// departments created before 1900") only on a column of years; an aggregation word before the
// column filters that aggregate ("an average price above 300"); a number that counts rows
// (`row_counts`) compares no column. Returns the tokens the comparisons used (phrase and numbers):
// they name no value and ask for no ranking.
std::set<std::size_t> ground_comparisons(
    const Question& q, const data::SchemaProfile& profile, const std::vector<Mention>& mentions,
    const std::vector<std::pair<std::string, Phrases>>& comparisons, const LabelledPhrases& suffixes,
    const LabelledPhrases& year_comparisons, const GroupFilterWords& group_words,
    const std::set<std::size_t>& row_counts, Requirements& requirements) {
  std::set<std::size_t> used;
  for (const Mention& m : mentions) {
    if (!is_comparable(*m.column)) continue;
    std::optional<Constraint> filter;
    std::size_t number = 0;  // the token of the (first) number
    const auto starts_mention = [&](std::size_t at) {
      return std::any_of(mentions.begin(), mentions.end(),
                         [&](const Mention& other) { return other.begin == at; });
    };
    for (std::size_t at = m.end;
         !filter && at < m.end + kComparisonReach && at < q.stems.size() && !starts_mention(at); ++at) {
      filter = comparison_at(q, at + 1, *m.column, comparisons);
      number = at + 1;
    }
    if (const std::size_t before = number_start_before(q, m.begin);
        !filter && before >= 1 && before < m.begin) {
      filter = comparison_at(q, before, *m.column, comparisons);  // "more than 1 million followers"
      number = before;
    }
    if (!filter) {  // "a score of 95 or higher"
      std::optional<SuffixComparison> suffixed;
      for (std::size_t at = m.end;
           !suffixed && at < m.end + kComparisonReach && at < q.stems.size() && !starts_mention(at); ++at)
        suffixed = suffix_comparison_at(q, at, *m.column, suffixes);
      if (std::optional<Constraint> named = suffixed ? std::nullopt : number_named_after(q, profile, m)) {
        add_unique(requirements.constraints, *named);
        used.insert(m.end);
        continue;
      }
      if (!suffixed || row_counts.count(suffixed->begin)) continue;
      add_unique(requirements.constraints, aggregated(q, m, mentions, group_words, suffixed->filter, used));
      for (std::size_t at = suffixed->begin; at < suffixed->end; ++at) used.insert(at);
      continue;
    }
    if (!holds_years(*m.column) && year_compared_at(q, number, year_comparisons)) continue;
    if (row_counts.count(number))
      continue;  // "advisors with more than 3 students" compares the count of students
    const std::size_t widened = m.column->role == data::ColumnRole::kTemporal
                                    ? 0
                                    : outside_range(q, number, *m.column, comparisons, *filter);
    for (std::size_t at = number + 1; widened > 0 && at <= widened; ++at) used.insert(at);
    add_unique(requirements.constraints, aggregated(q, m, mentions, group_words, *filter, used));
    for (const auto& [op, phrases] : comparisons) {
      if (op == filter->op) {
        for (std::size_t at = number - phrase_ending_at(q.stems, number, phrases); at <= number; ++at)
          used.insert(at);
      }
    }
    if (filter->op == "between" || m.column->role == data::ColumnRole::kTemporal)
      used.insert({number + 1, number + 2});
    if (const auto value = number_value_at(q, number)) {  // "0.5", "1 million": no value
      for (std::size_t at = number; at < number + value->second; ++at) used.insert(at);
    }
  }
  return used;
}

// The table's one measure that is no year ("total" of invoices); nullptr when it has none or several.
const data::ColumnProfile* sole_measure(const data::SchemaProfile& profile) {
  const data::ColumnProfile* found = nullptr;
  for (const data::ColumnProfile& column : profile.columns) {
    if (column.role != data::ColumnRole::kMeasure || holds_years(column)) continue;
    if (found != nullptr) return nullptr;
    found = &column;
  }
  return found;
}

// The comparable column a comparative among tokens [begin, end) names through `comparatives` ("higher":
// Height), the first listed the table has; nullptr when none does.
const data::ColumnProfile* comparative_column(
    const Question& q, std::size_t begin, std::size_t end, const data::SchemaProfile& profile,
    const std::map<std::string, std::vector<std::string>>& comparatives) {
  for (std::size_t at = begin; at < end; ++at) {
    const auto listed = comparatives.find(q.stems[at]);
    if (listed == comparatives.end()) continue;
    for (const std::string& word : listed->second) {
      for (const data::ColumnProfile& column : profile.columns) {
        const Stems& stems = column_stems(q, profile, column);
        if (is_comparable(column) && std::find(stems.begin(), stems.end(), word) != stems.end())
          return &column;
      }
    }
  }
  return nullptr;
}

// The words of a row comparison: the rows' words, and links that may follow them ("are", "that").
struct RowComparisonWords {
  const Stems& rows;
  const Stems& links;
  const std::map<std::string, std::vector<std::string>>& comparatives;
};

// Whether a word for the rows stands right before token `at`, across links ("mountains that are").
bool rows_before(const Question& q, std::size_t at, const RowComparisonWords& words) {
  const auto listed = [&](const Stems& list, std::size_t t) {
    return std::find(list.begin(), list.end(), q.stems[t]) != list.end();
  };
  while (at > 0 && listed(words.links, at - 1)) --at;
  return at > 0 && listed(words.rows, at - 1);
}

// "mountains higher than 4100", "transactions over 1500": a comparison and its number right after a
// word for the table's rows, where no column is compared (`compared`), compare the column its
// comparative names (comparative_column), else the table's one measure; nothing when it has
// several. Returns the tokens used.
std::set<std::size_t> ground_row_comparisons(const Question& q, const data::SchemaProfile& profile,
                                             const std::vector<std::pair<std::string, Phrases>>& comparisons,
                                             const RowComparisonWords& words,
                                             const std::set<std::size_t>& compared,
                                             Requirements& requirements) {
  std::set<std::size_t> used;
  const auto& comparatives = words.comparatives;
  for (std::size_t at = 2; at < q.stems.size(); ++at) {
    for (const auto& [op, phrases] : comparisons) {
      const std::size_t n = op == "=" ? 0 : phrase_ending_at(q.stems, at, phrases);
      if (n == 0 || n >= at || !rows_before(q, at - n, words)) continue;
      if (compared.count(at) > 0 || compared.count(at - n) > 0) continue;
      const data::ColumnProfile* measure = comparative_column(q, at - n, at, profile, comparatives);
      if (measure == nullptr) measure = sole_measure(profile);
      if (measure == nullptr) break;
      const std::optional<Constraint> filter = comparison_at(q, at, *measure, comparisons);
      if (!filter) continue;
      add_unique(requirements.constraints, *filter);
      const auto value = number_value_at(q, at);  // "1 million": two tokens
      for (std::size_t t = at - n; t < at + (value ? value->second : 1); ++t) used.insert(t);
      if (filter->op == "between") used.insert({at + 1, at + 2});
      break;
    }
  }
  return used;
}

}  // namespace

std::vector<std::string> unmet_comparisons(const Question& q,
                                           const std::vector<std::pair<std::string, Phrases>>& comparisons,
                                           const std::set<std::size_t>& understood) {
  std::vector<std::string> unmet;
  for (std::size_t at = 1; at < q.stems.size(); ++at) {
    std::size_t n = 0;
    for (const auto& [op, phrases] : comparisons) {
      if (op != "=") n = std::max(n, phrase_ending_at(q.stems, at, phrases));
    }
    const auto value = n > 0 ? number_value_at(q, at) : std::nullopt;
    if (!value || understood.count(at) > 0 || understood.count(at - n) > 0) continue;
    std::size_t end = at + value->second;  // "between 10 and 20" to its second number
    if (const auto second =
            end + 1 < q.tokens.size() && q.tokens[end] == "and" ? number_value_at(q, end + 1) : std::nullopt)
      end += 1 + second->second;
    std::string words;  // "above 0.1", its decimal point back
    for (std::size_t word = at - n; word < end; ++word) {
      words += q.tokens[word];
      if (word + 1 < end) words += word < q.point_after.size() && q.point_after[word] ? "." : " ";
    }
    unmet.push_back(std::move(words));
  }
  return unmet;
}

namespace {

// The comparison a count at token `at` ("2", "two") states with a phrase before it ("more than 2",
// "exactly 5") or after it ("3 or more"), and the tokens they take with the number; nothing without
// one. "is" and ranges are no count threshold.
struct CountComparison {
  std::string op;
  ParamScalar value;
  std::size_t begin, end;
};

std::optional<CountComparison> count_comparison_at(const Question& q, std::size_t at,
                                                   const CountWords& words) {
  const std::optional<std::int64_t> number = count_at(q.stems, at, words.number_words);  // "2", "two"
  if (!number || (at < q.point_after.size() && q.point_after[at]) ||
      (at + 1 < q.scale.size() && q.scale[at + 1] != 0))
    return std::nullopt;
  for (const auto& [op, phrases] : words.comparisons) {
    const std::size_t n = phrase_ending_at(q.stems, at, phrases);
    if (n > 0 && op != "=" && op != "between")
      return CountComparison{op, ParamScalar(*number), at - n, at + 1};
  }
  if (const std::size_t n = phrase_ending_at(q.stems, at, words.exactly))
    return CountComparison{"=", ParamScalar(*number), at - n, at + 1};
  for (const auto& [op, phrases] : words.suffixes) {
    if (const std::size_t n = phrase_starting_at(q.stems, at + 1, phrases))
      return CountComparison{op, ParamScalar(*number), at, at + 1 + n};
  }
  return std::nullopt;
}

// "origins with more than 2 flights", "advisors with 3 or more students": a comparison and a count
// before a word for the table's rows (`rows`) filter each group's row count, count(*), kept after
// the aggregation. A column named there by its whole name is compared instead (ground_comparisons);
// one a word of it names ("enrolments" of date_of_enrolment) is not. Returns the tokens used.
std::set<std::size_t> ground_row_counts(const Question& q, const std::vector<Mention>& mentions,
                                        const Stems& rows, const CountWords& words,
                                        Requirements& requirements) {
  std::set<std::size_t> used;
  for (std::size_t at = 0; at < q.stems.size(); ++at) {
    const std::optional<CountComparison> compared = count_comparison_at(q, at, words);
    if (!compared || compared->end >= q.stems.size()) continue;
    const std::size_t noun = compared->end;
    const bool named = std::any_of(
        mentions.begin(), mentions.end(), [&](const Mention& m) {  // "2 enrolments": no date_of_enrolment
          return m.begin == noun && m.end - m.begin == column_words(m.column->name).size();
        });
    if (named || std::find(rows.begin(), rows.end(), q.stems[noun]) == rows.end()) continue;
    add_unique(requirements.constraints,
               Constraint{"filter", group_filter_spelling({"count", std::string(kCountRowsMetric)}),
                          compared->op, ParamValue{{compared->value}, false}, "", 0});
    for (std::size_t t = compared->begin; t <= noun; ++t) used.insert(t);
  }
  return used;
}

}  // namespace

void claim_row_counts(const Question& q, const data::SchemaProfile& profile, const Stems& row_nouns,
                      const CountWords& words, TokenClaims& claims, Findings& found) {
  found.rows = row_words(q, profile, row_nouns, true);  // the rows by their own words and ids
  found.row_counts = ground_row_counts(q, found.mentions, found.rows, words, found.requirements);
  std::erase_if(found.mentions, [&](const Mention& m) {
    return found.row_counts.count(m.begin) > 0;
  });  // "2 flights" names the rows
  claims.claim(found.row_counts, Claim::kRowCount);
}

void claim_comparisons(const Question& q, const data::SchemaProfile& profile,
                       const LabelledPhrases& comparisons, const LabelledPhrases& suffixes,
                       const LabelledPhrases& year_comparisons, const GroupFilterWords& group_words,
                       TokenClaims& claims, Findings& found) {
  claims.claim(ground_comparisons(q, profile, found.mentions, comparisons, suffixes, year_comparisons,
                                  group_words, found.row_counts, found.requirements),
               Claim::kComparison);
}

void claim_row_comparisons(const Question& q, const data::SchemaProfile& profile,
                           const LabelledPhrases& comparisons, const Stems& row_links,
                           const std::map<std::string, std::vector<std::string>>& comparatives,
                           TokenClaims& claims, Findings& found) {
  claims.claim(
      ground_row_comparisons(q, profile, comparisons, RowComparisonWords{found.rows, row_links, comparatives},
                             claims.taken(kCompared), found.requirements),
      Claim::kRowComparison);
}

}  // namespace planfirst::autoviz::extraction
