#include "pipelines/autoviz/rule_requirement_extractor.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <set>

#include "core/similarity.hpp"
#include "core/tokenizer.hpp"
#include "pipelines/autoviz/phrase_match.hpp"
#include "pipelines/autoviz/registry_yaml.hpp"
#include "pipelines/autoviz/row_count.hpp"

namespace planfirst::autoviz {
namespace {

template <typename T>
void add_unique(std::vector<T>& list, const T& value) {
  if (std::find(list.begin(), list.end(), value) == list.end()) list.push_back(value);
}

struct Mention {
  std::size_t begin = 0;
  std::size_t end = 0;  // one past the last token
  const data::ColumnProfile* column = nullptr;
};

struct Question {
  std::vector<std::string> tokens;
  Stems stems;
};

}  // namespace

// Reads requirement_rules.yaml into the extractor's phrase tables.
class RequirementRulesReader {
 public:
  explicit RequirementRulesReader(const RegistryYaml& yaml) : yaml_(yaml) {}

  core::Result<RuleRequirementExtractor> read() const {
    return yaml_.guarded<RuleRequirementExtractor>([this]() -> core::Result<RuleRequirementExtractor> {
      RuleRequirementExtractor rules;
      const YAML::Node& root = yaml_.root();
      if (auto r = labelled(root, "analysis", rules.analysis_); !r) return r.error();
      if (auto r = labelled(root, "outputs", rules.outputs_); !r) return r.error();
      if (auto r = labelled(root, "grains", rules.grains_); !r) return r.error();
      core::Result<std::vector<std::string>> defaults = yaml_.names(root, "default_outputs", "rules");
      if (!defaults) return defaults.error();
      rules.default_outputs_ = *defaults;
      rules.compare_when_grouped_by_ = root["compare_when_grouped_by"].as<std::size_t>(2);
      for (auto [key, target] : {std::pair{"group_phrases", &rules.group_phrases_},
                                 std::pair{"count_phrases", &rules.count_phrases_},
                                 std::pair{"time_phrases", &rules.time_phrases_}}) {
        core::Result<RuleRequirementExtractor::Phrases> phrases = phrase_list(root, key);
        if (!phrases) return phrases.error();
        *target = std::move(*phrases);
      }
      core::Result<YAML::Node> ranking = yaml_.mapping(root, "ranking_words", "rules");
      if (!ranking) return ranking.error();
      core::Result<RuleRequirementExtractor::Phrases> desc = phrase_list(*ranking, "desc");
      core::Result<RuleRequirementExtractor::Phrases> asc = phrase_list(*ranking, "asc");
      if (!desc) return desc.error();
      if (!asc) return asc.error();
      rules.ranking_desc_ = std::move(*desc);
      rules.ranking_asc_ = std::move(*asc);
      core::Result<YAML::Node> sort = yaml_.mapping(root, "sort", "rules");
      if (!sort) return sort.error();
      for (auto [key, target] : {std::pair{"verbs", &rules.sort_.verbs}, std::pair{"plain", &rules.sort_.plain},
                                 std::pair{"desc", &rules.sort_.desc}, std::pair{"asc", &rules.sort_.asc},
                                 std::pair{"x_axis", &rules.sort_.x_axis}, std::pair{"y_axis", &rules.sort_.y_axis}}) {
        core::Result<RuleRequirementExtractor::Phrases> phrases = phrase_list(*sort, key);
        if (!phrases) return phrases.error();
        *target = std::move(*phrases);
      }
      core::Result<YAML::Node> synonyms = yaml_.mapping(root, "synonyms", "rules");
      if (!synonyms) return synonyms.error();
      for (const auto& entry : *synonyms) {
        core::Result<std::vector<std::string>> words = yaml_.names_at(entry.second, "synonym");
        if (!words) return words.error();
        for (const std::string& word : *words) {
          rules.synonyms_[stems_of({entry.first.as<std::string>()}).front()].push_back(stems_of({word}).front());
        }
      }
      if (auto r = labelled(root, "comparisons", rules.comparisons_); !r) return r.error();
      core::Result<std::vector<std::string>> stopwords = yaml_.names(root, "stopwords", "rules");
      if (!stopwords) return stopwords.error();
      rules.stopwords_ = stems_of(*stopwords);
      return rules;
    });
  }

 private:
  core::Result<RuleRequirementExtractor::Phrases> phrase_list(const YAML::Node& parent, const char* key) const {
    core::Result<std::vector<std::string>> names = yaml_.names(parent, key, "rules");
    if (!names) return names.error();
    return phrases_of(*names);
  }

  core::Result<void> labelled(const YAML::Node& root, const char* key,
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

  const RegistryYaml& yaml_;
};

core::Result<RuleRequirementExtractor> RuleRequirementExtractor::load(const core::AssetStore& assets) {
  core::Result<RegistryYaml> yaml = RegistryYaml::load(assets, kPath);
  if (!yaml) return yaml.error();
  return RequirementRulesReader(*yaml).read();
}

namespace {

// How well question word `at` names column word `word` (with stem `stem`): exact or stemmed,
// through a synonym, or by Jaro-Winkler for words of four letters or more.
bool names_word(const Question& q, std::size_t at, const std::string& word, const std::string& stem,
                const std::map<std::string, std::vector<std::string>>& synonyms) {
  if (q.tokens[at] == word || q.stems[at] == stem) return true;
  if (auto it = synonyms.find(q.stems[at]); it != synonyms.end()) {
    if (std::find(it->second.begin(), it->second.end(), stem) != it->second.end()) return true;
  }
  return word.size() >= 4 && q.tokens[at].size() >= 4 && core::jaro_winkler(q.tokens[at], word) >= 0.92;
}

// Every column named in the question, longest spans first, without overlaps; then in question order.
std::vector<Mention> ground_columns(const Question& q, const data::SchemaProfile& profile,
                                    const std::map<std::string, std::vector<std::string>>& synonyms,
                                    const Stems& stopwords) {
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
    Stems stems = stems_of(words);
    for (const std::string& stem : std::set<std::string>(stems.begin(), stems.end())) ++word_owners[stem];
    for (std::size_t at = 0; at + words.size() <= q.tokens.size(); ++at) {
      bool all = !words.empty();
      for (std::size_t j = 0; all && j < words.size(); ++j) all = names_word(q, at + j, words[j], stems[j], synonyms);
      if (all) candidates.push_back({at, at + words.size(), &column});
    }
    names.push_back({&column, std::move(words), std::move(stems)});
  }
  // A single distinctive word of a multi-word column ("category" for product_category).
  for (const auto& [column, words, stems] : names) {
    if (words.size() < 2) continue;
    if (stems.back() == "id") continue;  // "singers" names the rows, not singer_id; "singer id" does
    for (std::size_t at = 0; at < q.stems.size(); ++at) {
      for (const std::string& stem : stems) {
        const bool distinctive = word_owners[stem] == 1 &&
                                 std::find(stopwords.begin(), stopwords.end(), stem) == stopwords.end();
        if (distinctive && q.stems[at] == stem) candidates.push_back({at, at + 1, column});
      }
    }
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Mention& a, const Mention& b) { return a.end - a.begin > b.end - b.begin; });
  std::vector<Mention> chosen;
  std::vector<bool> taken(q.tokens.size(), false);
  for (const Mention& m : candidates) {
    if (std::any_of(taken.begin() + static_cast<std::ptrdiff_t>(m.begin), taken.begin() + static_cast<std::ptrdiff_t>(m.end),
                    [](bool t) { return t; })) {
      continue;
    }
    std::fill(taken.begin() + static_cast<std::ptrdiff_t>(m.begin), taken.begin() + static_cast<std::ptrdiff_t>(m.end), true);
    chosen.push_back(m);
  }
  std::sort(chosen.begin(), chosen.end(), [](const Mention& a, const Mention& b) { return a.begin < b.begin; });
  return chosen;
}

bool is_connector(const std::string& token) { return token == "and" || token == "or" || token == "the" || token == "its"; }

// Filters for categorical values the question names verbatim ("in the West region").
void ground_values(const Question& q, const data::SchemaProfile& profile, const std::vector<Mention>& mentions,
                   const Stems& stopwords, Requirements& requirements) {
  for (const data::ColumnProfile& column : profile.columns) {
    if (column.role != data::ColumnRole::kCategorical) continue;
    for (const std::string& value : column.samples) {
      const std::vector<std::string> words = core::tokenize(value);
      const bool only_stopwords = std::all_of(words.begin(), words.end(), [&](const std::string& word) {
        return std::find(stopwords.begin(), stopwords.end(), word) != stopwords.end();
      });
      if (only_stopwords) continue;  // the value "A" is not the article "a"
      for (std::size_t at = 0; !words.empty() && at + words.size() <= q.tokens.size(); ++at) {
        const bool inside_mention = std::any_of(mentions.begin(), mentions.end(),
                                                [&](const Mention& m) { return at < m.end && at + words.size() > m.begin; });
        if (inside_mention || !std::equal(words.begin(), words.end(), q.tokens.begin() + static_cast<std::ptrdiff_t>(at))) {
          continue;
        }
        Constraint filter;
        filter.type = "filter";
        filter.column = column.name;
        filter.op = at > 0 && (q.tokens[at - 1] == "not" || q.tokens[at - 1] == "except") ? "!=" : "=";
        filter.value = ParamValue{{ParamScalar(value)}, false};
        add_unique(requirements.constraints, filter);
      }
    }
  }
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

// The filter on `column` that a comparison phrase ending at `end` and its number state
// ("lower than 50000", "between 10 and 20"); nothing without both.
std::optional<Constraint> comparison_at(const Question& q, std::size_t end, const std::string& column,
                                        const std::vector<std::pair<std::string, Phrases>>& comparisons) {
  for (const auto& [op, phrases] : comparisons) {
    if (phrase_ending_at(q.stems, end, phrases) == 0) continue;
    const std::optional<std::int64_t> first = number_after(q, end);
    if (!first) continue;
    if (op != "between") return Constraint{"filter", column, op, ParamValue{{*first}, false}, "", 0};
    const std::optional<std::int64_t> second = number_after(q, end + 2);
    if (second && end + 1 < q.tokens.size() && q.tokens[end + 1] == "and") {
      return Constraint{"filter", column, op, ParamValue{{*first, *second}, true}, "", 0};
    }
  }
  return std::nullopt;
}

// Filters for a measure compared with a number within three words after it ("salary lower than
// 50000", "price between 10 and 20").
void ground_comparisons(const Question& q, const std::vector<Mention>& mentions,
                        const std::vector<std::pair<std::string, Phrases>>& comparisons, Requirements& requirements) {
  for (const Mention& m : mentions) {
    if (m.column->role != data::ColumnRole::kMeasure) continue;
    for (std::size_t at = m.end; at < m.end + 3 && at < q.stems.size(); ++at) {
      if (std::optional<Constraint> filter = comparison_at(q, at + 1, m.column->name, comparisons)) {
        add_unique(requirements.constraints, *filter);
        break;
      }
    }
  }
}

// The sort constraint of `clause`: its axis resolved to a column (x: the first time or grouping
// column; y: the first metric, or "count" when the question counts rows), else a column named
// inside it. Nothing when a ranking already asked for a sort.
void add_sort(const SortClause& clause, const std::vector<Mention>& mentions, Requirements& requirements) {
  const bool sorted = std::any_of(requirements.constraints.begin(), requirements.constraints.end(),
                                  [](const Constraint& c) { return c.type == "sort"; });
  if (sorted) return;
  std::string x = requirements.time.column.value_or(requirements.group_by.empty() ? "" : requirements.group_by.front());
  std::string y = requirements.metrics.empty() ? std::string(kCountColumn) : requirements.metrics.front();
  if (x.empty()) x = requirements.metrics.empty() ? "" : requirements.metrics.front();
  std::string column = clause.axis == "y" ? y : x;
  if (clause.axis.empty()) {
    for (const Mention& m : mentions) {
      if (m.begin >= clause.begin && m.begin < clause.end) column = m.column->name;
    }
  }
  if (!column.empty()) requirements.constraints.push_back({"sort", column, "", ParamValue{}, clause.direction, 0});
}

}  // namespace

core::Result<ExtractedRequirements> RuleRequirementExtractor::extract(std::string_view question,
                                                                      const data::SchemaProfile& profile) const {
  Question q;
  q.tokens = core::tokenize(question);
  q.stems = stems_of(q.tokens);
  const std::optional<SortClause> sort = find_sort_clause(q.stems, sort_);
  if (sort && !sort->axis.empty()) {  // "by the y-axis from high to low" names no column
    for (std::size_t at = sort->begin; at < sort->end; ++at) q.tokens[at] = q.stems[at] = "";
  }
  const std::vector<Mention> mentions = ground_columns(q, profile, synonyms_, stopwords_);
  Requirements requirements;

  bool grouping = false;
  const bool counting = contains_phrase(q.stems, count_phrases_);
  std::vector<std::string> ungrouped;  // columns named outside a grouping phrase or after a bare "by", in order
  std::set<std::string> grouped_by_phrase;  // "how many": a number after "by" groups
  std::size_t previous_end = 0;
  for (const Mention& m : mentions) {
    const std::size_t phrase = phrase_ending_at(q.stems, m.begin, group_phrases_);
    bool continues = grouping && m.begin >= previous_end;
    for (std::size_t at = previous_end; continues && at < m.begin; ++at) continues = is_connector(q.tokens[at]);
    grouping = phrase > 0 || continues;
    previous_end = m.end;
    const data::ColumnProfile& column = *m.column;
    if (grouping) grouped_by_phrase.insert(column.name);
    const bool bare_by = m.begin > 0 && q.tokens[m.begin - 1] == "by" &&
                         (m.begin < 2 || (q.tokens[m.begin - 2] != "group" && q.tokens[m.begin - 2] != "grouped"));
    if ((!grouping || bare_by) && column.role != data::ColumnRole::kTemporal) add_unique(ungrouped, column.name);
    if (column.role == data::ColumnRole::kTemporal) {
      if (!requirements.time.column) requirements.time.column = column.name;
    } else if (column.role == data::ColumnRole::kMeasure &&
               (!grouping || (requirements.metrics.empty() && !counting && m.begin > 0 && q.tokens[m.begin - 1] == "by"))) {
      add_unique(requirements.metrics, column.name);  // "top 3 categories by units" ranks by units
    } else {
      add_unique(requirements.group_by, column.name);
    }
  }
  ground_values(q, profile, mentions, stopwords_, requirements);
  ground_comparisons(q, mentions, comparisons_, requirements);
  for (const Constraint& c : requirements.constraints) {  // "whose sex is F" filters; it does not group
    if (c.type == "filter" && !grouped_by_phrase.count(c.column)) std::erase(requirements.group_by, c.column);
  }
  // Words that name a column say nothing else: a column called "rank" asks for no ranking.
  Stems words = q.stems;
  for (const Mention& m : mentions) {
    for (std::size_t at = m.begin; at < m.end; ++at) words[at].clear();
  }
  for (std::size_t at = sort ? sort->begin : 0; sort && at < sort->end; ++at) words[at].clear();

  for (const auto& [grain, phrases] : grains_) {
    if (contains_phrase(words, phrases)) requirements.time.grain = grain;
  }
  const bool asks_time = requirements.time.grain != "unknown" || contains_phrase(words, time_phrases_);
  if (asks_time && !requirements.time.column) {
    for (const data::ColumnProfile& column : profile.columns) {
      if (column.role == data::ColumnRole::kTemporal) {
        requirements.time.column = column.name;
        break;
      }
    }
  }
  for (const auto& [label, phrases] : analysis_) {
    if (contains_phrase(words, phrases)) add_unique(requirements.analysis, label);
  }
  const bool correlates = std::find(requirements.analysis.begin(), requirements.analysis.end(), "correlation") !=
                          requirements.analysis.end();
  if (correlates && ungrouped.size() >= 2) {  // a relationship is between the columns it names, in order
    for (const std::string& name : ungrouped) {
      std::erase(requirements.group_by, name);
    }
    requirements.metrics = ungrouped;
  }
  if (requirements.group_by.size() >= compare_when_grouped_by_) add_unique(requirements.analysis, std::string("compare"));
  for (const auto& [label, phrases] : outputs_) {
    if (contains_phrase(words, phrases)) add_unique(requirements.outputs, label);
  }
  if (requirements.outputs.empty()) requirements.outputs = default_outputs_;
  // Keep the contract's order of labels, so the same question gives the same bytes.
  std::vector<std::string> ordered;
  for (const auto& [label, unused] : analysis_) {
    if (std::find(requirements.analysis.begin(), requirements.analysis.end(), label) != requirements.analysis.end()) {
      ordered.push_back(label);
    }
  }
  requirements.analysis = std::move(ordered);

  for (std::size_t at = 0; at < q.stems.size(); ++at) {
    const bool desc = phrase_ending_at(words, at + 1, ranking_desc_) > 0;
    const bool asc = phrase_ending_at(words, at + 1, ranking_asc_) > 0;
    const std::optional<std::int64_t> n = number_after(q, at + 1);
    if ((!desc && !asc) || !n || *n <= 0) continue;
    const std::string by = !requirements.metrics.empty() ? requirements.metrics.front()
                                                         : (requirements.group_by.empty() ? "" : requirements.group_by.front());
    if (!by.empty()) requirements.constraints.push_back({"sort", by, "", ParamValue{}, desc ? "desc" : "asc", 0});
    requirements.constraints.push_back({"limit", "", "", ParamValue{}, "", *n});
    break;
  }
  if (sort) add_sort(*sort, mentions, requirements);

  if (mentions.empty() && requirements.constraints.empty()) {
    std::string unknown, columns;
    for (std::size_t at = 0; at < q.tokens.size(); ++at) {
      if (std::find(stopwords_.begin(), stopwords_.end(), q.stems[at]) == stopwords_.end()) {
        unknown += (unknown.empty() ? "" : ", ") + q.tokens[at];
      }
    }
    for (const data::ColumnProfile& column : profile.columns) columns += (columns.empty() ? "" : ", ") + column.name;
    return core::invalid_argument("the question names no column of " + profile.table + "; words not understood: " +
                                      (unknown.empty() ? "(none)" : unknown) + "; the columns are: " + columns,
                                  profile.table);
  }
  return ExtractedRequirements{std::move(requirements), StrategyRecord{}};
}

}  // namespace planfirst::autoviz
