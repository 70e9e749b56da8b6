#include "pipelines/autoviz/understand/extraction/column_pass.hpp"

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
#include "pipelines/autoviz/understand/extraction/value_pass.hpp"
#include "pipelines/autoviz/understand/phrase_match.hpp"
#include "pipelines/autoviz/understand/quoted_value.hpp"
#include "pipelines/autoviz/understand/relative_period.hpp"
#include "pipelines/autoviz/understand/rule_requirement_extractor.hpp"
#include "pipelines/autoviz/understand/sort_clause.hpp"
#include "pipelines/autoviz/understand/text_filter.hpp"

namespace planfirst::autoviz::extraction {

namespace {

// A question word names a column word by spelling alone (Jaro-Winkler) when both have at least
// kFuzzyWordLetters letters and their similarity is at least kFuzzyMatch.
constexpr std::size_t kFuzzyWordLetters = 4;
constexpr double kFuzzyMatch = 0.92;
// WordNet is asked about question words of at least this many letters ("area" for region).
constexpr std::size_t kWordNetWordLetters = 3;
// A column word of at least this many letters may be written as two question words ("job code").
constexpr std::size_t kSplitWordLetters = 6;
// A first word that names the table stands for it when at least this many columns start with it.
constexpr int kTablePrefixColumns = 2;

// Whether question word `at` names column word stem `stem` exactly, by stem or through a synonym.
bool names_stem(const Question& q, std::size_t at, const std::string& stem,
                const std::map<std::string, std::vector<std::string>>& synonyms) {
  if (q.stems[at] == stem) return true;
  auto it = synonyms.find(q.stems[at]);
  return it != synonyms.end() && std::find(it->second.begin(), it->second.end(), stem) != it->second.end();
}

// Whether column word `word` abbreviates question word `token` ("cust" for customers): letters
// that abbreviate it and that WordNet does not list as a word ("cust", "stu", "dept"; not "lat" or
// "budget"). Never without WordNet, which alone can tell "age" from an abbreviation. WordNet is
// asked last, only for words that abbreviate.
bool abbreviates_word(const std::string& word, const std::string& token,
                      const core::WordNetSynonyms* wordnet) {
  const bool letters = std::all_of(word.begin(), word.end(), [](char c) { return c >= 'a' && c <= 'z'; });
  return wordnet != nullptr && letters && token.size() > word.size() && abbreviates(word, token) &&
         !wordnet->knows(word);
}

// How well question word `at` names column word `word` (with stem `stem`): exact or stemmed,
// through a synonym, by Jaro-Winkler for words of four letters or more, or as its abbreviation.
bool names_word(const Question& q, std::size_t at, const std::string& word, const std::string& stem,
                const std::map<std::string, std::vector<std::string>>& synonyms,
                const core::WordNetSynonyms* wordnet) {
  if (q.tokens[at] == word || names_stem(q, at, stem, synonyms)) return true;
  if (abbreviates_word(word, q.tokens[at], wordnet)) return true;
  return word.size() >= kFuzzyWordLetters && q.tokens[at].size() >= kFuzzyWordLetters &&
         core::jaro_winkler(q.tokens[at], word) >= kFuzzyMatch;
}

// Whether question word `at` asks for an output ("a line chart", "as a line", "in a table"), so
// WordNet's senses of it (line: channel) name no column; "each line of work" names one.
bool asks_output(const Question& q, std::size_t at, const Stems& output_words) {
  const auto output = [&](std::size_t i) {
    return i < q.stems.size() &&
           std::find(output_words.begin(), output_words.end(), q.stems[i]) != output_words.end();
  };
  if (!output(at)) return false;
  const bool after_article = at > 0 && (q.tokens[at - 1] == "a" || q.tokens[at - 1] == "as");
  return output(at + 1) || (after_article && (at + 1 >= q.tokens.size() || q.tokens[at + 1] != "of"));
}

// Last resort, for question words no column matched otherwise and no sample value holds: a
// single-word column that WordNet files beside the word ("area" for region). Ranked after every
// other match of the same length. `single_words` pairs each single-word column with its word.
void add_wordnet_matches(const Question& q,
                         const std::vector<std::pair<const data::ColumnProfile*, std::string>>& single_words,
                         const Stems& stopwords, const Stems& output_words,
                         const core::WordNetSynonyms& wordnet, std::vector<Mention>& candidates) {
  std::vector<bool> covered(q.tokens.size(), false);
  for (const Mention& m : candidates)
    std::fill(covered.begin() + static_cast<std::ptrdiff_t>(m.begin),
              covered.begin() + static_cast<std::ptrdiff_t>(m.end), true);
  for (std::size_t at = 0; at < q.tokens.size(); ++at) {  // "states" of "United States" names a value
    if (covered[at] || q.tokens[at].size() < kWordNetWordLetters || q.value_words.count(q.tokens[at]) > 0 ||
        std::find(stopwords.begin(), stopwords.end(), q.stems[at]) != stopwords.end() ||
        asks_output(q, at, output_words)) {
      continue;
    }
    const std::vector<std::string> synonyms = wordnet.of(q.tokens[at]);
    for (const auto& [column, word] : single_words) {
      if (std::binary_search(synonyms.begin(), synonyms.end(), word))
        candidates.push_back({at, at + 1, column});
    }
  }
}

// Whether the two question words at `at` spell a column name that abbreviates its first word to
// the initial: "last name" for LName (words l, name) or lname, "first name" for Fname.
bool names_initialed(const Question& q, std::size_t at, const std::vector<std::string>& words) {
  if (at + 1 >= q.tokens.size() || q.tokens[at].size() < 2) return false;
  const char initial = q.tokens[at][0];
  const auto names_rest = [&](const std::string& rest) {  // "last names" too
    return q.tokens[at + 1] == rest || q.stems[at + 1] == stem_of(rest);
  };
  if (words.size() == 2 && words[0].size() == 1) return words[0][0] == initial && names_rest(words[1]);
  return words.size() == 1 && words[0].size() >= 4 && words[0][0] == initial &&
         names_rest(words[0].substr(1));
}

// The first words of column names that stand for the table: each is or abbreviates the table's
// one-word name, and at least kTablePrefixColumns columns start with it (EMP of EMP_FNAME, EMP_NUM
// in table EMPLOYEE; apt of apt_id, apt_number in Apartments). Stems.
std::set<std::string> table_prefix_stems(const Question& q, const data::SchemaProfile& profile,
                                         core::Stemmer& stemmer) {
  std::map<std::string, int> starts;
  for (const data::ColumnProfile& column : profile.columns) {
    const std::vector<std::string> words = column_words(column.name);
    if (words.size() >= 2) ++starts[words.front()];
  }
  std::set<std::string> out;
  for (const auto& [word, count] : starts) {
    const std::string stem = stemmer.stem(word);
    const bool names_table =
        q.table.size() == 1 && (q.table.front() == stem ||
                                (word.size() < q.table.front().size() && abbreviates(word, q.table.front())));
    if (count >= kTablePrefixColumns && names_table) out.insert(stem);
  }
  return out;
}

// Every column named in the question, longest spans first, without overlaps; then in question order.
std::vector<Mention> ground_columns(const Question& q, const data::SchemaProfile& profile,
                                    const std::map<std::string, std::vector<std::string>>& synonyms,
                                    const Stems& stopwords, const Stems& output_words, const Phrases& joiners,
                                    const Stems& units, const Phrases& group_phrases,
                                    const core::WordNetSynonyms* wordnet, core::Stemmer& stemmer) {
  struct ColumnName {
    const data::ColumnProfile* column;
    std::vector<std::string> words;
    Stems stems;
  };
  std::vector<ColumnName> names;
  std::vector<Mention> candidates;
  std::map<std::string, int> word_owners;  // a column word -> how many columns have it
  const std::set<std::string> table_prefixes = table_prefix_stems(q, profile, stemmer);
  const auto add_name_matches = [&](const data::ColumnProfile& column, const std::vector<std::string>& words,
                                    const Stems& stems) {
    // "max temperature" names max_temperature_f: a last word of one letter, or a unit, the question may leave
    // out.
    const bool unit_last =
        words.size() >= 3 &&
        (words.back().size() == 1 || std::find(units.begin(), units.end(), stems.back()) != units.end());
    const std::size_t named = unit_last ? words.size() - 1 : words.size();
    // "classroom" names CLASS_ROOM, "zipcode" zip_code: a two-word name written as one word
    const std::string compound = words.size() == 2 ? stemmer.stem(words[0] + words[1]) : std::string();
    for (std::size_t at = 0; !compound.empty() && at < q.stems.size(); ++at) {
      if (q.stems[at] == compound) candidates.push_back({at, at + 1, &column});
    }
    // "job code" names jobcode, "hire dates" hiredate: one word of the name written as two
    for (std::size_t j = 0; j < words.size(); ++j) {
      for (std::size_t at = j; words[j].size() >= kSplitWordLetters && at + 1 < q.tokens.size(); ++at) {
        const std::size_t begin = at - j, end = at + 1 + words.size() - j;
        const bool split = end <= q.tokens.size() && q.tokens[at].size() >= 2 &&
                           q.tokens[at].size() + 2 <= words[j].size() && words[j].starts_with(q.tokens[at]) &&
                           stemmer.stem(q.tokens[at] + q.tokens[at + 1]) == stems[j];
        bool rest = split;
        for (std::size_t k = 0; rest && k < words.size(); ++k) {
          if (k != j)
            rest = names_word(q, k < j ? begin + k : at + 1 + k - j, words[k], stems[k], synonyms, wordnet);
        }
        if (rest) candidates.push_back({begin, end, &column});
      }
    }
    for (std::size_t at = 0; at + named <= q.tokens.size(); ++at) {
      bool all = !words.empty();
      for (std::size_t j = 0; all && j < named; ++j)
        all = names_word(q, at + j, words[j], stems[j], synonyms, wordnet);
      const bool unit = named < words.size() && at + named < q.tokens.size() &&
                        names_word(q, at + named, words[named], stems[named], synonyms, wordnet);
      if (all) candidates.push_back({at, at + named + (unit ? 1 : 0), &column});
      if (at + words.size() > q.tokens.size()) continue;
      if (names_initialed(q, at, words)) candidates.push_back({at, at + 2, &column});
      // "the problem whose id is 10" names problem_id: its first word, a joiner, then the rest.
      const std::size_t joiner = words.size() >= 2 && at + words.size() < q.tokens.size() &&
                                         names_word(q, at, words[0], stems[0], synonyms, wordnet)
                                     ? phrase_starting_at(q.stems, at + 1, joiners)
                                     : 0;
      bool rest = joiner > 0 && at + joiner + words.size() <= q.tokens.size();
      for (std::size_t j = 1; rest && j < words.size(); ++j)
        rest = names_word(q, at + joiner + j, words[j], stems[j], synonyms, wordnet);
      if (rest) candidates.push_back({at, at + joiner + words.size(), &column});
    }
  };
  for (const data::ColumnProfile& column : profile.columns) {
    std::vector<std::string> words = column_words(column.name);
    Stems stems = stems_of(words, stemmer);
    for (const std::string& stem : std::set<std::string>(stems.begin(), stems.end())) ++word_owners[stem];
    add_name_matches(column, words, stems);
    // "first name" names EMP_FNAME of table EMPLOYEE: a first word that names the table, and that
    // other columns start with too, may be left out.
    // Not by words that name no column alone: "the number of apartments" names no apt_number.
    if (words.size() >= 2 && table_prefixes.count(stems.front()) > 0) {
      const std::size_t before = candidates.size();
      add_name_matches(column, std::vector<std::string>(words.begin() + 1, words.end()),
                       Stems(stems.begin() + 1, stems.end()));
      const auto only_stopwords = [&](const Mention& m) {
        return std::all_of(q.stems.begin() + static_cast<std::ptrdiff_t>(m.begin),
                           q.stems.begin() + static_cast<std::ptrdiff_t>(m.end),
                           [&](const std::string& stem) {
                             return std::find(stopwords.begin(), stopwords.end(), stem) != stopwords.end();
                           });
      };
      candidates.erase(std::remove_if(candidates.begin() + static_cast<std::ptrdiff_t>(before),
                                      candidates.end(), only_stopwords),
                       candidates.end());
    }
    names.push_back({&column, std::move(words), std::move(stems)});
  }
  // A single distinctive word of a multi-word column ("category" for product_category, "department"
  // for dept_code through a synonym).
  const Stems& table = q.table;
  for (const auto& [column, words, stems] : names) {
    if (words.size() < 2) continue;
    const bool id =
        stems.back() == "id";  // "singers" names the rows, not singer_id; "singer id" or "ids" does
    const bool own_key =
        id && std::equal(stems.begin(), stems.end() - 1, table.begin(), table.end());  // accounts: account_id
    // "for each department", "by country" group by department_id, country_id, keys that repeat;
    // "per order" over rows of one order each names no key: it is each row
    const bool repeated_key = id && !own_key && profile.repeats(*column);
    for (std::size_t at = 0; at < q.stems.size(); ++at) {
      const bool grouped = repeated_key && phrase_ending_at(q.stems, at, group_phrases) > 0;
      for (const std::string& stem : id && !grouped ? Stems{stems.back()} : stems) {
        // "how many invoices" over the invoices table counts its rows; it names no invoice_date
        const bool names_rows = !id && std::find(table.begin(), table.end(), stem) != table.end();
        const bool distinctive = !names_rows && (word_owners[stem] == 1 || own_key) &&
                                 std::find(stopwords.begin(), stopwords.end(), stem) == stopwords.end();
        // "the number of employees" names no EMP_NUM: a word that names no column alone ("number")
        // names none through a synonym either
        const bool plain = std::find(stopwords.begin(), stopwords.end(), q.stems[at]) == stopwords.end();
        if (distinctive && plain && names_stem(q, at, stem, synonyms))
          candidates.push_back({at, at + 1, column});
      }
    }
  }
  if (wordnet != nullptr) {
    std::vector<std::pair<const data::ColumnProfile*, std::string>> single_words;
    for (const auto& [column, words, stems] : names) {
      if (words.size() == 1) single_words.emplace_back(column, words.front());
    }
    add_wordnet_matches(q, single_words, stopwords, output_words, *wordnet, candidates);
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Mention& a, const Mention& b) { return a.end - a.begin > b.end - b.begin; });
  std::vector<Mention> chosen;
  std::vector<bool> taken(q.tokens.size(), false);
  for (const Mention& m : candidates) {
    if (std::any_of(taken.begin() + static_cast<std::ptrdiff_t>(m.begin),
                    taken.begin() + static_cast<std::ptrdiff_t>(m.end), [](bool t) { return t; })) {
      continue;
    }
    std::fill(taken.begin() + static_cast<std::ptrdiff_t>(m.begin),
              taken.begin() + static_cast<std::ptrdiff_t>(m.end), true);
    chosen.push_back(m);
  }
  std::sort(chosen.begin(), chosen.end(),
            [](const Mention& a, const Mention& b) { return a.begin < b.begin; });
  return chosen;
}

}  // namespace

Stems row_words(const Question& q, const data::SchemaProfile& profile, const Stems& row_nouns,
                bool identifying) {
  Stems words = row_nouns;
  words.insert(words.end(), q.table.begin(), q.table.end());
  for (const data::ColumnProfile& column : profile.columns) {
    const Stems& stems = column_stems(q, profile, column);
    if (stems.size() == 2 && stems.back() == "id" && !(identifying && profile.repeats(column)))
      words.push_back(stems.front());
  }
  return words;
}

std::optional<Stems> id_thing(const Question& q, const data::SchemaProfile& profile,
                              const data::ColumnProfile& column) {
  const Stems& stems = column_stems(q, profile, column);
  if (stems.size() < 2 || stems.back() != "id") return std::nullopt;
  Stems thing(stems.begin(), stems.end() - 1);
  if (thing == q.table) return std::nullopt;
  return thing;
}

const data::ColumnProfile& shown_by_name(const Question& q, const data::SchemaProfile& profile,
                                         const data::ColumnProfile& id, const Stems& thing) {
  Stems name = thing;
  name.push_back("name");
  for (const data::ColumnProfile& column : profile.columns) {
    if (column.distinct_count == id.distinct_count && column_stems(q, profile, column) == name) return column;
  }
  return id;
}

namespace {

// Where the question names the thing an X_id column whose values repeat identifies, by the words X
// ("musical" for Musical_ID, "tourist attractions" for Tourist_Attraction_ID) or by the last of them
// when no other such column ends so ("staff" for assigned_to_staff_id), longest first, as the column
// showing it (shown_by_name); not the table's own key (account_id of accounts).
std::vector<Mention> named_ids(const Question& q, const data::SchemaProfile& profile) {
  std::vector<Mention> found;
  std::map<std::string, int> heads;  // the last word of X -> how many X_id columns end so
  std::vector<std::pair<Stems, const data::ColumnProfile*>> things;
  for (const data::ColumnProfile& column : profile.columns) {
    std::optional<Stems> thing = profile.repeats(column) ? id_thing(q, profile, column) : std::nullopt;
    if (!thing) continue;
    ++heads[thing->back()];
    const data::ColumnProfile* shown = &shown_by_name(q, profile, column, *thing);
    things.emplace_back(std::move(*thing), shown);
  }
  for (const auto& [thing, shown] : things) {
    for (std::size_t at = 0; at < q.stems.size(); ++at) {
      const bool whole =
          at + thing.size() <= q.stems.size() &&
          std::equal(thing.begin(), thing.end(), q.stems.begin() + static_cast<std::ptrdiff_t>(at));
      if (whole) {
        found.push_back({at, at + thing.size(), shown});
      } else if (thing.size() >= 2 && heads[thing.back()] == 1 && q.stems[at] == thing.back()) {
        found.push_back({at, at + 1, shown});
      }
    }
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const Mention& a, const Mention& b) { return a.end - a.begin > b.end - b.begin; });
  return found;
}

// "Which game had the most injuries?", "the categories with the most festivals": a column of text or
// ids nearly every row holds its own value of (Injury, Music_Festival), named right after a word that
// ranks by the number of rows (`counts`), names those rows, not a key, when another column is named.
void drop_counted_row_names(const Question& q, const data::SchemaProfile& profile, const Phrases& counts,
                            std::vector<Mention>& mentions) {
  const auto names_rows = [&](const Mention& m) {
    const data::ColumnProfile& column = *m.column;
    const std::int64_t values = profile.row_count - column.null_count;
    const bool own_values = values > 0 && column.distinct_count * 10 >= values * 9;
    return own_values && !is_comparable(column) && phrase_ending_at(q.stems, m.begin, counts) > 0;
  };
  const bool other =
      std::any_of(mentions.begin(), mentions.end(), [&](const Mention& m) { return !names_rows(m); });
  if (other) std::erase_if(mentions, names_rows);
}

// A word that names the table ("the aircrafts" in table aircraft) names its rows, not its column
// of the same name, while the question names another column; a column of numbers it names is the
// column ("total Umsatz by Region" in table umsatz sums Umsatz).
std::vector<Mention> without_table_words(const Question& q, const data::SchemaProfile& profile,
                                         std::vector<Mention> mentions) {
  const Stems& table = q.table;
  const auto names_table = [&](const Mention& m) {
    const bool own_number = data::is_numeric(m.column->type) && column_stems(q, profile, *m.column) == table;
    return m.end - m.begin == table.size() && !own_number &&
           std::equal(table.begin(), table.end(), q.stems.begin() + static_cast<std::ptrdiff_t>(m.begin));
  };
  const bool other =
      std::any_of(mentions.begin(), mentions.end(), [&](const Mention& m) { return !names_table(m); });
  if (other) std::erase_if(mentions, names_table);
  return mentions;
}

}  // namespace

void ground_mentions(const Question& q, const data::SchemaProfile& profile, const ColumnWords& words,
                     const RankingWords& ranking, const ValueWords& values,
                     const core::WordNetSynonyms* wordnet, core::Stemmer& stemmer, Findings& found) {
  found.mentions =
      ground_columns(q, profile, words.synonyms, words.stopwords, words.output_words, words.name_joiners,
                     words.name_units, words.group_phrases, wordnet, stemmer);
  found.ids = named_ids(q, profile);
  found.id_keys = add_id_keys(q, found.ids, ranking, words.key_links, words.key_askers, found.mentions);
  drop_counted_row_names(q, profile, ranking.counts, found.mentions);
  found.mentions = without_words_of_values(
      q, profile, without_table_words(q, profile, std::move(found.mentions)), words.stopwords, values);
}

}  // namespace planfirst::autoviz::extraction
