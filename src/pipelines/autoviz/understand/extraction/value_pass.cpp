#include "pipelines/autoviz/understand/extraction/value_pass.hpp"

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
#include "pipelines/autoviz/understand/extraction/role_pass.hpp"
#include "pipelines/autoviz/understand/extraction/token_claims.hpp"
#include "pipelines/autoviz/understand/phrase_match.hpp"
#include "pipelines/autoviz/understand/quoted_value.hpp"
#include "pipelines/autoviz/understand/relative_period.hpp"
#include "pipelines/autoviz/understand/rule_requirement_extractor.hpp"
#include "pipelines/autoviz/understand/sort_clause.hpp"
#include "pipelines/autoviz/understand/text_filter.hpp"

namespace planfirst::autoviz::extraction {

namespace {

// A negation reaches a value at most this many words after it ("not from the United States").
constexpr std::size_t kNegationReach = 4;
// A cue word points to a column from at most this many words before a value ("departing from").
constexpr std::size_t kCueReach = 3;

// Whether the question's words at `at` name `value` (its words stemmed as `stems`): stem for stem
// ("defenders" for "Defender"), or through a value word ("male" for "M").
bool names_value(const Question& q, std::size_t at, const Stems& stems, const std::string& value,
                 const std::map<std::string, std::vector<std::string>>& value_words) {
  if (at + stems.size() > q.tokens.size()) return false;
  if (std::equal(stems.begin(), stems.end(), q.stems.begin() + static_cast<std::ptrdiff_t>(at))) return true;
  auto it = value_words.find(q.stems[at]);
  return it != value_words.end() &&
         std::find(it->second.begin(), it->second.end(), core::ascii_lower(value)) != it->second.end();
}

// Whether a negation word stands before token `at`, with only link words between ("not in London",
// "not from the United States").
bool negated_at(const Question& q, std::size_t at, const Stems& negations, const Stems& links) {
  for (std::size_t before = at; before-- > 0 && at - before <= kNegationReach;) {
    if (std::find(negations.begin(), negations.end(), q.stems[before]) != negations.end()) return true;
    if (std::find(links.begin(), links.end(), q.stems[before]) == links.end()) return false;
  }
  return false;
}

// Whether tokens [from, to) join one value of a list to the next: a joiner ("and", "or"), with
// only link words beside it ("Online and the Retail"), or nothing (a comma: "West, East and North").
bool joined_after(const Question& q, std::size_t from, std::size_t to, const Stems& joiners,
                  const Stems& links) {
  bool joined = from == to;
  for (std::size_t at = from; at < to; ++at) {
    if (listed(joiners, q.stems[at])) {
      joined = true;
    } else if (!listed(links, q.stems[at])) {
      return false;
    }
  }
  return joined;
}

struct ValueHit {
  std::size_t at, span;  // the tokens naming the value
  const data::ColumnProfile* column;
  std::size_t column_index;  // in the profile: the last tie-break
  const std::string* value;
};

// The hits of `column`'s values in the question, except inside a column mention or at the tokens
// of comparisons (`compared`), and except a value within a longer one of the same column
// ("assistant professors" names AsstProf, not Professor).
std::vector<ValueHit> value_hits(const Question& q, const data::SchemaProfile& profile, std::size_t c,
                                 const std::vector<Mention>& mentions, const Stems& stopwords,
                                 const ValueWords& words_, const std::set<std::size_t>& compared) {
  const data::ColumnProfile& column = profile.columns[c];
  const std::vector<KnownValue>& values = q.categorical_values[c];
  std::map<std::string, int> first_stems;  // how many values begin with each stem
  for (const KnownValue& known : values) {
    if (!known.stems.empty()) ++first_stems[known.stems.front()];
  }
  const auto names_column_at = [&](std::size_t at) {
    return std::any_of(mentions.begin(), mentions.end(),
                       [&](const Mention& m) { return m.begin == at && m.column == &column; });
  };
  std::vector<ValueHit> hits;
  for (const KnownValue& known : values) {
    const Stems& stems = known.stems;
    const bool only_stopwords = std::all_of(stems.begin(), stems.end(), [&](const std::string& stem) {
      return std::find(stopwords.begin(), stopwords.end(), stem) != stopwords.end();
    });
    if (stems.empty() || only_stopwords) continue;  // the value "A" is not the article "a"
    for (std::size_t at = 0; at < q.tokens.size(); ++at) {
      // The whole value, or its first word alone when no other value begins with it, it is no
      // stopword ("the name" is no prefix of "The Voyage") and the column is named right after
      // ("the Office category" for Office Supplies), or the value
      // spelled out ("assistant professors" for AsstProf).
      const bool whole = names_value(q, at, stems, known.value, words_.synonyms);
      const bool prefix = !whole && stems.size() > 1 && first_stems[stems.front()] == 1 &&
                          q.stems[at] == stems.front() && names_column_at(at + 1) &&
                          std::find(stopwords.begin(), stopwords.end(), stems.front()) == stopwords.end();
      const std::size_t spelled = whole || prefix ? 0 : spelled_out_at(q.tokens, at, known.short_forms);
      const std::size_t span = prefix ? 1 : spelled > 0 ? spelled : stems.size();
      const bool inside_mention = std::any_of(mentions.begin(), mentions.end(), [&](const Mention& m) {
        return at < m.end && at + span > m.begin;
      });
      if ((!whole && !prefix && spelled == 0) || inside_mention || compared.count(at)) continue;
      hits.push_back({at, span, &column, c, &known.value});
    }
  }
  std::erase_if(hits, [&hits](const ValueHit& hit) {
    return std::any_of(hits.begin(), hits.end(), [&](const ValueHit& other) {
      return other.span > hit.span && other.at <= hit.at && hit.at + hit.span <= other.at + other.span;
    });
  });
  return hits;
}

// How closely a cue points to `column` from the three words before `at`: 3 for the word right
// before, 1 for the third, 0 for none. A cue is a word in a group of `cues` that also holds a word
// of the column's name ("departing from Los Angeles" and origin: depart, from, origin).
int cue_nearness(const Question& q, std::size_t at, const data::ColumnProfile& column,
                 const std::vector<Stems>& cues) {
  const Stems name = stems_of(column_words(column.name));
  const auto in = [](const Stems& group, const std::string& stem) {
    return std::find(group.begin(), group.end(), stem) != group.end();
  };
  for (std::size_t before = at; before-- > 0 && at - before <= kCueReach;) {
    for (const Stems& group : cues) {
      if (in(group, q.stems[before]) &&
          std::any_of(name.begin(), name.end(), [&](const std::string& stem) { return in(group, stem); })) {
        return static_cast<int>(kCueReach + 1) - static_cast<int>(at - before);
      }
    }
  }
  return 0;
}

// How well a hit names what the question means, best first: the longest, then one whose column is
// named right beside it ("the West region"), then the one a cue word points to most closely ("from
// Los Angeles": origin, not destination), then the column with fewer distinct values (Grape, not
// Name, for "Chardonnay"), then the first in the table.
using HitRank = std::tuple<std::size_t, bool, int, std::int64_t, std::int64_t>;

HitRank hit_rank(const Question& q, const std::vector<Mention>& mentions, const std::vector<Stems>& cues,
                 const ValueHit& hit) {
  const bool beside = std::any_of(mentions.begin(), mentions.end(), [&](const Mention& m) {
    return m.column == hit.column && (m.end == hit.at || m.begin == hit.at + hit.span);
  });
  return {hit.span, beside, cue_nearness(q, hit.at, *hit.column, cues), -hit.column->distinct_count,
          -static_cast<std::int64_t>(hit.column_index)};
}

// Filters for categorical values the question names ("in the West region", "male students"),
// except at the tokens of comparisons (`compared`). Words naming values of several columns filter
// only the column of the best-ranked hit (hit_rank). Returns the tokens the values take.
std::set<std::size_t> ground_values(const Question& q, const data::SchemaProfile& profile,
                                    const std::vector<Mention>& mentions, const Stems& stopwords,
                                    const ValueWords& words_, const std::set<std::size_t>& compared,
                                    Requirements& requirements) {
  std::vector<ValueHit> hits;
  for (std::size_t c = 0; c < profile.columns.size(); ++c) {
    std::vector<ValueHit> found = value_hits(q, profile, c, mentions, stopwords, words_, compared);
    hits.insert(hits.end(), found.begin(), found.end());
  }
  std::vector<HitRank> ranks;
  for (const ValueHit& hit : hits) ranks.push_back(hit_rank(q, mentions, words_.column_cues, hit));
  std::vector<const ValueHit*> kept;  // not outranked
  for (std::size_t i = 0; i < hits.size(); ++i) {
    const ValueHit& hit = hits[i];
    bool outranked = false;
    for (std::size_t j = 0; j < hits.size() && !outranked; ++j) {
      const ValueHit& other = hits[j];
      outranked = other.column != hit.column && other.at < hit.at + hit.span &&
                  hit.at < other.at + other.span && ranks[j] > ranks[i];
    }
    if (outranked) continue;
    kept.push_back(&hit);
  }
  std::sort(kept.begin(), kept.end(), [](const ValueHit* a, const ValueHit* b) { return a->at < b->at; });
  struct Excluded {
    std::size_t end = 0;  // after the last value a negation took
    std::vector<ParamScalar> values;
  };
  std::map<std::string, Excluded> excluded;  // by column
  std::set<std::size_t> taken;
  for (const ValueHit* hit : kept) {
    for (std::size_t at = hit->at; at < hit->at + hit->span; ++at) taken.insert(at);
    const auto list = excluded.find(hit->column->name);
    const bool in_list =
        list != excluded.end() && joined_after(q, list->second.end, hit->at, words_.joiners, words_.links);
    if (in_list || negated_at(q, hit->at, words_.negations, words_.links)) {  // "excluding Online and Retail"
      Excluded& column = excluded[hit->column->name];
      column.end = hit->at + hit->span;
      column.values.push_back(ParamScalar(*hit->value));
      continue;
    }
    add_unique(requirements.constraints, Constraint{"filter", hit->column->name, "=",
                                                    ParamValue{{ParamScalar(*hit->value)}, false}, "", 0});
  }
  for (auto& [column, list] : excluded) {
    const bool one = list.values.size() == 1;
    add_unique(requirements.constraints, Constraint{"filter", column, one ? "!=" : "not_in",
                                                    ParamValue{std::move(list.values), !one}, "", 0});
  }
  return taken;
}

// Whether token `at` of `question` (spanned by `spans`) starts with a capital letter.
bool capitalized(std::string_view question, const std::vector<core::TokenSpan>& spans, std::size_t at) {
  return at < spans.size() && spans[at].begin < question.size() &&
         std::isupper(static_cast<unsigned char>(question[spans[at].begin])) != 0;
}

struct UnknownValue {
  std::string text;   // as the question spells it
  std::size_t begin;  // its first token, or the column's name before it
  ParamScalar value;
};

// Whether `column` holds numbers (Room: 119, 224B), so a number after its name is one of its values.
bool numbered(const data::ColumnProfile& column) {
  if (column.type == data::ColumnType::kInteger) return true;
  return column.type == data::ColumnType::kText && !column.samples.empty() &&
         std::all_of(column.samples.begin(), column.samples.end(), [](const std::string& sample) {
           return !sample.empty() && std::isdigit(static_cast<unsigned char>(sample.front())) != 0;
         });
}

// A value of category column `m` that no column holds: a capitalized name after a name link right
// before the column's name ("in the Nowhere region"), or a whole number right after the name of a
// column of numbers ("in room 100"; not one that starts a range or a list: "rooms 100 or more",
// "rooms 100 to 200").
std::optional<UnknownValue> unknown_value(std::string_view question, const Question& q, const Mention& m,
                                          const std::vector<Mention>& mentions, const ValueWords& words,
                                          const std::set<std::size_t>& taken) {
  if (numbered(*m.column) && !taken.count(m.end) && !in_mention(mentions, m.end) &&
      !(m.end < q.point_after.size() && q.point_after[m.end])) {
    const std::size_t next = m.end + 1;
    const bool continued =
        next < q.stems.size() && (listed(words.joiners, q.stems[next]) || q.stems[next] == "to");
    if (const std::optional<std::int64_t> n = number_after(q, m.end); n && !continued) {
      const bool whole = m.column->type == data::ColumnType::kInteger;
      return UnknownValue{q.tokens[m.end], m.begin, whole ? ParamScalar(*n) : ParamScalar(q.tokens[m.end])};
    }
  }
  std::size_t begin = m.begin;
  while (begin > 0 && capitalized(question, q.spans, begin - 1) && !q.tokens[begin - 1].empty() &&
         !taken.count(begin - 1) && !in_mention(mentions, begin - 1) &&
         !listed(words.name_links, q.stems[begin - 1])) {
    --begin;
  }
  if (begin == m.begin || begin == 0 || !listed(words.name_links, q.stems[begin - 1])) return std::nullopt;
  std::string name(question.substr(q.spans[begin].begin, q.spans[m.begin - 1].end - q.spans[begin].begin));
  return UnknownValue{name, begin, name};
}

// A value of a category column the profile does not hold (see unknown_value) is a value the
// question means: the question is refused, naming the column's values, when the profile lists
// them all; otherwise the value filters, so an empty result says so. `taken`: tokens already read
// (values, comparisons).
core::Result<void> ground_unknown_values(std::string_view question, const Question& q,
                                         const std::vector<Mention>& mentions, const ValueWords& words,
                                         const std::set<std::size_t>& taken, Requirements& requirements) {
  if (q.spans.empty()) return core::ok();
  for (const Mention& m : mentions) {
    const data::ColumnProfile& column = *m.column;
    if (column.role != data::ColumnRole::kCategorical) continue;
    std::optional<UnknownValue> value = unknown_value(question, q, m, mentions, words, taken);
    if (!value) continue;
    if (!column.values.empty()) {
      return core::invalid_argument("the question names '" + value->text + "' as a " + column.name +
                                        ", and " + column.name + " holds only: " + core::join(column.values),
                                    column.name);
    }
    const bool negated = negated_at(q, value->begin, words.negations, words.links);
    add_unique(requirements.constraints, Constraint{"filter", column.name, negated ? "!=" : "=",
                                                    ParamValue{{std::move(value->value)}, false}, "", 0});
  }
  return core::ok();
}

// A yes/no column named by part of its name outside a grouping phrase ("the dogs who have been
// abandoned" for abandoned_yn) keeps the rows where it holds its yes value (the first of
// `true_flags` among its values).
void ground_flags(const std::vector<Mention>& mentions, const std::set<std::string>& grouped_by_phrase,
                  const std::vector<std::string>& true_flags, Requirements& requirements) {
  for (const Mention& m : mentions) {
    const data::ColumnProfile& column = *m.column;
    if (column.role != data::ColumnRole::kBoolean || grouped_by_phrase.count(column.name) ||
        m.end - m.begin >= column_words(column.name).size()) {
      continue;
    }
    for (const std::string& flag : true_flags) {
      auto value = std::find_if(column.samples.begin(), column.samples.end(),
                                [&](const std::string& sample) { return core::ascii_lower(sample) == flag; });
      if (value == column.samples.end()) continue;
      std::int64_t n = 0;
      const char* end = value->data() + value->size();
      const bool integer =
          column.type == data::ColumnType::kInteger && std::from_chars(value->data(), end, n).ptr == end;
      add_unique(requirements.constraints,
                 Constraint{"filter", column.name, "=",
                            ParamValue{{integer ? ParamScalar(n) : ParamScalar(*value)}, false}, "", 0});
      break;
    }
  }
}

// Two or more values of one column named together are no single filter: with a list word ("Bob
// Fosse or Cleavant Derricks", "only West and East") they are a list to keep, else the question compares them
// and groups by the column ("male and female students"), keeping only them when the column holds
// others ("compare the Online and Retail channels").
// Returns the compared columns, to group by.
std::vector<std::string> settle_several_values(const Question& q, const data::SchemaProfile& profile,
                                               const Stems& list_words, Requirements& requirements) {
  std::vector<std::string> compared;
  std::map<std::string, std::vector<ParamScalar>> values;
  for (const Constraint& c : requirements.constraints) {
    if (c.type == "filter" && c.op == "=" && c.value.items.size() == 1)
      values[c.column].push_back(c.value.items.front());
  }
  const bool either = std::any_of(q.stems.begin(), q.stems.end(), [&](const std::string& stem) {
    return std::find(list_words.begin(), list_words.end(), stem) != list_words.end();
  });
  for (const auto& entry : values) {
    const std::string& column = entry.first;
    const std::vector<ParamScalar>& items = entry.second;
    if (items.size() < 2) continue;
    std::erase_if(requirements.constraints, [&](const Constraint& c) {
      return c.type == "filter" && c.op == "=" && c.column == column;
    });
    const data::ColumnProfile* profiled = profile.find(column);
    const bool some =
        profiled != nullptr && profiled->distinct_count > static_cast<std::int64_t>(items.size());
    // "days with rain": Rain and rain are one value, written two ways in the data
    const auto* first = std::get_if<std::string>(&items.front());
    const bool one_word =
        first != nullptr && std::all_of(items.begin(), items.end(), [&](const ParamScalar& item) {
          const auto* text = std::get_if<std::string>(&item);
          return text != nullptr && core::ascii_lower(*text) == core::ascii_lower(*first);
        });
    if (either || some || one_word)
      requirements.constraints.push_back({"filter", column, "in", ParamValue{items, true}, "", 0});
    if (!either && !one_word)
      compared.push_back(column);  // "male and female faculty for each rank": sexes as series
  }
  return compared;
}

// The mentions of columns of text or categories, where a text filter may apply.
std::vector<ColumnSpan> text_spans(const std::vector<Mention>& mentions) {
  std::vector<ColumnSpan> spans;
  for (const Mention& m : mentions) {
    const data::ColumnRole role = m.column->role;
    if (role == data::ColumnRole::kText || role == data::ColumnRole::kCategorical) {
      spans.push_back({m.begin, m.end, m.column->name});
    }
  }
  return spans;
}

}  // namespace

std::vector<Mention> without_words_of_values(const Question& q, const data::SchemaProfile& profile,
                                             std::vector<Mention> mentions, const Stems& stopwords,
                                             const ValueWords& words) {
  std::vector<ValueHit> hits;
  for (std::size_t c = 0; c < profile.columns.size() && !mentions.empty(); ++c) {
    if (q.categorical_values[c].empty()) continue;
    for (const ValueHit& hit : value_hits(q, profile, c, {}, stopwords, words, {})) {
      if (hit.span >= 2) hits.push_back(hit);
    }
  }
  std::erase_if(mentions, [&](const Mention& m) {
    return std::any_of(hits.begin(), hits.end(), [&](const ValueHit& hit) {
      return hit.column != m.column && hit.at <= m.begin && m.end <= hit.at + hit.span &&
             m.end - m.begin < hit.span;
    });
  });
  return mentions;
}

core::Result<void> claim_values(std::string_view question, const Question& q,
                                const data::SchemaProfile& profile, const Stems& stopwords,
                                const ValueWords& words, TokenClaims& claims, Findings& found) {
  claims.claim(ground_values(q, profile, found.mentions, stopwords, words, claims.taken(kCountedOrCompared),
                             found.requirements),
               Claim::kValue);
  return ground_unknown_values(question, q, found.mentions, words,
                               claims.taken(kCountedOrCompared | Claim::kValue), found.requirements);
}

void add_text_filters(std::string_view question, const Question& q, const TextFilterPhrases& phrases,
                      const Stems& negations, Findings& found) {
  Requirements& requirements = found.requirements;
  for (const Constraint& filter :
       find_text_filters(question, q.tokens, q.stems, text_spans(found.mentions), phrases)) {
    add_unique(requirements.constraints, filter);
  }
  for (const Constraint& filter :
       find_quoted_filters(question, q.tokens, q.stems, text_spans(found.mentions), negations)) {
    const bool stated = std::any_of(
        requirements.constraints.begin(), requirements.constraints.end(), [&](const Constraint& c) {
          return c.type == "filter" && c.value == filter.value;  // the value was already found in a column
        });
    if (!stated) requirements.constraints.push_back(filter);
  }
}

std::vector<std::string> settle_values(const Question& q, const data::SchemaProfile& profile,
                                       const ValueWords& words, Findings& found) {
  ground_flags(found.mentions, found.grouped_by_phrase, words.true_flags, found.requirements);
  return settle_several_values(q, profile, words.list_words, found.requirements);
}

}  // namespace planfirst::autoviz::extraction
