#include "pipelines/autoviz/understand/rule_requirement_extractor.hpp"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/ascii_case.hpp"
#include "core/registry_yaml.hpp"
#include "core/stemmer.hpp"
#include "core/utf8.hpp"
#include "core/wordnet_synonyms.hpp"
#include "pipelines/autoviz/understand/extraction/column_pass.hpp"
#include "pipelines/autoviz/understand/extraction/comparison_pass.hpp"
#include "pipelines/autoviz/understand/extraction/findings.hpp"
#include "pipelines/autoviz/understand/extraction/label_pass.hpp"
#include "pipelines/autoviz/understand/extraction/period_pass.hpp"
#include "pipelines/autoviz/understand/extraction/question.hpp"
#include "pipelines/autoviz/understand/extraction/ranking_pass.hpp"
#include "pipelines/autoviz/understand/extraction/refusal_pass.hpp"
#include "pipelines/autoviz/understand/extraction/role_pass.hpp"
#include "pipelines/autoviz/understand/extraction/token_claims.hpp"
#include "pipelines/autoviz/understand/extraction/value_pass.hpp"
#include "pipelines/autoviz/understand/phrase_match.hpp"

namespace planfirst::autoviz {
namespace {

using extraction::ColumnWords;
using extraction::CountWords;
using extraction::Findings;
using extraction::GroupFilterWords;
using extraction::Question;
using extraction::RankingWords;
using extraction::RefusalWords;
using extraction::RoleWords;
using extraction::stem_of;
using extraction::TokenClaims;

// number_scales are powers of ten up to 10^kMaxScalePower ("billion": 9).
constexpr int kMaxScalePower = 12;

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
        for (const Stems& phrase : phrases)
          rules.output_words_.insert(rules.output_words_.end(), phrase.begin(), phrase.end());
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
      core::Result<std::vector<std::string>> label_analysis =
          yaml_.names(*labels, "with_analysis", "row_labels");
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
      for (auto [key, target] : {std::pair{"named_desc", &rules.ranking_named_desc_},
                                 std::pair{"named_asc", &rules.ranking_named_asc_}}) {
        core::Result<YAML::Node> named = yaml_.mapping(*ranking, key, "ranking_words");
        if (!named) return named.error();
        if (auto r = word_map(*named, "column word", stem_of, rules.synonyms_); !r) return r.error();
        for (const auto& entry : *named) target->push_back({stem_of(entry.first.as<std::string>())});
      }
      SortPhrases& s = rules.sort_;
      if (auto r = section(root, "sort",
                           {{"verbs", &s.verbs},
                            {"plain", &s.plain},
                            {"desc", &s.desc},
                            {"asc", &s.asc},
                            {"magnitude", &s.magnitude},
                            {"x_axis", &s.x_axis},
                            {"y_axis", &s.y_axis},
                            {"noun_markers", &s.noun_markers},
                            {"objects", &s.objects}});
          !r) {
        return r.error();
      }
      RelativePeriodPhrases& p = rules.relative_periods_;
      core::Result<YAML::Node> periods = section(root, "relative_periods",
                                                 {{"current", &p.current},
                                                  {"previous", &p.previous},
                                                  {"trailing", &p.trailing},
                                                  {"to_date", &p.to_date},
                                                  {"part_of", &p.part_of},
                                                  {"not_before", &p.not_before},
                                                  {"compare_words", &p.compare_words}});
      if (!periods) return periods.error();
      if (auto r = labelled(*periods, "units", p.units); !r) return r.error();
      TextFilterPhrases& t = rules.text_filters_;
      if (auto r = section(root, "text_filters",
                           {{"verbs", &t.verbs},
                            {"markers", &t.markers},
                            {"negations", &t.negations},
                            {"links", &t.links},
                            {"holders", &t.holders},
                            {"owners", &t.owners}});
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
      if (auto r = word_map(*comparatives, "column word", stem_of, rules.row_comparatives_); !r)
        return r.error();
      if (auto r = labelled(root, "comparisons", rules.comparisons_); !r) return r.error();
      if (auto r = labelled(root, "comparison_suffixes", rules.comparison_suffixes_); !r) return r.error();
      core::Result<YAML::Node> group_filters = yaml_.mapping(root, "group_filters", "rules");
      if (!group_filters) return group_filters.error();
      if (auto r = labelled(*group_filters, "aggregations", rules.group_aggregations_); !r) return r.error();
      if (auto r = labelled(*group_filters, "aggregations_after", rules.group_aggregations_after_); !r)
        return r.error();
      if (auto r = labelled(*group_filters, "verbs", rules.group_verbs_); !r) return r.error();
      if (auto r = stem_fields(*group_filters, "group_filters", {{"determiners", &rules.group_determiners_}});
          !r)
        return r.error();
      if (auto r = phrase_fields(*group_filters, {{"exactly", &rules.group_exactly_}}); !r) return r.error();
      core::Result<YAML::Node> periods_compared = yaml_.mapping(root, "period_comparisons", "rules");
      if (!periods_compared) return periods_compared.error();
      PeriodWords& w = rules.period_words_;
      if (auto r = labelled(*periods_compared, "before", w.before); !r) return r.error();
      if (auto r = labelled(*periods_compared, "after", w.after); !r) return r.error();
      if (auto r = phrase_fields(
              *periods_compared,
              {{"ranges", &w.ranges}, {"joiners", &w.joiners}, {"fillers", &w.fillers}, {"lists", &w.lists}});
          !r) {
        return r.error();
      }
      core::Result<YAML::Node> scales = yaml_.mapping(root, "number_scales", "rules");
      if (!scales) return scales.error();
      for (const auto& entry : *scales) {
        const int power = entry.second.as<int>();
        if (power < 1 || power > kMaxScalePower)
          return core::invalid_argument("number_scales: a power of ten from 1 to 12", "number_scales");
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
  core::Result<YAML::Node> section(const YAML::Node& root, const char* key,
                                   std::initializer_list<PhraseField> fields) const {
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
    if (auto r = stem_fields(values, "values",
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

core::Result<ExtractedRequirements> RuleRequirementExtractor::extract(
    std::string_view question, const data::SchemaProfile& profile) const {
  if (const std::string bad = core::invalid_utf8_message(question); !bad.empty())  // its words reach JSON
    return core::invalid_argument("the question is " + bad, "question");
  core::Stemmer stemmer;  // not thread-safe: one per question
  Question q = extraction::read_question(question, profile, number_scales_, wordnet_ != nullptr, stemmer);
  TokenClaims claims;  // which tokens each pass took, and why
  Findings found;      // what the passes found, read by the passes after them
  const RankingWords ranking{ranking_desc_,  ranking_asc_,   ranking_named_desc_,     ranking_named_asc_,
                             number_words_,  comparisons_,   relative_periods_.units, ranking_counts_,
                             group_phrases_, group_fillers_, ranking_orders_};
  found.sort = extraction::claim_sort_clause(question, sort_, group_phrases_, bucket_phrases_, q, claims);
  found.period = extraction::claim_relative_period(profile, relative_periods_, q, claims);
  extraction::ground_mentions(q, profile,
                              ColumnWords{synonyms_, stopwords_, output_words_, name_joiners_, name_units_,
                                          group_phrases_, ranking_key_links_, ranking_key_askers_},
                              ranking, value_words_, wordnet_.get(), stemmer, found);
  extraction::claim_row_counts(q, profile, row_nouns_,
                               CountWords{comparisons_, comparison_suffixes_, group_exactly_, number_words_},
                               claims, found);
  extraction::assign_roles(q,
                           RoleWords{group_phrases_, count_phrases_, count_group_phrases_, group_fillers_,
                                     metric_phrases_, distinct_words_, outputs_},
                           found);
  extraction::claim_comparisons(
      q, profile, comparisons_, comparison_suffixes_, period_words_.before,
      GroupFilterWords{group_aggregations_, group_aggregations_after_, group_determiners_, group_verbs_},
      claims, found);
  extraction::key_kept_groups(profile, found);
  if (core::Result<void> periods = extraction::claim_named_periods(q, profile, month_words_, period_words_,
                                                                   period_links_, year_links_, claims, found);
      !periods)
    return periods.error();
  extraction::claim_row_comparisons(q, profile, comparisons_, row_links_, row_comparatives_, claims, found);
  extraction::keep_relative_period(profile, found);
  extraction::claim_ranking_counts(q, ranking, claims, found);
  if (core::Result<void> values =
          extraction::claim_values(question, q, profile, stopwords_, value_words_, claims, found);
      !values)
    return values.error();
  if (core::Result<void> met = extraction::refuse_unmet_comparisons(q, profile, comparisons_, claims); !met)
    return met.error();
  extraction::add_text_filters(question, q, text_filters_, value_words_.negations, found);
  const std::vector<std::string> compared_values = extraction::settle_values(q, profile, value_words_, found);
  extraction::settle_filtered_roles(question, q, profile, grains_, x_axis_before_, x_axis_after_,
                                    compared_values, found);
  extraction::clear_understood_words(q, axis_joiners_, claims, found);
  extraction::settle_listed_roles(profile, grains_, bucket_phrases_, time_phrases_, found);
  extraction::split_named_years(found);
  extraction::clear_superlatives(q, superlatives_, found);
  extraction::add_analysis(analysis_, found);
  extraction::settle_metrics(q, profile, aggregation_words_, row_labels_.words, row_labels_.with_analysis,
                             compare_when_grouped_by_, found);
  extraction::add_outputs(q, outputs_, default_outputs_, count_phrases_, aggregation_words_, found);
  extraction::rank(q, profile, ranking, found);
  extraction::order_analysis(analysis_, found.requirements);
  if (core::Result<void> named = extraction::refuse_unnamed(
          q, profile,
          RefusalWords{row_nouns_, stopwords_, count_phrases_, aggregation_words_, group_phrases_,
                       time_phrases_, bucket_phrases_, grains_, analysis_, outputs_},
          claims, found);
      !named)
    return named.error();
  extraction::group_asked_category(q, found.mentions, ranking_key_askers_, found.requirements);
  if (std::optional<core::Error> ratio =
          extraction::ratio_of_measures(question, q, found.mentions, found.requirements))
    return *ratio;
  return ExtractedRequirements{std::move(found.requirements), StrategyRecord{}};
}

}  // namespace planfirst::autoviz
