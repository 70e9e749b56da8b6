#include "pipelines/autoviz/understand/rule_requirement_extractor.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "core/ascii_case.hpp"
#include "core/calendar.hpp"
#include "core/date_parse.hpp"
#include "core/join.hpp"
#include "core/registry_yaml.hpp"
#include "core/similarity.hpp"
#include "core/timestamp.hpp"
#include "core/tokenizer.hpp"
#include "core/wordnet_synonyms.hpp"
#include "llm/utf8.hpp"
#include "pipelines/autoviz/understand/abbreviated_value.hpp"
#include "pipelines/autoviz/group_filter.hpp"
#include "pipelines/autoviz/understand/phrase_match.hpp"
#include "pipelines/autoviz/understand/quoted_value.hpp"
#include "pipelines/autoviz/understand/extraction/question.hpp"
#include "pipelines/autoviz/understand/extraction/token_claims.hpp"
#include "pipelines/autoviz/row_count.hpp"

namespace planfirst::autoviz {
namespace {

using extraction::add_unique;
using extraction::Claim;
using extraction::column_stems;
using extraction::in_mention;
using extraction::KnownValue;
using extraction::listed;
using extraction::Mention;
using extraction::Question;
using extraction::stem_of;
using extraction::TokenClaims;

// A question word names a column word by spelling alone (Jaro-Winkler) when both have at least
// kFuzzyWordLetters letters and their similarity is at least kFuzzyMatch.
constexpr std::size_t kFuzzyWordLetters = 4;
constexpr double kFuzzyMatch = 0.92;
// WordNet is asked about question words of at least this many letters ("area" for region).
constexpr std::size_t kWordNetWordLetters = 3;
// A negation reaches a value at most this many words after it ("not from the United States").
constexpr std::size_t kNegationReach = 4;
// A cue word points to a column from at most this many words before a value ("departing from").
constexpr std::size_t kCueReach = 3;
// Whole numbers in [kFirstYear, kPastLastYear) a column's bounds spell are years ("1997").
constexpr double kFirstYear = 1000;
constexpr double kPastLastYear = 3000;
// number_scales are powers of ten up to 10^kMaxScalePower ("billion": 9).
constexpr int kMaxScalePower = 12;

// Claims tokens [begin, end) for `why` and blanks their words, so no later pass reads them.
void blank_claimed(std::size_t begin, std::size_t end, Claim why, Question& q, TokenClaims& claims) {
  for (std::size_t at = begin; at < end; ++at) {
    q.tokens[at] = q.stems[at] = "";
    claims.claim(at, why);
  }
}

}  // namespace

// Reads requirement_rules.yaml into the extractor's phrase tables.
class RequirementRulesReader {
 public:
  explicit RequirementRulesReader(const core::RegistryYaml& yaml) : yaml_(yaml) {}

  core::Result<RuleRequirementExtractor> read() const {
    return yaml_.guarded<RuleRequirementExtractor>([this]() -> core::Result<RuleRequirementExtractor> {
      RuleRequirementExtractor rules;
      const YAML::Node& root = yaml_.root();
      if (auto r = labelled(root, "analysis", rules.analysis_); !r) return r.error();
      if (auto r = labelled(root, "outputs", rules.outputs_); !r) return r.error();
      if (auto r = labelled(root, "grains", rules.grains_); !r) return r.error();
      if (auto r = labelled(root, "month_words", rules.month_words_); !r) return r.error();
      core::Result<std::vector<std::string>> defaults = yaml_.names(root, "default_outputs", "rules");
      if (!defaults) return defaults.error();
      rules.default_outputs_ = *defaults;
      for (const auto& [label, phrases] : rules.outputs_) {
        for (const Stems& phrase : phrases) rules.output_words_.insert(rules.output_words_.end(), phrase.begin(), phrase.end());
      }
      rules.compare_when_grouped_by_ = root["compare_when_grouped_by"].as<std::size_t>(2);
      if (auto r = phrase_fields(root, {{"group_phrases", &rules.group_phrases_},
                                        {"count_phrases", &rules.count_phrases_},
                                        {"count_group_phrases", &rules.count_group_phrases_},
                                        {"time_phrases", &rules.time_phrases_},
                                        {"bucket_phrases", &rules.bucket_phrases_},
                                        {"axis_joiners", &rules.axis_joiners_},
                                        {"x_axis_before", &rules.x_axis_before_},
                                        {"name_joiners", &rules.name_joiners_},
                                        {"x_axis_after", &rules.x_axis_after_},
                                        {"metric_phrases", &rules.metric_phrases_},
                                        {"aggregation_words", &rules.aggregation_words_},
                                        {"superlatives", &rules.superlatives_},
                                        {"distinct_words", &rules.distinct_words_}});
          !r) {
        return r.error();
      }
      core::Result<YAML::Node> labels = yaml_.mapping(root, "row_labels", "rules");
      if (!labels) return labels.error();
      core::Result<std::vector<std::string>> label_words = yaml_.names(*labels, "words", "row_labels");
      if (!label_words) return label_words.error();
      core::Result<std::vector<std::string>> label_analysis = yaml_.names(*labels, "with_analysis", "row_labels");
      if (!label_analysis) return label_analysis.error();
      rules.row_labels_ = {std::move(*label_words), std::move(*label_analysis)};
      core::Result<YAML::Node> ranking = yaml_.mapping(root, "ranking_words", "rules");
      if (!ranking) return ranking.error();
      if (auto r = phrase_fields(*ranking, {{"desc", &rules.ranking_desc_},
                                            {"asc", &rules.ranking_asc_},
                                            {"counts", &rules.ranking_counts_},
                                            {"orders", &rules.ranking_orders_},
                                            {"key_links", &rules.ranking_key_links_},
                                            {"key_askers", &rules.ranking_key_askers_}});
          !r) {
        return r.error();
      }
      for (auto [key, target] : {std::pair{"named_desc", &rules.ranking_named_desc_}, std::pair{"named_asc", &rules.ranking_named_asc_}}) {
        core::Result<YAML::Node> named = yaml_.mapping(*ranking, key, "ranking_words");
        if (!named) return named.error();
        if (auto r = word_map(*named, "column word", stem_of, rules.synonyms_); !r) return r.error();
        for (const auto& entry : *named) target->push_back({stem_of(entry.first.as<std::string>())});
      }
      SortPhrases& s = rules.sort_;
      if (auto r = section(root, "sort", {{"verbs", &s.verbs}, {"plain", &s.plain}, {"desc", &s.desc}, {"asc", &s.asc},
                                          {"magnitude", &s.magnitude}, {"x_axis", &s.x_axis}, {"y_axis", &s.y_axis},
                                          {"noun_markers", &s.noun_markers}, {"objects", &s.objects}});
          !r) {
        return r.error();
      }
      RelativePeriodPhrases& p = rules.relative_periods_;
      core::Result<YAML::Node> periods = section(root, "relative_periods",
                                                 {{"current", &p.current}, {"previous", &p.previous},
                                                  {"trailing", &p.trailing}, {"to_date", &p.to_date},
                                                  {"part_of", &p.part_of}, {"not_before", &p.not_before},
                                                  {"compare_words", &p.compare_words}});
      if (!periods) return periods.error();
      if (auto r = labelled(*periods, "units", p.units); !r) return r.error();
      TextFilterPhrases& t = rules.text_filters_;
      if (auto r = section(root, "text_filters", {{"verbs", &t.verbs}, {"markers", &t.markers}, {"negations", &t.negations},
                                                  {"links", &t.links}, {"holders", &t.holders}, {"owners", &t.owners}});
          !r) {
        return r.error();
      }
      core::Result<YAML::Node> values = yaml_.mapping(root, "values", "rules");
      if (!values) return values.error();
      if (auto r = value_words(*values, rules.value_words_); !r) return r.error();
      core::Result<YAML::Node> synonyms = yaml_.mapping(root, "synonyms", "rules");
      if (!synonyms) return synonyms.error();
      if (auto r = word_map(*synonyms, "synonym", stem_of, rules.synonyms_); !r) return r.error();
      core::Result<YAML::Node> comparatives = yaml_.mapping(root, "row_comparatives", "rules");
      if (!comparatives) return comparatives.error();
      if (auto r = word_map(*comparatives, "column word", stem_of, rules.row_comparatives_); !r) return r.error();
      if (auto r = labelled(root, "comparisons", rules.comparisons_); !r) return r.error();
      if (auto r = labelled(root, "comparison_suffixes", rules.comparison_suffixes_); !r) return r.error();
      core::Result<YAML::Node> group_filters = yaml_.mapping(root, "group_filters", "rules");
      if (!group_filters) return group_filters.error();
      if (auto r = labelled(*group_filters, "aggregations", rules.group_aggregations_); !r) return r.error();
      if (auto r = labelled(*group_filters, "aggregations_after", rules.group_aggregations_after_); !r)
        return r.error();
      if (auto r = stem_fields(*group_filters, "group_filters", {{"determiners", &rules.group_determiners_}}); !r)
        return r.error();
      if (auto r = phrase_fields(*group_filters, {{"exactly", &rules.group_exactly_}}); !r) return r.error();
      core::Result<YAML::Node> periods_compared = yaml_.mapping(root, "period_comparisons", "rules");
      if (!periods_compared) return periods_compared.error();
      PeriodWords& w = rules.period_words_;
      if (auto r = labelled(*periods_compared, "before", w.before); !r) return r.error();
      if (auto r = labelled(*periods_compared, "after", w.after); !r) return r.error();
      if (auto r = phrase_fields(*periods_compared, {{"ranges", &w.ranges}, {"joiners", &w.joiners}, {"fillers", &w.fillers}});
          !r) {
        return r.error();
      }
      core::Result<YAML::Node> scales = yaml_.mapping(root, "number_scales", "rules");
      if (!scales) return scales.error();
      for (const auto& entry : *scales) {
        const int power = entry.second.as<int>();
        if (power < 1 || power > kMaxScalePower) return core::invalid_argument("number_scales: a power of ten from 1 to 12", "number_scales");
        std::int64_t scale = 1;
        for (int i = 0; i < power; ++i) scale *= 10;
        rules.number_scales_[stem_of(entry.first.as<std::string>())] = scale;
      }
      if (auto r = stem_fields(root, "rules",
                               {{"year_links", &rules.year_links_},
                                {"period_links", &rules.period_links_},
                                {"group_fillers", &rules.group_fillers_},
                                {"number_words", &rules.number_words_},
                                {"row_nouns", &rules.row_nouns_},
                                {"name_units", &rules.name_units_},
                                {"row_links", &rules.row_links_},
                                {"stopwords", &rules.stopwords_}});
          !r) {
        return r.error();
      }
      rules.relative_periods_.number_words = rules.number_words_;
      return rules;
    });
  }

 private:
  core::Result<RuleRequirementExtractor::Phrases> phrase_list(const YAML::Node& parent,
                                                              const char* key) const {
    core::Result<std::vector<std::string>> names = yaml_.names(parent, key, "rules");
    if (!names) return names.error();
    return phrases_of(*names);
  }

  using PhraseField = std::pair<const char*, RuleRequirementExtractor::Phrases*>;

  // Each listed key of `parent` read as phrases into its target.
  core::Result<void> phrase_fields(const YAML::Node& parent,
                                   std::initializer_list<PhraseField> fields) const {
    for (auto [key, target] : fields) {
      core::Result<RuleRequirementExtractor::Phrases> phrases = phrase_list(parent, key);
      if (!phrases) return phrases.error();
      *target = std::move(*phrases);
    }
    return core::ok();
  }

  // The mapping `key` of `root`, its listed keys read as phrase lists into their targets.
  core::Result<YAML::Node> section(const YAML::Node& root, const char* key, std::initializer_list<PhraseField> fields) const {
    core::Result<YAML::Node> node = yaml_.mapping(root, key, "rules");
    if (!node) return node.error();
    if (core::Result<void> read = phrase_fields(*node, fields); !read) return read.error();
    return node;
  }

  // Each listed key of `parent` (named `context` in errors) read as word lists, stemmed, into its target.
  core::Result<void> stem_fields(const YAML::Node& parent, const char* context,
                                 std::initializer_list<std::pair<const char*, Stems*>> fields) const {
    for (auto [key, target] : fields) {
      core::Result<std::vector<std::string>> names = yaml_.names(parent, key, context);
      if (!names) return names.error();
      *target = stems_of(*names);
    }
    return core::ok();
  }

  // A mapping of words to lists of words: the stem of each key -> each listed word as `listed` makes it.
  core::Result<void> word_map(const YAML::Node& map, const char* what,
                              std::string (*listed)(const std::string&),
                              std::map<std::string, std::vector<std::string>>& out) const {
    for (const auto& entry : map) {
      core::Result<std::vector<std::string>> words = yaml_.names_at(entry.second, what);
      if (!words) return words.error();
      std::vector<std::string>& target = out[stems_of({entry.first.as<std::string>()}).front()];
      for (const std::string& word : *words) target.push_back(listed(word));
    }
    return core::ok();
  }

  // values: {words: {male: [m, male]}, negations: [...], links: [...]}
  core::Result<void> value_words(const YAML::Node& values, ValueWords& out) const {
    core::Result<YAML::Node> words = yaml_.mapping(values, "words", "values");
    if (!words) return words.error();
    const auto lower = [](const std::string& word) { return core::ascii_lower(word); };
    if (auto r = word_map(*words, "value word", lower, out.synonyms); !r) return r.error();
    if (auto r = stem_fields(
            values, "values",
            {{"negations", &out.negations},
             {"links", &out.links},
             {"list_words", &out.list_words},
             {"joiners", &out.joiners},
             {"name_links", &out.name_links}});
        !r) {
      return r.error();
    }
    core::Result<YAML::Node> cues = yaml_.sequence(values, "column_cues", "values");
    if (!cues) return cues.error();
    for (const YAML::Node& group : *cues) {
      core::Result<std::vector<std::string>> words = yaml_.names_at(group, "values.column_cues");
      if (!words) return words.error();
      out.column_cues.push_back(stems_of(*words));
    }
    core::Result<std::vector<std::string>> flags = yaml_.names(values, "true_flags", "values");
    if (!flags) return flags.error();
    for (const std::string& flag : *flags) out.true_flags.push_back(core::ascii_lower(flag));
    return core::ok();
  }

  core::Result<void> labelled(
      const YAML::Node& root, const char* key,
      std::vector<std::pair<std::string, RuleRequirementExtractor::Phrases>>& out) const {
    core::Result<YAML::Node> map = yaml_.mapping(root, key, "rules");
    if (!map) return map.error();
    for (const auto& entry : *map) {
      const std::string label = entry.first.as<std::string>();
      core::Result<RuleRequirementExtractor::Phrases> phrases = phrase_list(*map, label.c_str());
      if (!phrases) return phrases.error();
      out.emplace_back(label, std::move(*phrases));
    }
    return core::ok();
  }

  const core::RegistryYaml& yaml_;
};

core::Result<RuleRequirementExtractor> RuleRequirementExtractor::load(const core::AssetStore& assets) {
  core::Result<core::RegistryYaml> yaml = core::RegistryYaml::load(assets, kPath);
  if (!yaml) return yaml.error();
  core::Result<RuleRequirementExtractor> rules = RequirementRulesReader(*yaml).read();
  if (!rules) return rules;
  core::Result<std::shared_ptr<const core::WordNetSynonyms>> wordnet = core::WordNetSynonyms::open();
  if (wordnet) rules->wordnet_ = std::move(*wordnet);  // without WordNet's database, its tier is skipped
  return rules;
}

namespace {

// The values a question may name of `column`: all of them when the profile lists them, else its samples.
const std::vector<std::string>& known_values(const data::ColumnProfile& column) {
  return column.values.empty() ? column.samples : column.values;
}

// Fills q's categorical values from the profile, and its value words when `with_words` (only
// the WordNet tier reads them).
void index_values(const data::SchemaProfile& profile, core::Stemmer& stemmer, bool with_words, Question& q) {
  q.categorical_values.assign(profile.columns.size(), {});
  for (std::size_t c = 0; c < profile.columns.size(); ++c) {
    const data::ColumnProfile& column = profile.columns[c];
    if (!with_words && column.role != data::ColumnRole::kCategorical) continue;
    for (const std::string& value : known_values(column)) {
      const std::vector<std::string> words = core::tokenize(value);
      if (with_words) q.value_words.insert(words.begin(), words.end());
      if (column.role == data::ColumnRole::kCategorical)
        q.categorical_values[c].push_back({value, stems_of(words, stemmer), abbreviated_value(value)});
    }
  }
}

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
bool abbreviates_word(const std::string& word, const std::string& token, const core::WordNetSynonyms* wordnet) {
  const bool letters = std::all_of(word.begin(), word.end(), [](char c) { return c >= 'a' && c <= 'z'; });
  return wordnet != nullptr && letters && token.size() > word.size() && abbreviates(word, token) &&
         !wordnet->knows(word);
}

// How well question word `at` names column word `word` (with stem `stem`): exact or stemmed,
// through a synonym, by Jaro-Winkler for words of four letters or more, or as its abbreviation.
bool names_word(const Question& q, std::size_t at, const std::string& word, const std::string& stem,
                const std::map<std::string, std::vector<std::string>>& synonyms, const core::WordNetSynonyms* wordnet) {
  if (q.tokens[at] == word || names_stem(q, at, stem, synonyms)) return true;
  if (abbreviates_word(word, q.tokens[at], wordnet)) return true;
  return word.size() >= kFuzzyWordLetters && q.tokens[at].size() >= kFuzzyWordLetters &&
         core::jaro_winkler(q.tokens[at], word) >= kFuzzyMatch;
}

// Whether question word `at` asks for an output ("a line chart", "as a line", "in a table"), so
// WordNet's senses of it (line: channel) name no column; "each line of work" names one.
bool asks_output(const Question& q, std::size_t at, const Stems& output_words) {
  const auto output = [&](std::size_t i) {
    return i < q.stems.size() && std::find(output_words.begin(), output_words.end(), q.stems[i]) != output_words.end();
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
                         const Stems& stopwords, const Stems& output_words, const core::WordNetSynonyms& wordnet,
                         std::vector<Mention>& candidates) {
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
  return words.size() == 1 && words[0].size() >= 4 && words[0][0] == initial && names_rest(words[0].substr(1));
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
  for (const data::ColumnProfile& column : profile.columns) {
    std::vector<std::string> words = column_words(column.name);
    Stems stems = stems_of(words, stemmer);
    for (const std::string& stem : std::set<std::string>(stems.begin(), stems.end())) ++word_owners[stem];
    // "max temperature" names max_temperature_f: a last word of one letter, or a unit, the question may leave out.
    const bool unit_last = words.size() >= 3 && (words.back().size() == 1 ||
                                                 std::find(units.begin(), units.end(), stems.back()) != units.end());
    const std::size_t named = unit_last ? words.size() - 1 : words.size();
    // "classroom" names CLASS_ROOM, "zipcode" zip_code: a two-word name written as one word
    const std::string compound = words.size() == 2 ? stemmer.stem(words[0] + words[1]) : std::string();
    for (std::size_t at = 0; !compound.empty() && at < q.stems.size(); ++at) {
      if (q.stems[at] == compound) candidates.push_back({at, at + 1, &column});
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
        if (distinctive && names_stem(q, at, stem, synonyms)) candidates.push_back({at, at + 1, column});
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

bool is_connector(const std::string& token) {
  return token == "and" || token == "or" || token == "the" || token == "its";
}

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
bool joined_after(const Question& q, std::size_t from, std::size_t to, const Stems& joiners, const Stems& links) {
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
int cue_nearness(const Question& q, std::size_t at, const data::ColumnProfile& column, const std::vector<Stems>& cues) {
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
                   const std::vector<Mention>& mentions, const Stems& stopwords, const ValueWords& words_,
                   const std::set<std::size_t>& compared, Requirements& requirements) {
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
      outranked = other.column != hit.column && other.at < hit.at + hit.span && hit.at < other.at + other.span &&
                  ranks[j] > ranks[i];
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
    add_unique(requirements.constraints,
               Constraint{"filter", hit->column->name, "=", ParamValue{{ParamScalar(*hit->value)}, false}, "", 0});
  }
  for (auto& [column, list] : excluded) {
    const bool one = list.values.size() == 1;
    add_unique(requirements.constraints,
               Constraint{"filter", column, one ? "!=" : "not_in", ParamValue{std::move(list.values), !one}, "", 0});
  }
  return taken;
}

// Whether token `at` of `question` (spanned by `spans`) starts with a capital letter.
bool capitalized(std::string_view question, const std::vector<core::TokenSpan>& spans, std::size_t at) {
  return at < spans.size() && spans[at].begin < question.size() &&
         std::isupper(static_cast<unsigned char>(question[spans[at].begin])) != 0;
}

// The whole number token `at` spells; nothing for other words or one past int64's range.
std::optional<std::int64_t> number_after(const Question& q, std::size_t at) {
  if (at >= q.tokens.size()) return std::nullopt;
  const std::string& token = q.tokens[at];
  std::int64_t n = 0;
  const char* end = token.data() + token.size();
  if (token.empty() || token.front() == '-') return std::nullopt;
  if (auto [ptr, ec] = std::from_chars(token.data(), end, n); ec == std::errc() && ptr == end) return n;
  return std::nullopt;
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
    const bool continued = next < q.stems.size() && (listed(words.joiners, q.stems[next]) || q.stems[next] == "to");
    if (const std::optional<std::int64_t> n = number_after(q, m.end); n && !continued) {
      const bool whole = m.column->type == data::ColumnType::kInteger;
      return UnknownValue{q.tokens[m.end], m.begin, whole ? ParamScalar(*n) : ParamScalar(q.tokens[m.end])};
    }
  }
  std::size_t begin = m.begin;
  while (begin > 0 && capitalized(question, q.spans, begin - 1) && !q.tokens[begin - 1].empty() &&
         !taken.count(begin - 1) && !in_mention(mentions, begin - 1) && !listed(words.name_links, q.stems[begin - 1])) {
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
      return core::invalid_argument("the question names '" + value->text + "' as a " + column.name + ", and " +
                                        column.name + " holds only: " + core::join(column.values),
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
    const bool some = profiled != nullptr && profiled->distinct_count > static_cast<std::int64_t>(items.size());
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

// For each token of core::tokenize(text) (at `spans`: core::token_spans(text)), whether it and the
// next are digits joined by one '.': "above 99.5" tokenizes as above, 99, 5.
std::vector<bool> decimal_points(std::string_view text, const std::vector<core::TokenSpan>& spans) {
  const auto digits = [&](const core::TokenSpan& span) {
    return std::all_of(text.begin() + static_cast<std::ptrdiff_t>(span.begin),
                       text.begin() + static_cast<std::ptrdiff_t>(span.end), [](char c) { return c >= '0' && c <= '9'; });
  };
  std::vector<bool> points(spans.size(), false);
  for (std::size_t i = 0; i + 1 < spans.size(); ++i) {
    points[i] = text[spans[i].end] == '.' && spans[i + 1].begin == spans[i].end + 1 && digits(spans[i]) && digits(spans[i + 1]);
  }
  return points;
}

double scalar_number(const ParamScalar& value) {
  if (const auto* whole = std::get_if<std::int64_t>(&value)) return static_cast<double>(*whole);
  const auto* real = std::get_if<double>(&value);
  return real != nullptr ? *real : 0;
}

// A number the profile wrote as text (a column's min or max); nothing for other text.
std::optional<double> profiled_number(const std::optional<std::string>& text) {
  double n = 0;
  if (!text) return std::nullopt;
  const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), n);
  if (error != std::errc() || end != text->data() + text->size()) return std::nullopt;
  return n;
}

// Whether `value` lies within the values `column` holds, by its min and max.
bool within_range(const data::ColumnProfile& column, double value) {
  const std::optional<double> low = profiled_number(column.min), high = profiled_number(column.max);
  return low && high && *low <= value && value <= *high;
}

// A number as the question writes it at a token: its value, the tokens it takes (a scale word
// after it included: "1 million") and that word's multiplier (1 without one).
struct NumberRead {
  ParamScalar value;
  std::size_t tokens = 1;
  std::int64_t scale = 1;
};

// "99.5" is the double 99.5 over two tokens, "99" the integer 99 over one, "1 million" 1 over two
// with the scale 1000000; nothing at other words.
std::optional<NumberRead> number_read_at(const Question& q, std::size_t at) {
  const std::optional<std::int64_t> whole = number_after(q, at);
  if (!whole) return std::nullopt;
  NumberRead read{ParamScalar{*whole}};
  if (at + 1 < q.tokens.size() && at < q.point_after.size() && q.point_after[at]) {
    double value = 0;
    const std::string text = q.tokens[at] + "." + q.tokens[at + 1];
    if (auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value); ec == std::errc())
      read = {ParamScalar{value}, 2};
  }
  if (const std::size_t next = at + read.tokens; next < q.scale.size() && q.scale[next] != 0) {
    read.scale = q.scale[next];
    ++read.tokens;
  }
  return read;
}

// `number` times `scale`; a whole product stays an integer.
ParamScalar times(const ParamScalar& number, std::int64_t scale) {
  if (scale == 1) return number;
  const double product = scalar_number(number) * static_cast<double>(scale);
  const bool whole = product == std::floor(product) && std::abs(product) < 9e18;
  return whole ? ParamScalar{static_cast<std::int64_t>(product)} : ParamScalar{product};
}

// The number at token `at` as a filter value, scaled, and how many tokens it takes.
std::optional<std::pair<ParamScalar, std::size_t>> number_value_at(const Question& q, std::size_t at) {
  const std::optional<NumberRead> read = number_read_at(q, at);
  if (!read) return std::nullopt;
  return std::pair{times(read->value, read->scale), read->tokens};
}

// The number at token `at` as a value of `column`: a scale word after it ("50 million") multiplies
// it, unless the column's name holds that word (Damage_millions_USD) or only the plain number lies
// within the column's values (Total_Passengers from 20 to 95: "more than 50 million" is 50).
std::optional<std::pair<ParamScalar, std::size_t>> number_for_column(const Question& q, std::size_t at,
                                                                     const data::ColumnProfile& column) {
  const std::optional<NumberRead> read = number_read_at(q, at);
  if (!read) return std::nullopt;
  const ParamScalar scaled = times(read->value, read->scale);
  if (read->scale == 1) return std::pair{scaled, read->tokens};
  const Stems name = stems_of(column_words(column.name));
  const bool named = std::find(name.begin(), name.end(), q.stems[at + read->tokens - 1]) != name.end();
  const bool plain = named || (!within_range(column, scalar_number(scaled)) &&
                               within_range(column, scalar_number(read->value)));
  return std::pair{plain ? read->value : scaled, read->tokens};
}

// The date tokens `at`.. spell ("2002-06-21" tokenizes as 2002, 06, 21) as YYYY-MM-DD; nothing
// for other words.
std::optional<std::string> date_after(const Question& q, std::size_t at) {
  const std::optional<std::int64_t> year = number_after(q, at), month = number_after(q, at + 1),
                                    day = number_after(q, at + 2);
  if (!year || !month || !day || q.tokens[at].size() != 4 || *month < 1 || *month > 12 || *day < 1 ||
      *day > 31) {
    return std::nullopt;
  }
  char text[16];
  std::snprintf(text, sizeof text, "%04lld-%02lld-%02lld", static_cast<long long>(*year),
                static_cast<long long>(*month), static_cast<long long>(*day));
  return std::string(text);
}

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
    if (op != "between") return Constraint{"filter", column.name, op, ParamValue{{first->first}, false}, "", 0};
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

// The year a column's min or max spells: a number from 1000 to 2999 ("1997", "1997.0").
std::optional<int> year_number(const std::optional<std::string>& text) {
  const std::optional<double> n = profiled_number(text);
  if (!n || *n < kFirstYear || *n >= kPastLastYear) return std::nullopt;
  return static_cast<int>(*n);
}

// The years a column of whole numbers 1000..2999 holds, first and last; nullopt for any other.
std::optional<std::pair<int, int>> integer_years(const data::ColumnProfile& column) {
  const std::optional<int> first = year_number(column.min), last = year_number(column.max);
  if (column.type != data::ColumnType::kInteger || !first || !last) return std::nullopt;
  return std::pair{*first, *last};
}

// The year `column` spans, first and last, when it holds years or dates.
std::optional<std::pair<int, int>> years_spanned(const data::ColumnProfile& column) {
  if (std::optional<std::pair<int, int>> years = integer_years(column)) return years;
  const bool dated = data::is_temporal(column.type) || column.role == data::ColumnRole::kTemporal;  // "May 26, 1986" too
  if (!dated || !column.span) return std::nullopt;
  const auto year_of = [](const std::string& date) -> std::optional<int> {  // "2024-03-01..." -> 2024
    int year = 0;
    if (date.size() < 4 || std::from_chars(date.data(), date.data() + 4, year).ptr != date.data() + 4) {
      return std::nullopt;
    }
    return year;
  };
  const std::optional<int> first = year_of(column.span->first), last = year_of(column.span->last);
  if (!first || !last) return std::nullopt;
  return std::pair{*first, *last};
}

// The first of `columns` holding years that spans `year`, else the first holding years at all (any
// one when `year` is nullopt): a year the data does not reach still filters, keeps no row, and the
// run says so rather than answering over every year. nullptr when none holds years.
const data::ColumnProfile* column_of_year(const std::vector<const data::ColumnProfile*>& columns,
                                          std::optional<std::int64_t> year) {
  const data::ColumnProfile* first = nullptr;
  for (const data::ColumnProfile* column : columns) {
    const std::optional<std::pair<int, int>> span = years_spanned(*column);
    if (!span) continue;
    if (!year || (span->first <= *year && *year <= span->second)) return column;
    if (first == nullptr) first = column;
  }
  return first;
}

constexpr std::size_t kComparisonReach = 5;  // "salary is in the range of 8000 and 12000"

bool is_comparable(const data::ColumnProfile& column) {
  return column.role == data::ColumnRole::kMeasure || column.role == data::ColumnRole::kTemporal ||
         data::is_numeric(column.type);
}

// The filter on numeric `column` that the number at token `at` and a suffix after it state ("95 or
// higher"), with the tokens they take; nothing without both.
struct SuffixComparison {
  Constraint filter;
  std::size_t begin, end;
};

std::optional<SuffixComparison> suffix_comparison_at(const Question& q, std::size_t at, const data::ColumnProfile& column,
                                                     const LabelledPhrases& suffixes) {
  if (column.role == data::ColumnRole::kTemporal) return std::nullopt;
  const auto number = number_for_column(q, at, column);
  if (!number) return std::nullopt;
  for (const auto& [op, phrases] : suffixes) {
    const std::size_t n = phrase_starting_at(q.stems, at + number->second, phrases);
    const std::size_t end = at + number->second + n;
    if (n > 0 && (end >= q.stems.size() || q.stems[end] != "than")) {  // "or lower than 500" compares anew
      return SuffixComparison{Constraint{"filter", column.name, op, ParamValue{{number->first}, false}, "", 0}, at, end};
    }
  }
  return std::nullopt;
}

// Whether `column` holds years: dates, or numbers from 1000 to 2999 (Year_Opened as 1997.0 too).
bool holds_years(const data::ColumnProfile& column) {
  return years_spanned(column) ||
         (data::is_numeric(column.type) && year_number(column.min) && year_number(column.max));
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
std::optional<Constraint> number_named_after(const Question& q, const data::SchemaProfile& profile, const Mention& m) {
  const data::ColumnProfile& column = *m.column;
  if (column.type != data::ColumnType::kInteger || !profile.repeats(column) || m.end >= q.tokens.size() ||
      (m.end < q.point_after.size() && q.point_after[m.end]) || (m.end + 1 < q.scale.size() && q.scale[m.end + 1] != 0)) {
    return std::nullopt;
  }
  const std::optional<std::int64_t> number = number_after(q, m.end);
  if (!number || !within_range(column, static_cast<double>(*number))) return std::nullopt;
  return Constraint{"filter", column.name, "=", ParamValue{{ParamScalar(*number)}, false}, "", 0};
}

// The words of the group_filters rules: an aggregation before a compared measure, across determiners.
struct GroupFilterWords {
  const LabelledPhrases& aggregations;
  const LabelledPhrases& after;  // "add up to": after the measure
  const Stems& determiners;
};

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
    const bool mentioned = std::any_of(mentions.begin(), mentions.end(),
                                       [&](const Mention& other) { return at >= other.begin && at < other.end; });
    if (mentioned) return false;
    for (const Stems* list : {&words.determiners, &own, &q.table}) {
      if (std::find(list->begin(), list->end(), q.stems[at]) != list->end()) return true;
    }
    return false;
  };
  std::size_t at = m.begin;
  for (auto same = mentions.rbegin(); same != mentions.rend(); ++same) {  // "payment amount": two words of amount_payment
    if (same->end == at && same->column == m.column) at = same->begin;
  }
  while (at > 0 && skipped(at - 1)) --at;
  for (const auto& [func, phrases] : words.aggregations) {
    if (const std::size_t n = phrase_ending_at(q.stems, at, phrases)) return std::pair{func, at - n};
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
std::set<std::size_t> ground_comparisons(const Question& q, const data::SchemaProfile& profile, const std::vector<Mention>& mentions,
                                         const std::vector<std::pair<std::string, Phrases>>& comparisons,
                                         const LabelledPhrases& suffixes, const LabelledPhrases& year_comparisons,
                                         const GroupFilterWords& group_words, const std::set<std::size_t>& row_counts,
                                         Requirements& requirements) {
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
    if (const std::size_t before = number_start_before(q, m.begin); !filter && before >= 1 && before < m.begin) {
      filter = comparison_at(q, before, *m.column, comparisons);  // "more than 1 million followers"
      number = before;
    }
    if (!filter) {  // "a score of 95 or higher"
      std::optional<SuffixComparison> suffixed;
      for (std::size_t at = m.end; !suffixed && at < m.end + kComparisonReach && at < q.stems.size() && !starts_mention(at); ++at)
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
    if (row_counts.count(number)) continue;  // "advisors with more than 3 students" compares the count of students
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
const data::ColumnProfile* comparative_column(const Question& q, std::size_t begin, std::size_t end,
                                              const data::SchemaProfile& profile,
                                              const std::map<std::string, std::vector<std::string>>& comparatives) {
  for (std::size_t at = begin; at < end; ++at) {
    const auto listed = comparatives.find(q.stems[at]);
    if (listed == comparatives.end()) continue;
    for (const std::string& word : listed->second) {
      for (const data::ColumnProfile& column : profile.columns) {
        const Stems& stems = column_stems(q, profile, column);
        if (is_comparable(column) && std::find(stems.begin(), stems.end(), word) != stems.end()) return &column;
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
                                             const RowComparisonWords& words, const std::set<std::size_t>& compared,
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

// The comparisons with a number the question states that no filter took (`understood`): "longer
// than 2000" where no column is longer, "more than 1" customer where customers are no rows; the
// words of each as the question has them.
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
    if (const auto second = end + 1 < q.tokens.size() && q.tokens[end] == "and" ? number_value_at(q, end + 1) : std::nullopt)
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

// The calendar period token `at` names without its year: a quarter ("q4") or a month ("march",
// "mar"; `months` in calendar order), with its first month.
std::optional<std::pair<core::CalendarUnit, unsigned>> period_word_at(const Question& q, std::size_t at,
                                                                      const LabelledPhrases& months) {
  const std::string& token = q.tokens[at];
  if (token.size() == 2 && token[0] == 'q' && token[1] >= '1' && token[1] <= '4')
    return std::pair{core::CalendarUnit::kQuarter, 3 * static_cast<unsigned>(token[1] - '0') - 2};
  for (std::size_t month = 0; month < months.size(); ++month) {
    if (phrase_starting_at(q.stems, at, months[month].second) == 1)
      return std::pair{core::CalendarUnit::kMonth, static_cast<unsigned>(month + 1)};
  }
  return std::nullopt;
}

// The filters keeping the days of `days` on date column `column` for `op` ("=": those days; ">":
// after them; ">=": from their first; "<": before it; "<=": up to their last).
std::vector<Constraint> day_filters(const std::string& column, const std::string& op, const core::DayRange& days) {
  const auto filter = [&](const std::string& how, std::chrono::sys_days day) {
    return Constraint{"filter", column, how, ParamValue{{core::format_utc_day(std::chrono::sys_seconds(day))}, false}, "", 0};
  };
  if (op == "=") return {filter(">=", days.since), filter("<", days.until)};
  if (op == ">") return {filter(">=", days.until)};
  if (op == ">=") return {filter(">=", days.since)};
  if (op == "<") return {filter("<", days.since)};
  return {filter("<", days.until)};  // "<="
}

// How the period at tokens [first, last) is kept: the comparison before it ("after June 2024": ">",
// "since 2000": ">=") or after it ("2014 or later": ">="), else "="; the first of a range ("between
// March and June 2024", "from 2010 to 2015") ">=", and the period starting at `range_end` (the
// token after its joiner, which this call then sets) "<=". `begin` and `end` span the tokens used.
struct PeriodComparison {
  std::string op = "=";
  std::size_t begin = 0, end = 0;
};

// The first period of a range and the filters it added, so a range written latest first ("between
// 2015 and 2010", "between June 2024 and March 2024") is turned around when its second period closes
// it. `Period`: a year, or a core::DayRange.
template <typename Period>
struct RangeStart {
  std::vector<Constraint> filters;
  Period period;
};

bool starts_before(std::int64_t year, std::int64_t other) {
  return year < other;
}
bool starts_before(const core::DayRange& days, const core::DayRange& other) {
  return days.since < other.since;
}

// The filters of `period` compared with `op` (`filters(op, period)`), when it `closes` the range
// `opened` began or `opens` one. A period closing a range that began after it keeps the rows from it
// to the range's first period: the first period's filters leave `constraints` for ">=" this period
// and "<=" the first. Updates `opened`.
template <typename Period, typename Filters>
std::vector<Constraint> range_filters(const std::string& op, const Period& period, bool closes, bool opens,
                                      std::optional<RangeStart<Period>>& opened,
                                      std::vector<Constraint>& constraints, const Filters& filters) {
  std::vector<Constraint> added;
  if (closes && opened && starts_before(period, opened->period)) {
    for (const Constraint& filter : opened->filters) std::erase(constraints, filter);
    added = filters(">=", period);
    for (Constraint& filter : filters("<=", opened->period)) added.push_back(std::move(filter));
  } else {
    added = filters(op, period);
  }
  opened = opens ? std::optional<RangeStart<Period>>(RangeStart<Period>{added, period}) : std::nullopt;
  return added;
}

PeriodComparison period_comparison(const Question& q, std::size_t first, std::size_t last, const PeriodWords& words,
                                   std::optional<std::size_t>& range_end) {
  const bool range_closes = range_end == first;
  range_end.reset();
  if (range_closes) return {"<=", first, last};
  if (const std::size_t range = phrase_ending_at(q.stems, first, words.ranges);
      range > 0 && phrase_starting_at(q.stems, last, words.joiners) == 1 && last + 1 < q.stems.size()) {
    range_end = last + 1;
    return {">=", first - range, last + 1};
  }
  const std::size_t filler = phrase_ending_at(q.stems, first, words.fillers);  // "after the year 2000"
  for (const auto& [op, phrases] : words.before) {
    if (const std::size_t n = phrase_ending_at(q.stems, first - filler, phrases); n > 0) return {op, first - filler - n, last};
  }
  for (const auto& [op, phrases] : words.after) {
    if (const std::size_t n = phrase_starting_at(q.stems, last, phrases); n > 0) return {op, first, last + n};
  }
  return {"=", first, last};
}

// The days tokens from `at` name, with the tokens they span: a quarter or a month with its
// four-digit year before or after it ("Q4 2024", "2024 Q4", "March 2024"), or a date ("2024-03-01",
// tokenized as 2024, 03, 01).
struct NamedPeriod {
  core::DayRange days;
  std::size_t begin = 0, end = 0;
};

std::optional<NamedPeriod> named_period_at(const Question& q, std::size_t at, const LabelledPhrases& months) {
  const auto year_at_token = [&](std::size_t i) {  // a four-digit year
    return i < q.tokens.size() && q.tokens[i].size() == 4 ? number_after(q, i) : std::nullopt;
  };
  if (date_after(q, at)) {
    const std::chrono::year_month_day date{std::chrono::year(static_cast<int>(*number_after(q, at))),
                                           std::chrono::month(static_cast<unsigned>(*number_after(q, at + 1))),
                                           std::chrono::day(static_cast<unsigned>(*number_after(q, at + 2)))};
    if (!date.ok()) return std::nullopt;
    return NamedPeriod{core::calendar_period(core::CalendarUnit::kDay, std::chrono::sys_days(date)), at, at + 3};
  }
  const std::optional<std::pair<core::CalendarUnit, unsigned>> period = period_word_at(q, at, months);
  if (!period) return std::nullopt;
  std::size_t year_at = at + 1;  // "Q4 2024", else "2024 Q4"
  std::optional<std::int64_t> year = year_at_token(year_at);
  if (!year && at > 0) year = year_at_token(year_at = at - 1);
  if (!year) return std::nullopt;
  const core::DayRange days = core::calendar_period(
      period->first,
      std::chrono::sys_days(std::chrono::year(static_cast<int>(*year)) / std::chrono::month(period->second) / 1));
  return NamedPeriod{days, std::min(at, year_at), std::max(at, year_at) + 1};
}

// How a month or quarter named without its year reads in a question ("March", "Q2").
std::string period_label(std::pair<core::CalendarUnit, unsigned> period, const LabelledPhrases& months) {
  if (period.first == core::CalendarUnit::kQuarter) return "Q" + std::to_string((period.second + 2) / 3);
  std::string name = months[period.second - 1].first;
  if (!name.empty()) name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
  return name;
}

// The days of the month or quarter `period`, named without its year at token `at`, in the one year
// `column`'s dates reach it ("in March" over dates of 2024 alone: March 2024). Refused when the
// dates reach it in several years (which one is meant?) or in none.
core::Result<NamedPeriod> period_in_data(const data::ColumnProfile& column, std::size_t at,
                                         std::pair<core::CalendarUnit, unsigned> period,
                                         const LabelledPhrases& months) {
  const std::string named = period_label(period, months);
  const std::string asked = "the question names " + named + " without a year, and " + column.name;
  core::Result<core::ParsedDate> first = core::parse_date(column.span ? column.span->first : "");
  core::Result<core::ParsedDate> last = core::parse_date(column.span ? column.span->last : "");
  if (!first || !last) return core::invalid_argument(asked + " holds no dates to find it in", column.name);
  const std::chrono::sys_days first_day = first->day(), last_day = last->day();
  std::vector<std::string> years;
  std::optional<core::DayRange> found;
  for (std::chrono::year year = std::chrono::year_month_day(first_day).year();
       year <= std::chrono::year_month_day(last_day).year(); ++year) {
    const core::DayRange days =
        core::calendar_period(period.first, std::chrono::sys_days(year / std::chrono::month(period.second) / 1));
    if (days.since > last_day || days.until <= first_day) continue;
    years.push_back(std::to_string(static_cast<int>(year)));
    found = days;
  }
  if (years.empty()) {
    return core::invalid_argument(asked + " runs from " + column.span->first + " to " + column.span->last +
                                      ", which holds no " + named,
                                  column.name);
  }
  if (years.size() > 1) {
    return core::invalid_argument(asked + " holds " + named + " in " + core::join(years) + ": say which, as in '" +
                                      named + " " + years.back() + "'",
                                  column.name);
  }
  return NamedPeriod{*found, at, at + 1};
}

// The refusal of a date no calendar has ("2024-02-30").
core::Error no_date(const std::string& date) {
  return core::invalid_argument("the question names the date " + date + ", which no calendar has", date);
}

// Filters for the periods named with their year (named_period_at) that no comparison of a named
// column took (`compared`): the dates of the first date column that spans that year, else of the
// first date column (a period the data does not reach keeps no row, and the run says so),
// [first day, first day of the next period), or those a comparison states ("since July 2024",
// "after 2024-03-01", "between March 2024 and June 2024"). Returns its tokens and its comparison's;
// kInvalidArgument for a date no calendar has ("2024-02-30").
core::Result<std::set<std::size_t>> ground_calendar_periods(const Question& q, const data::SchemaProfile& profile,
                                                            const LabelledPhrases& months, const PeriodWords& words,
                                                            const Stems& period_links,
                                                            const std::set<std::size_t>& compared,
                                                            Requirements& requirements) {
  std::vector<const data::ColumnProfile*> date_columns;
  for (const data::ColumnProfile& column : profile.columns) {
    if (data::is_temporal(column.type)) date_columns.push_back(&column);
  }
  std::set<std::size_t> used;
  std::optional<std::size_t> range_end;  // where the last period of a range starts
  std::optional<RangeStart<core::DayRange>> opened;
  const auto taken = [&](std::size_t token) { return used.count(token) > 0 || compared.count(token) > 0; };
  const data::ColumnProfile* dates = column_of_year(date_columns, std::nullopt);  // of a period with no year
  for (std::size_t at = 0; at < q.tokens.size(); ++at) {
    std::optional<NamedPeriod> period = named_period_at(q, at, months);
    if (!period) {
      if (const std::optional<std::string> date = date_after(q, at)) return no_date(*date);
      const auto word = period_word_at(q, at, months);
      const bool linked = at > 0 && listed(period_links, q.stems[at - 1]);
      if (!word || !(linked || range_end == at) || taken(at) || dates == nullptr) continue;
      core::Result<NamedPeriod> in_data = period_in_data(*dates, at, *word, months);  // "in March": of which year?
      if (!in_data) return in_data.error();
      period = *in_data;
    }
    bool read = false;  // a plain loop: clang 14 cannot iterate libstdc++ 12's views::iota
    for (std::size_t token = period->begin; token < period->end && !read; ++token) read = taken(token);
    if (read) continue;
    const int year = static_cast<int>(std::chrono::year_month_day(period->days.since).year());
    const data::ColumnProfile* spans = column_of_year(date_columns, year);
    if (spans == nullptr) continue;
    const bool closes = range_end == period->begin;
    const PeriodComparison comparison = period_comparison(q, period->begin, period->end, words, range_end);
    const std::vector<Constraint> filters =
        range_filters(comparison.op, period->days, closes, range_end.has_value(), opened, requirements.constraints,
                      [&](const std::string& op, const core::DayRange& days) {
                        return day_filters(spans->name, op, days);
                      });
    for (const Constraint& filter : filters) add_unique(requirements.constraints, filter);
    for (std::size_t word = comparison.begin; word < comparison.end; ++word) used.insert(word);
    at = period->end - 1;
  }
  return used;
}

// The filters keeping `year` on `column` for `op`: a column of years compares with the year, a date
// column with its days ("=": [1 January, next 1 January); "after 1999": from 2000-01-01).
std::vector<Constraint> year_filters(const data::ColumnProfile& column, const std::string& op, std::int64_t year) {
  if (column.type == data::ColumnType::kInteger) {
    return {Constraint{"filter", column.name, op, ParamValue{{ParamScalar(year)}, false}, "", 0}};
  }
  const core::DayRange days = core::calendar_period(
      core::CalendarUnit::kYear, std::chrono::sys_days(std::chrono::year(static_cast<int>(year)) / 1 / 1));
  return day_filters(column.name, op, days);
}

// Filters for years the question names after a link word ("in 2024", "in either 1999 or 2000") on
// the date or year column that spans them (a named one first), or with a comparison ("after 1928",
// "2014 or later", "between 2010 and 2015") on the first date or year column (a named one first).
// Returns the tokens of the years and of their comparisons.
std::set<std::size_t> ground_years(const Question& q, const data::SchemaProfile& profile,
                                   const std::vector<Mention>& mentions, const Stems& links,
                                   const PeriodWords& words, const std::set<std::size_t>& compared,
                                   Requirements& requirements) {
  std::vector<const data::ColumnProfile*> columns;
  for (const Mention& m : mentions) columns.push_back(m.column);
  for (const data::ColumnProfile& column : profile.columns) columns.push_back(&column);
  std::set<std::size_t> used;
  std::optional<std::size_t> range_end;  // where the last year of a range stands
  std::optional<RangeStart<std::int64_t>> opened;
  for (std::size_t at = 1; at < q.tokens.size(); ++at) {
    const std::optional<std::int64_t> year = number_after(q, at);
    if (!year || q.tokens[at].size() != 4 || compared.count(at) || date_after(q, at)) continue;  // "2002-06-21" is a date
    const bool closes = range_end == at;
    const PeriodComparison comparison = period_comparison(q, at, at + 1, words, range_end);
    const bool compares = comparison.op != "=";
    if (!compares && std::find(links.begin(), links.end(), q.stems[at - 1]) == links.end()) continue;
    const data::ColumnProfile* spans = column_of_year(columns, compares ? std::nullopt : year);
    if (spans == nullptr) continue;
    const std::vector<Constraint> filters = range_filters(
        comparison.op, *year, closes, range_end.has_value(), opened, requirements.constraints,
        [&](const std::string& op, std::int64_t period) { return year_filters(*spans, op, period); });
    for (const Constraint& filter : filters) add_unique(requirements.constraints, filter);
    for (std::size_t word = comparison.begin; word < comparison.end; ++word) used.insert(word);
  }
  return used;
}

struct RankingWords {
  const Phrases& desc;
  const Phrases& asc;
  const Phrases& named_desc;  // fastest, tallest...: they also name the column they rank by
  const Phrases& named_asc;
  const Stems& number_words;
  const std::vector<std::pair<std::string, Phrases>>& comparisons;  // "at least 10000" compares; it ranks nothing
  const LabelledPhrases& units;  // day, week, month...: "which month had the biggest revenue" ranks the months
  const Phrases& counts;         // most, least...: with no measure named, they rank by the number of rows
  const Phrases& groups;         // by, per, for each...: "per country, most first" orders every country
  const Stems& fillers;          // words between a grouping phrase and its column
  const Phrases& orders;         // first, last: "highest first" orders; it picks no first
};

constexpr std::int64_t kMaxCountBefore = 1000;  // "the 3 largest": a count before; "the 2024 largest" is a year

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
// fastest": speed) or named within three words after it ("the lowest average cost"), else the first metric that is a measure, the first metric, or the
// row count when rows are counted ("the number of", or "the most" per key); "" when there is none.
std::string ranked_column(std::size_t begin, std::size_t end, const std::vector<Mention>& mentions, bool counting,
                          const data::SchemaProfile& profile, const Requirements& r) {
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

// The words that name the table's rows: a row noun ("rows"), a word of the table's name, or the
// thing an id column identifies ("orders" beside order_id; with `identifying`, only an id whose
// values never repeat: customer_id on orders names no rows); stems.
Stems row_words(const Question& q, const data::SchemaProfile& profile, const Stems& row_nouns, bool identifying) {
  Stems words = row_nouns;
  words.insert(words.end(), q.table.begin(), q.table.end());
  for (const data::ColumnProfile& column : profile.columns) {
    const Stems& stems = column_stems(q, profile, column);
    if (stems.size() == 2 && stems.back() == "id" && !(identifying && profile.repeats(column)))
      words.push_back(stems.front());
  }
  return words;
}

// Whether the question only counts the table's rows: it names them (a row noun such as "rows", a
// word of the table's name, or the thing an id column identifies: "orders" beside order_id), and
// every other word is a stopword or a count phrase ("how many orders are there?"). "The number of
// attractions per way to get there" counts something it does not name, so it is refused.
bool counts_only_rows(const Question& q, const Stems& words, const Stems& stopwords, const Phrases& count_phrases) {
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

// The words a count threshold is stated with: comparisons before the count, suffixes after it,
// "exactly", and counts written out.
struct CountWords {
  const LabelledPhrases& comparisons;
  const LabelledPhrases& suffixes;
  const Phrases& exactly;
  const Stems& number_words;
};

// The comparison a count at token `at` ("2", "two") states with a phrase before it ("more than 2",
// "exactly 5") or after it ("3 or more"), and the tokens they take with the number; nothing without
// one. "is" and ranges are no count threshold.
struct CountComparison {
  std::string op;
  ParamScalar value;
  std::size_t begin, end;
};

std::optional<CountComparison> count_comparison_at(const Question& q, std::size_t at, const CountWords& words) {
  const std::optional<std::int64_t> number = count_at(q.stems, at, words.number_words);  // "2", "two"
  if (!number || (at < q.point_after.size() && q.point_after[at]) || (at + 1 < q.scale.size() && q.scale[at + 1] != 0))
    return std::nullopt;
  for (const auto& [op, phrases] : words.comparisons) {
    const std::size_t n = phrase_ending_at(q.stems, at, phrases);
    if (n > 0 && op != "=" && op != "between") return CountComparison{op, ParamScalar(*number), at - n, at + 1};
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
std::set<std::size_t> ground_row_counts(const Question& q, const std::vector<Mention>& mentions, const Stems& rows,
                                        const CountWords& words, Requirements& requirements) {
  std::set<std::size_t> used;
  for (std::size_t at = 0; at < q.stems.size(); ++at) {
    const std::optional<CountComparison> compared = count_comparison_at(q, at, words);
    if (!compared || compared->end >= q.stems.size()) continue;
    const std::size_t noun = compared->end;
    const bool named = std::any_of(mentions.begin(), mentions.end(), [&](const Mention& m) {  // "2 enrolments": no date_of_enrolment
      return m.begin == noun && m.end - m.begin == column_words(m.column->name).size();
    });
    if (named || std::find(rows.begin(), rows.end(), q.stems[noun]) == rows.end()) continue;
    add_unique(requirements.constraints,
               Constraint{"filter", group_filter_spelling({"count", std::string(kCountRowsMetric)}), compared->op,
                          ParamValue{{compared->value}, false}, "", 0});
    for (std::size_t t = compared->begin; t <= noun; ++t) used.insert(t);
  }
  return used;
}

// Whether `r` keeps groups by an aggregate ("count(*)", "avg(price)") rather than by a column.
bool keeps_groups(const Requirements& r, const data::SchemaProfile& profile) {
  return std::any_of(r.constraints.begin(), r.constraints.end(), [&](const Constraint& c) {
    return group_filter_of(c, profile).has_value();
  });
}

// The thing an X_id column identifies, X as stems ("musical" for Musical_ID); none for another
// column and for the key named after the table itself (account_id of accounts).
std::optional<Stems> id_thing(const Question& q, const data::SchemaProfile& profile,
                              const data::ColumnProfile& column) {
  const Stems& stems = column_stems(q, profile, column);
  if (stems.size() < 2 || stems.back() != "id") return std::nullopt;
  Stems thing(stems.begin(), stems.end() - 1);
  if (thing == q.table) return std::nullopt;
  return thing;
}

// The X_name column beside X_id (`thing` X) holding as many values, which shows the same things by
// name (start_station_name beside start_station_id); else the id itself.
const data::ColumnProfile& shown_by_name(const Question& q, const data::SchemaProfile& profile,
                                         const data::ColumnProfile& id, const Stems& thing) {
  Stems name = thing;
  name.push_back("name");
  for (const data::ColumnProfile& column : profile.columns) {
    if (column.distinct_count == id.distinct_count && column_stems(q, profile, column) == name) return column;
  }
  return id;
}

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
      const bool whole = at + thing.size() <= q.stems.size() &&
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

// Whether a ranking word, not a comparison's ("at most 10"), ends right before `end`; its length.
std::size_t ranking_word_length(const Stems& text, std::size_t end, const RankingWords& ranking) {
  const std::size_t length = ranking_word_ending_at(text, end, ranking).length;
  const bool compares = std::any_of(ranking.comparisons.begin(), ranking.comparisons.end(), [&](const auto& entry) {
    return phrase_ending_at(text, end, entry.second) > length;
  });
  return compares ? 0 : length;
}

// "Which musical has the most actors?", "the 5 departments with the highest average salary", "the top
// 3 tourist attractions by visits", "how many items does each order have": the thing an X_id column
// identifies (`ids`), named right before a ranking word (with only `links` between), right after a
// ranking word and a count, right after a count or an asking word (`askers`: "which") with a ranking
// word later, or right after a grouping phrase, is a key: a mention of that column, returned. Tokens
// another mention holds stay with it.
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
  const bool other = std::any_of(mentions.begin(), mentions.end(), [&](const Mention& m) { return !names_rows(m); });
  if (other) std::erase_if(mentions, names_rows);
}

// "departments with 5 or more employees", "countries whose invoice totals add up to more than 150":
// groups kept by an aggregate with no key named by a grouping phrase are those of an X_id column
// whose values repeat, named by X (`ids`: named_ids), else those of the columns named that are no measure.
void group_by_named_id(const std::vector<Mention>& ids, const data::SchemaProfile& profile,
                       Requirements& requirements) {
  if (!requirements.group_by.empty() || requirements.time.column || !keeps_groups(requirements, profile)) return;
  if (!ids.empty()) {
    requirements.group_by = {ids.front().column->name};
    std::erase(requirements.metrics, ids.front().column->name);
    return;
  }
  for (const std::string& metric : requirements.metrics) {
    const data::ColumnProfile* column = profile.find(metric);
    if (column != nullptr && column->role != data::ColumnRole::kMeasure) requirements.group_by.push_back(metric);
  }
  std::erase_if(requirements.metrics, [&](const std::string& metric) {
    return std::find(requirements.group_by.begin(), requirements.group_by.end(), metric) != requirements.group_by.end();
  });
}

// The ranking the question states. A ranking word with a count right after or before it ("top 5",
// "the 3 largest", "the five biggest"), or a count before a column and a ranking word later ("the 3
// regions with the highest revenue"): a sort on the ranked column and a limit. A ranking word
// alone after a key it ranks ("the region with the lowest cost"): a sort in its direction. `words` are the question's stems with the understood words cleared.
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
    if (word.length == 0) word = named_ranking_word_ending_at(q.stems, at + 1, ranking);  // a column's mention
    const std::size_t length = word.length;
    const bool compares = std::any_of(ranking.comparisons.begin(), ranking.comparisons.end(), [&](const auto& entry) {
      return phrase_ending_at(words, at + 1, entry.second) > length;
    });
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
    while (at > 0 && std::find(ranking.fillers.begin(), ranking.fillers.end(), q.stems[at - 1]) != ranking.fillers.end()) --at;
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
    return at < q.stems.size() && !q.stems[at].empty() && std::find(q.table.begin(), q.table.end(), q.stems[at]) != q.table.end();
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
      const std::string* value = c.type == "filter" && c.value.items.size() == 1 ? std::get_if<std::string>(&c.value.items.front()) : nullptr;
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
    const std::optional<std::int64_t> n = at > 0 ? count_at(words, at - 1, ranking.number_words) : std::nullopt;
    if (!found->n && n && *n <= kMaxCountBefore) found->n = n;
  }
  if (!found->n && ranked.empty()) return;  // "the highest revenue": one maximum, nothing to order
  const bool keys = !requirements.group_by.empty() || requirements.time.column;
  const bool counts_rows = counting || (keys && phrase_starting_at(words, found->begin, ranking.counts) > 0);
  const std::string by = ranked_column(found->begin, found->end, mentions, counts_rows, profile, requirements);
  if (!by.empty())
    requirements.constraints.push_back({"sort", by, "", ParamValue{}, found->desc ? "desc" : "asc", 0});
  if (!by.empty() && row_key != nullptr && row_key->name != by &&
      std::find(requirements.metrics.begin(), requirements.metrics.end(), row_key->name) ==
          requirements.metrics.end())
    requirements.metrics.insert(requirements.metrics.begin(), row_key->name);
  const data::ColumnProfile* ranked_by = profile.find(by);  // "top 5 departments by number of employees" ranks
  if (ranked_by != nullptr && ranked_by->role == data::ColumnRole::kMeasure &&  // by Num_Employees; it groups nothing
      std::find(requirements.metrics.begin(), requirements.metrics.end(), by) != requirements.metrics.end()) {
    std::erase(requirements.group_by, by);
  }
  if (!found->n && (!keys_ranked || !plural) && !by.empty()) found->n = 1;  // "which flight has the highest price": that one
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
    ranked_rows = requirements.group_by.empty() && !requirements.time.column && requirements.metrics.size() <= 1;
    break;
  }
  const bool limited = std::any_of(requirements.constraints.begin(), requirements.constraints.end(),
                                   [](const Constraint& c) { return c.type == "limit"; });
  add_sort(clause, mentions, requirements);
  if (ranked_rows && !limited) requirements.constraints.push_back({"limit", "", "", ParamValue{}, "", 1});
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

// A word that names the table ("the aircrafts" in table aircraft) names its rows, not its column
// of the same name, while the question names another column.
std::vector<Mention> without_table_words(const Question& q, std::vector<Mention> mentions) {
  const Stems& table = q.table;
  const auto names_table = [&](const Mention& m) {
    return m.end - m.begin == table.size() &&
           std::equal(table.begin(), table.end(), q.stems.begin() + static_cast<std::ptrdiff_t>(m.begin));
  };
  const bool other =
      std::any_of(mentions.begin(), mentions.end(), [&](const Mention& m) { return !names_table(m); });
  if (other) std::erase_if(mentions, names_table);
  return mentions;
}

// A word naming a column inside a longer value of another column ("a Bulgarian victory" of result,
// not bulgarian_commander; "heavy-lift helicopters" of Description, not the weight) names the value.
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
      return hit.column != m.column && hit.at <= m.begin && m.end <= hit.at + hit.span && m.end - m.begin < hit.span;
    });
  });
  return mentions;
}

// "in the artist table" names the data, not a table to output: clears "table" after the table's name.
void clear_table_references(const Question& q, Stems& words) {
  const Stems& table = q.table;
  for (std::size_t at = table.size(); !table.empty() && at < q.tokens.size(); ++at) {
    if (q.tokens[at] == "table" &&
        std::equal(table.begin(), table.end(),
                   q.stems.begin() + static_cast<std::ptrdiff_t>(at - table.size()))) {
      words[at].clear();
    }
  }
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
bool counts_distinct_at(const Question& q, std::size_t at, const Phrases& count_phrases, const Phrases& distinct_words) {
  const std::size_t word = phrase_ending_at(q.stems, at, distinct_words);
  return word > 0 && counts_at(q, at - word, count_phrases);
}

// The column a count phrase names ("how many players", "the number of companies") is what is
// counted, not a key, when a grouping phrase names another column ("... each position").
void drop_counted_keys(const std::vector<std::string>& counted, const std::set<std::string>& grouped_by_phrase,
                       const data::SchemaProfile& profile, Requirements& requirements) {
  for (const std::string& column : counted) {  // "how many players came from UCLA?": each player is a row
    const data::ColumnProfile* named = profile.find(column);
    if (named != nullptr && named->distinct_count > 0 && !profile.repeats(*named) && !grouped_by_phrase.count(column))
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

// The column of dates a relative period counts back from: the time column when it holds dates,
// else the first column of dates; nullptr when no column holds dates.
const data::ColumnProfile* dated_column(const data::SchemaProfile& profile, const std::optional<std::string>& time) {
  const auto dated = [](const data::ColumnProfile* c) {
    return c != nullptr && data::is_temporal(c->type) && c->span.has_value();
  };
  if (time && dated(profile.find(*time))) return profile.find(*time);
  for (const data::ColumnProfile& column : profile.columns) {
    if (dated(&column)) return &column;
  }
  return nullptr;
}

// Filters keeping the dates of `period` ("last year": [2023-01-01, 2024-01-01) when the latest
// date is in 2024); the column filtered, or nothing when a named year already filters it or the
// period has no dates.
std::optional<std::string> keep_period(const RelativePeriod& period, const data::ColumnProfile& column,
                                       Requirements& requirements) {
  const bool dated = std::any_of(requirements.constraints.begin(), requirements.constraints.end(),
                                 [&](const Constraint& c) { return c.type == "filter" && c.column == column.name; });
  const std::optional<DateRange> range = period_dates(period, column.span->last);
  if (dated || !range) return std::nullopt;  // "in 2024 compared with last year": both cannot hold
  add_unique(requirements.constraints, Constraint{"filter", column.name, ">=", ParamValue{{range->from}, false}, "", 0});
  add_unique(requirements.constraints, Constraint{"filter", column.name, "<", ParamValue{{range->to}, false}, "", 0});
  return column.name;
}

// "distance by name" where every name is one row's: groups of one row aggregate nothing, so the
// measure is drawn per row, against the key.
void draw_per_unique_key(const data::SchemaProfile& profile, Requirements& requirements) {
  const data::ColumnProfile* measure = profile.find(requirements.metrics.front());
  const data::ColumnProfile* key = profile.find(requirements.group_by.front());
  if (measure == nullptr || measure->role != data::ColumnRole::kMeasure || key == nullptr || key == measure) return;
  if (key->null_count != 0 || key->distinct_count != profile.row_count || profile.row_count < 2) return;
  requirements.metrics.insert(requirements.metrics.begin(), key->name);
  requirements.group_by.clear();
}

// Blanks the grouping words ("by") a sort clause uses for its key: right after the direction ("in
// descending order by age") or after the verb and its object ("sort them by salary", "arrange the
// people by weight"); "list regions by revenue in descending order" still groups by region.
void release_sort_key(const SortClause& sort, const SortPhrases& phrases, const Phrases& group_phrases, Question& q,
                      TokenClaims& claims) {
  const bool plain_verb = phrase_starting_at(q.stems, sort.begin, phrases.plain) > 0;  // order, sort, rank
  for (std::size_t at = sort.begin + 1; at < sort.end; ++at) {
    bool after_verb = at == sort.begin + 1 || plain_verb;  // "show by the hire date from low to high"
    for (std::size_t k = sort.begin + 1; after_verb && k < at; ++k) {
      after_verb = phrase_starting_at(q.stems, k, phrases.objects) == 1 ||
                   std::find(q.table.begin(), q.table.end(), q.stems[k]) != q.table.end();
    }
    const bool after_direction = q.stems[at - 1] == "order" || phrase_ending_at(q.stems, at, phrases.desc) > 0 ||
                                 phrase_ending_at(q.stems, at, phrases.asc) > 0;
    if (!after_verb && !after_direction) continue;
    for (std::size_t n = phrase_starting_at(q.stems, at, group_phrases); n > 0; --n)
      blank_claimed(at + n - 1, at + n, Claim::kSort, q, claims);
  }
}

// The words naming what a question measures when no column holds it: the words right before its
// first phrase of `anchors` (groupings, time phrases, grains: "total profit per channel", "profit
// over time"), else right after it ("monthly profit"), none a column's, a value's (`taken`), a
// stopword or a word of `known` (aggregations, analyses, outputs). Empty when the question names
// its rows (`rows`: "orders by region", "how films are produced by each studio" count them) or no
// such words.
std::vector<std::string> unheld_quantity(const Question& q, const std::vector<Mention>& mentions,
                                         const std::set<std::size_t>& taken, const Stems& rows, const Stems& stopwords,
                                         const std::vector<const Phrases*>& anchors,
                                         const std::vector<const Phrases*>& known) {
  if (std::any_of(q.stems.begin(), q.stems.end(), [&](const std::string& stem) { return listed(rows, stem); })) return {};
  const auto length_at = [&](const std::vector<const Phrases*>& lists, std::size_t at) {
    std::size_t n = 0;
    for (const Phrases* phrases : lists) n = std::max(n, phrase_starting_at(q.stems, at, *phrases));
    return n;
  };
  const auto unknown = [&](std::size_t at) {
    return !q.tokens[at].empty() && !in_mention(mentions, at) && !taken.count(at) && !listed(stopwords, q.stems[at]) &&
           length_at(anchors, at) == 0 && length_at(known, at) == 0;
  };
  std::size_t anchor = 0;
  while (anchor < q.stems.size() && length_at(anchors, anchor) == 0) ++anchor;
  if (anchor == q.stems.size()) return {};
  std::vector<std::string> words;
  for (std::size_t at = anchor; at-- > 0 && unknown(at);) words.insert(words.begin(), q.tokens[at]);
  for (std::size_t at = anchor + length_at(anchors, anchor); words.empty() && at < q.tokens.size() && unknown(at); ++at) {
    words.push_back(q.tokens[at]);
  }
  return words;
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

// The refusal of a question asking for `asked`, which no column of `profile` holds.
core::Error unheld_quantity_error(const data::SchemaProfile& profile, const std::vector<std::string>& asked) {
  std::vector<std::string> measures;
  for (const data::ColumnProfile& column : profile.columns) {
    if (column.role == data::ColumnRole::kMeasure) measures.push_back(column.name);
  }
  const std::string words = core::join(asked, " ");
  const std::string held = measures.empty() ? "; it has no measure column" : "; the measures are: " + core::join(measures);
  return core::invalid_argument("the question asks for '" + words + "', which no column of " + profile.table + " holds" +
                                    held + "; to count rows, ask for the number of " + words,
                                "metrics");
}

// "revenue per unit by product category": a measure per another measure, beside another key, is a
// ratio of the two (no plan step computes one), not a grouping by the second; refused naming both.
std::optional<core::Error> ratio_of_measures(std::string_view question, const Question& q,
                                             const std::vector<Mention>& mentions, const Requirements& r) {
  if (q.spans.empty() || (r.group_by.size() < 2 && !(r.group_by.size() == 1 && r.time.column))) return std::nullopt;
  for (const Mention& a : mentions) {
    for (const Mention& b : mentions) {
      if (b.begin != a.end + 1 || q.stems[a.end] != "per" || a.column->role != data::ColumnRole::kMeasure ||
          b.column->role != data::ColumnRole::kMeasure || !listed(r.metrics, a.column->name) ||
          !listed(r.group_by, b.column->name)) {
        continue;
      }
      const std::string words(question.substr(q.spans[a.begin].begin, q.spans[b.end - 1].end - q.spans[a.begin].begin));
      return core::invalid_argument("the question asks for '" + words + "', a ratio of " + a.column->name + " to " +
                                        b.column->name + ", which no plan step computes; ask for " + a.column->name +
                                        " and " + b.column->name + " side by side, or for the average " +
                                        a.column->name,
                                    "metrics");
    }
  }
  return std::nullopt;
}

// "which region has the highest revenue": a category named right after an asking word, in a
// ranking with a measure and no other key, is what the ranking groups by, not a metric.
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

}  // namespace

core::Result<ExtractedRequirements> RuleRequirementExtractor::extract(
    std::string_view question, const data::SchemaProfile& profile) const {
  if (const std::string bad = llm::invalid_utf8_message(question); !bad.empty())  // its words reach JSON
    return core::invalid_argument("the question is " + bad, "question");
  Question q;
  q.tokens = core::tokenize(question);
  q.spans = core::token_spans(question);
  q.point_after = decimal_points(question, q.spans);
  if (q.spans.size() != q.tokens.size()) q.spans.clear();
  core::Stemmer stemmer;  // not thread-safe: one per question
  q.stems = stems_of(q.tokens, stemmer);
  for (const std::string& stem : q.stems) {
    auto scale = number_scales_.find(stem);
    q.scale.push_back(scale == number_scales_.end() ? 0 : scale->second);
  }
  q.table = stems_of(column_words(profile.table), stemmer);
  for (const data::ColumnProfile& column : profile.columns) q.columns.push_back(stems_of(column_words(column.name), stemmer));
  index_values(profile, stemmer, wordnet_ != nullptr, q);
  TokenClaims claims;  // which tokens each pass took, and why
  std::optional<SortClause> sort = find_sort_clause(q.stems, sort_, core::sentence_ends(question));
  if (sort && sorts_nothing(q, *sort, bucket_phrases_)) sort.reset();
  if (sort && !sort->axis.empty()) {  // "by the y-axis from high to low" names no column
    blank_claimed(sort->begin, sort->end, Claim::kSort, q, claims);
  } else if (sort) {
    release_sort_key(*sort, sort_, group_phrases_, q, claims);
  }
  std::vector<RelativePeriod> periods = find_relative_periods(q.stems, relative_periods_);
  if (!contains_phrase(q.stems, relative_periods_.compare_words))  // "the last week of each month last year" keeps 2023
    std::erase_if(periods, [](const RelativePeriod& p) { return p.part; });
  std::optional<RelativePeriod> period;  // one period keeps rows; two ("this year vs last year") compare, unread
  if (periods.size() == 1 && !periods.front().qualified && dated_column(profile, std::nullopt) != nullptr)
    period = periods.front();
  if (period) {  // "last year" is a filter, not the year grain
    blank_claimed(period->begin, period->end, Claim::kRelativePeriod, q, claims);
  }
  const RankingWords ranking{ranking_desc_, ranking_asc_, ranking_named_desc_, ranking_named_asc_, number_words_, comparisons_, relative_periods_.units, ranking_counts_,
                             group_phrases_, group_fillers_, ranking_orders_};
  std::vector<Mention> mentions =
      ground_columns(q, profile, synonyms_, stopwords_, output_words_, name_joiners_, name_units_, group_phrases_,
                     wordnet_.get(), stemmer);
  const std::vector<Mention> ids = named_ids(q, profile);
  const std::vector<std::string> id_keys =
      add_id_keys(q, ids, ranking, ranking_key_links_, ranking_key_askers_, mentions);
  drop_counted_row_names(q, profile, ranking_counts_, mentions);
  mentions = without_words_of_values(q, profile, without_table_words(q, std::move(mentions)), stopwords_, value_words_);
  Requirements requirements;
  const Stems rows = row_words(q, profile, row_nouns_, true);  // the rows by their own words and ids
  const std::set<std::size_t> row_counts = ground_row_counts(
      q, mentions, rows, CountWords{comparisons_, comparison_suffixes_, group_exactly_, number_words_}, requirements);
  std::erase_if(mentions, [&](const Mention& m) { return row_counts.count(m.begin) > 0; });  // "2 flights" names the rows

  bool grouping = false;
  const bool counting = contains_phrase(q.stems, count_phrases_) || !row_counts.empty();  // "with more than 3 students"
  std::vector<std::string>
      ungrouped;  // columns named outside a grouping phrase or after a bare "by", in order
  std::set<std::string> grouped_by_phrase;  // "how many": a number after "by" groups
  std::size_t previous_end = 0;
  bool time_named = false;
  std::vector<std::string> counted;  // "how many players ... each position": players are counted
  const auto chart = std::find_if(outputs_.begin(), outputs_.end(), [](const auto& entry) { return entry.first == "chart"; });
  const bool asks_chart = chart != outputs_.end() && contains_phrase(q.stems, chart->second);
  for (const Mention& m : mentions) {
    if (counting && counts_at(q, m.begin, count_phrases_)) counted.push_back(m.column->name);
    const std::size_t owner = start_of_determiners(q, m.begin, group_fillers_);  // "by the dog's name"
    const std::size_t phrase =
        std::max(phrase_ending_at(q.stems, owner, group_phrases_),
                 counting ? phrase_ending_at(q.stems, owner, count_group_phrases_) : 0);
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
      time_named = true;
    } else if (counting && !asks_chart && phrase == 0 &&
               counts_distinct_at(q, m.begin, count_phrases_, distinct_words_)) {
      add_unique(requirements.metrics, column.name);  // "how many distinct products": one count, or one per key
    } else if (phrase_ending_at(q.stems, m.begin, metric_phrases_) > 0 && phrase == 0) {
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
  for (const std::string& id : id_keys) {  // "the 5 departments with the highest average salary": per DEPARTMENT_ID
    std::erase(requirements.metrics, id);
    add_unique(requirements.group_by, id);
    grouped_by_phrase.insert(id);
  }
  if (!row_counts.empty() && requirements.group_by.empty() && !requirements.time.column) {
    requirements.group_by = std::exchange(requirements.metrics, {});  // "which advisors have more than 3 students": per advisor
  }
  const GroupFilterWords group_words{group_aggregations_, group_aggregations_after_, group_determiners_};
  claims.claim(ground_comparisons(q, profile, mentions, comparisons_, comparison_suffixes_, period_words_.before,
                                  group_words, row_counts, requirements),
               Claim::kComparison);
  claims.claim(row_counts, Claim::kRowCount);
  group_by_named_id(ids, profile, requirements);
  if (keeps_groups(requirements, profile))  // "countries whose totals add up to more than 150": keys, not a listed pair
    grouped_by_phrase.insert(requirements.group_by.begin(), requirements.group_by.end());
  core::Result<std::set<std::size_t>> named_periods =
      ground_calendar_periods(q, profile, month_words_, period_words_, period_links_, claims.taken(extraction::kCompared),
                              requirements);
  if (!named_periods) return named_periods.error();
  claims.claim(*named_periods, Claim::kCalendarPeriod);
  claims.claim(ground_years(q, profile, mentions, year_links_, period_words_, claims.taken(extraction::kCompared),
                            requirements),
               Claim::kYear);
  claims.claim(ground_row_comparisons(q, profile, comparisons_, RowComparisonWords{rows, row_links_, row_comparatives_},
                                      claims.taken(extraction::kCompared), requirements),
               Claim::kRowComparison);
  std::optional<std::string> period_column;  // the dates a relative period keeps; none beside a named year
  if (period) period_column = keep_period(*period, *dated_column(profile, requirements.time.column), requirements);
  claims.claim(ranking_count_tokens(q, mentions, ranking), Claim::kRankingCount);  // "top 5" filters no id 5
  const extraction::Claims counted_or_compared = extraction::kCompared | Claim::kRankingCount;
  claims.claim(ground_values(q, profile, mentions, stopwords_, value_words_, claims.taken(counted_or_compared), requirements),
               Claim::kValue);
  if (core::Result<void> named = ground_unknown_values(question, q, mentions, value_words_,
                                                       claims.taken(counted_or_compared | Claim::kValue), requirements);
      !named)
    return named.error();
  if (const std::vector<std::string> unmet = unmet_comparisons(q, comparisons_, claims.taken(counted_or_compared));
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
  for (const Constraint& filter :
       find_text_filters(question, q.tokens, q.stems, text_spans(mentions), text_filters_)) {
    add_unique(requirements.constraints, filter);
  }
  for (const Constraint& filter :
       find_quoted_filters(question, q.tokens, q.stems, text_spans(mentions), value_words_.negations)) {
    const bool stated = std::any_of(
        requirements.constraints.begin(), requirements.constraints.end(), [&](const Constraint& c) {
          return c.type == "filter" && c.value == filter.value;  // the value was already found in a column
        });
    if (!stated) requirements.constraints.push_back(filter);
  }
  ground_flags(mentions, grouped_by_phrase, value_words_.true_flags, requirements);
  const std::vector<std::string> compared_values = settle_several_values(q, profile, value_words_.list_words, requirements);
  const std::vector<QuotedSpan> quotes = quoted_spans(question, q.tokens);
  // Words of a quoted value name no column; side by side, the words of one column name it once
  // ("membership level" for Level_of_membership). `mentions` are in question order.
  const auto named_once = [&](const std::string& name) {
    std::size_t names = 0;
    std::optional<std::size_t> last_end;
    for (const Mention& m : mentions) {
      const bool quoted = std::any_of(quotes.begin(), quotes.end(), [&](const QuotedSpan& quote) {
        return m.begin >= quote.begin && m.end <= quote.end;
      });
      if (m.column->name != name || quoted) continue;
      if (last_end != m.begin) ++names;
      last_end = m.end;
    }
    return names <= 1;
  };
  const bool grained = std::any_of(grains_.begin(), grains_.end(),
                                   [&](const auto& grain) { return contains_phrase(q.stems, grain.second); });
  for (const Constraint& c : requirements.constraints) {  // "whose sex is F" filters; it does not group
    if (c.type == "filter" && !grouped_by_phrase.count(c.column) && named_once(c.column)) {
      std::erase(requirements.group_by, c.column);
      if (requirements.time.column == c.column && !grained)
        requirements.time.column.reset();  // "how many employees were hired in August 1987?": one count
    }
  }
  for (const std::string& column : compared_values) add_unique(requirements.group_by, column);
  const auto on_x_axis = std::find_if(mentions.begin(), mentions.end(), [&](const Mention& m) {
    return phrase_ending_at(q.stems, m.begin, x_axis_before_) > 0 ||
           phrase_starting_at(q.stems, m.end, x_axis_after_) > 0;
  });
  if (on_x_axis != mentions.end()) std::erase(counted, on_x_axis->column->name);  // a named axis stays a key
  drop_counted_keys(counted, grouped_by_phrase, profile, requirements);
  if (on_x_axis != mentions.end()) {  // "the x-axis is winery", "age on the x axis": that column first
    for (std::vector<std::string>* list : {&requirements.group_by, &requirements.metrics}) {
      auto it = std::find(list->begin(), list->end(), on_x_axis->column->name);
      if (it != list->end()) std::rotate(list->begin(), it, it + 1);
    }
  }
  if (time_named && !requirements.group_by.empty() &&
      std::find(counted.begin(), counted.end(), *requirements.time.column) != counted.end()) {
    requirements.time.column.reset();  // "the number of invoices by state": invoice_date is counted
  }
  // Words that name a column say nothing else: a column called "rank" asks for no ranking.
  Stems words = q.stems;
  for (const Mention& m : mentions) {
    for (std::size_t at = m.begin; at < m.end; ++at) words[at].clear();
  }
  for (std::size_t at = sort ? sort->begin : 0; sort && at < sort->end; ++at) words[at].clear();
  for (std::size_t at : claims.taken(extraction::kCompared)) words[at].clear();  // "at least 2 goals" ranks nothing
  for (std::size_t i = 1; i < mentions.size(); ++i) {  // "name versus age" compares nothing
    const std::size_t gap = mentions[i].begin - mentions[i - 1].end;
    if (gap > 0 && phrase_ending_at(q.stems, mentions[i].begin, axis_joiners_) == gap) {
      for (std::size_t at = mentions[i - 1].end; at < mentions[i].begin; ++at) words[at].clear();
    }
  }

  for (const auto& [grain, phrases] : grains_) {
    if (contains_phrase(words, phrases)) requirements.time.grain = grain;
  }
  std::vector<std::string> listed;  // columns named outside grouping phrases, in order, filters aside
  for (const std::string& name : ungrouped) {
    const bool filtered = std::any_of(requirements.constraints.begin(), requirements.constraints.end(),
                                      [&](const Constraint& c) { return c.column == name; });
    if ((!filtered || !named_once(name)) && !grouped_by_phrase.count(name))
      listed.push_back(name);  // "names ... in their names"
  }
  const bool grouped = !grouped_by_phrase.empty() || counting;
  if (time_named && requirements.time.column && requirements.time.grain == "unknown" &&
      !contains_phrase(words, bucket_phrases_)) {
    settle_named_time(grouped_by_phrase.count(*requirements.time.column) > 0 || counting, listed,
                      requirements);
  }
  if (!grouped) draw_listed_pair(listed, profile, requirements);
  if (!time_named && contains_phrase(words, bucket_phrases_)) bucket_named_years(mentions, requirements);
  const bool asks_time = requirements.time.grain != "unknown" || contains_phrase(words, time_phrases_);
  if (period_column && !asks_time && !grouped_by_phrase.count(*period_column)) {  // "how many dogs arrived this year?"
    std::erase(requirements.group_by, *period_column);
    if (requirements.time.column == period_column) requirements.time.column.reset();
    const data::ColumnProfile* measure =
        requirements.metrics.size() == 1 ? profile.find(requirements.metrics.front()) : nullptr;
    if (requirements.group_by.empty() && !requirements.time.column && measure != nullptr &&
        measure->role == data::ColumnRole::kMeasure)
      add_unique(requirements.analysis, std::string("total"));  // "what was revenue year to date?": one total
  }
  const bool keyed_by_years = std::any_of(requirements.group_by.begin(), requirements.group_by.end(), [&](const std::string& key) {
    const data::ColumnProfile* column = profile.find(key);
    return column != nullptr && integer_years(*column).has_value();  // "the trend of games by season": Season's years are the time
  });
  if (asks_time && !requirements.time.column && !time_named && !keyed_by_years) {
    for (const data::ColumnProfile& column : profile.columns) {
      if (column.role == data::ColumnRole::kTemporal) {
        requirements.time.column = column.name;
        break;
      }
    }
  }
  for (const Mention& m : mentions) {  // "the highest latitude for each city": each city's maximum, no ranking
    const bool metric = std::find(requirements.metrics.begin(), requirements.metrics.end(), m.column->name) !=
                        requirements.metrics.end();
    if (grouped_by_phrase.empty() || !metric) continue;
    const std::size_t n = phrase_ending_at(q.stems, m.begin, superlatives_);
    for (std::size_t at = m.begin - n; at < m.begin; ++at) words[at].clear();
  }
  for (const auto& [label, phrases] : analysis_) {
    if (contains_phrase(words, phrases)) add_unique(requirements.analysis, label);
  }
  const bool correlates = std::find(requirements.analysis.begin(), requirements.analysis.end(),
                                    "correlation") != requirements.analysis.end();
  const auto only_filtered =
      [&](const std::string& name) {  // a column named once, in a filter, is no axis or metric
        return named_once(name) &&
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
  const bool per_row = std::all_of(requirements.analysis.begin(), requirements.analysis.end(), [&](const std::string& a) {
    return std::find(row_labels_.with_analysis.begin(), row_labels_.with_analysis.end(), a) !=
           row_labels_.with_analysis.end();
  });  // every metric phrase ("the average of") holds an aggregation word
  const bool one_measure = per_row && !contains_phrase(q.stems, aggregation_words_) && !requirements.time.column &&
                           requirements.metrics.size() == 1;  // drawn per row, unless grouped
  if (one_measure && !grouped && requirements.group_by.empty()) label_rows(profile, row_labels_.words, requirements);
  if (one_measure && !counting && requirements.group_by.size() == 1) draw_per_unique_key(profile, requirements);
  if (requirements.group_by.size() >= compare_when_grouped_by_)
    add_unique(requirements.analysis, std::string("compare"));
  clear_table_references(q, words);
  for (const auto& [label, phrases] : outputs_) {
    if (contains_phrase(words, phrases)) add_unique(requirements.outputs, label);
  }
  // Words outside column names ("dock count" names a column; it asks for no count).
  const bool asks_amount = contains_phrase(words, count_phrases_) || contains_phrase(words, aggregation_words_);
  const bool keyless = requirements.group_by.empty() && !requirements.time.column;
  const bool totalled = std::find(requirements.analysis.begin(), requirements.analysis.end(), "total") !=
                        requirements.analysis.end();
  const bool one_number = keyless && requirements.metrics.size() <= 1 && (asks_amount || totalled);  // "how many dogs were abandoned?"
  const bool rows_only = keyless && requirements.metrics.empty() && !asks_amount &&
                         requirements.analysis.empty();  // "list all orders in the Online channel"
  if (requirements.outputs.empty() && (one_number || rows_only)) {
    requirements.outputs = {"table"};  // no chart to draw
  } else if (requirements.outputs.empty()) {
    requirements.outputs = default_outputs_;
  }
  add_ranking(q, words, mentions, ranking, counting, profile, requirements);
  // Keep the contract's order of labels, so the same question gives the same bytes.
  std::vector<std::string> ordered;
  for (const auto& [label, unused] : analysis_) {
    if (std::find(requirements.analysis.begin(), requirements.analysis.end(), label) !=
        requirements.analysis.end()) {
      ordered.push_back(label);
    }
  }
  requirements.analysis = std::move(ordered);

  if (sort) add_ranked_sort(*sort, words, ranking, mentions, requirements);

  std::optional<Stems> row_nouns;  // any id's thing names the rows counted; read by at most two checks below
  const auto counted_rows = [&]() -> const Stems& {
    if (!row_nouns) row_nouns = row_words(q, profile, row_nouns_, false);
    return *row_nouns;
  };
  if (requirements.metrics.empty() && !counting && (!requirements.group_by.empty() || requirements.time.column)) {
    // "total profit per channel" with no profit column: counting its orders would answer something else
    std::vector<const Phrases*> anchors{&group_phrases_, &time_phrases_, &bucket_phrases_};
    for (const auto& [grain, phrases] : grains_) anchors.push_back(&phrases);
    std::vector<const Phrases*> known{&aggregation_words_, &count_phrases_};
    for (const auto* labelled : {&analysis_, &outputs_}) {
      for (const auto& [label, phrases] : *labelled) known.push_back(&phrases);
    }
    for (const QuotedSpan& quote : quotes) {  // a quoted value names no quantity
      for (std::size_t at = quote.begin; at < quote.end; ++at) claims.claim(at, Claim::kQuoted);
    }
    const std::vector<std::string> asked =
        unheld_quantity(q, mentions, claims.taken(counted_or_compared | Claim::kValue | Claim::kQuoted), counted_rows(),
                        stopwords_, anchors, known);
    if (!asked.empty()) return unheld_quantity_error(profile, asked);
  }
  if (mentions.empty() && requirements.constraints.empty() && requirements.group_by.empty() &&
      !requirements.time.column && !(counting && counts_only_rows(q, counted_rows(), stopwords_, count_phrases_))) {
    // "orders per weekday" asks time; "male and female staff" compares sexes; "how many orders are there?" counts rows
    std::vector<std::string> unknown, columns;
    for (std::size_t at = 0; at < q.tokens.size(); ++at) {  // blanked words (a sort clause, a period) were understood
      if (!q.tokens[at].empty() && std::find(stopwords_.begin(), stopwords_.end(), q.stems[at]) == stopwords_.end()) {
        unknown.push_back(q.tokens[at]);
      }
    }
    for (const data::ColumnProfile& column : profile.columns) columns.push_back(column.name);
    return core::invalid_argument(
        "the question names no column of " + profile.table + "; words not understood: " +
            (unknown.empty() ? "(none)" : core::join(unknown)) + "; the columns are: " + core::join(columns),
        profile.table);
  }
  group_asked_category(q, mentions, ranking_key_askers_, requirements);
  if (std::optional<core::Error> ratio = ratio_of_measures(question, q, mentions, requirements)) return *ratio;
  return ExtractedRequirements{std::move(requirements), StrategyRecord{}};
}

}  // namespace planfirst::autoviz
