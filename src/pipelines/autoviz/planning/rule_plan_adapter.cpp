#include "pipelines/autoviz/planning/rule_plan_adapter.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <iterator>
#include <set>

#include "core/join.hpp"
#include "core/registry_yaml.hpp"
#include "pipelines/autoviz/group_filter.hpp"
#include "pipelines/autoviz/planning/periods_spanned.hpp"
#include "pipelines/autoviz/row_count.hpp"
#include "pipelines/autoviz/tools/period_change.hpp"
#include "pipelines/autoviz/understand/phrase_match.hpp"
#include "pipelines/autoviz/understand/rule_requirement_extractor.hpp"

namespace planfirst::autoviz {
namespace {

ParamValue text(std::string value) {
  return ParamValue{{ParamScalar(std::move(value))}, false};
}
ParamValue number(std::int64_t value) {
  return ParamValue{{ParamScalar(value)}, false};
}
ParamValue texts(const std::vector<std::string>& values) {
  ParamValue list{{}, true};
  for (const std::string& value : values) list.items.emplace_back(value);
  return list;
}

// Whether `column` holds numbers: a numeric column of the data, or the count an aggregate adds.
bool holds_numbers(const data::SchemaProfile& profile, const std::string& column) {
  const data::ColumnProfile* found = profile.find(column);
  return column == kCountColumn || (found != nullptr && data::is_numeric(found->type));
}

// Whether `column` may hold numbers: holds_numbers, or a column the profile does not know.
bool may_hold_numbers(const data::SchemaProfile& profile, const std::string& column) {
  return profile.find(column) == nullptr || holds_numbers(profile, column);
}

bool has(const std::vector<std::string>& list, std::string_view item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

core::Result<LabelledPhrases> labelled(const core::RegistryYaml& yaml, const char* key) {
  core::Result<YAML::Node> map = yaml.mapping(yaml.root(), key, "plan rules");
  if (!map) return map.error();
  LabelledPhrases out;
  for (const auto& entry : *map) {
    core::Result<std::vector<std::string>> names = yaml.names_at(entry.second, entry.first.as<std::string>());
    if (!names) return names.error();
    out.emplace_back(entry.first.as<std::string>(), phrases_of(*names));
  }
  return out;
}

// Builds the steps in order, numbering their ids by tool.
class PlanBuilder {
 public:
  explicit PlanBuilder(const std::vector<std::string>& allowed) : allowed_(allowed) {}

  void add(const std::string& tool, Params params, std::string rationale,
           std::vector<std::string> satisfies) {
    if (!allowed_.empty() && !has(allowed_, tool)) missing_.push_back(tool);
    const int n = ++count_[tool];
    plan_.steps.push_back({n == 1 ? tool : tool + "_" + std::to_string(n), tool, std::move(params),
                           std::move(rationale), std::move(satisfies)});
  }
  std::vector<std::string> tools() const {
    std::vector<std::string> names;
    for (const PlanStep& step : plan_.steps) names.push_back(step.tool);
    return names;
  }
  core::Result<Plan> finish() && {
    if (!missing_.empty()) {
      const std::string names = core::join(missing_);
      return core::failed_precondition("the plan needs tools the narrowing left out: " + names, names);
    }
    return std::move(plan_);
  }

 private:
  const std::vector<std::string>& allowed_;
  std::map<std::string, int> count_;
  std::vector<std::string> missing_;
  Plan plan_;
};

std::vector<std::string> split_names(const std::string& names) {  // "a, b" -> {"a", "b"}
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= names.size()) {
    const std::size_t comma = names.find(", ", start);
    const std::string name =
        names.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!name.empty()) out.push_back(name);
    if (comma == std::string::npos) break;
    start = comma + 2;
  }
  return out;
}

// The column a count of distinct values counts: the one the question names by the most words of
// its name ("unique sessions" -> session_id, "distinct visit dates" -> Visit_Date), ties to the one
// it names first; "" when it names none.
std::string counted_column(const data::SchemaProfile& profile, const Stems& question) {
  static const std::set<std::string, std::less<>> kGeneric = {"id",  "name",   "code", "no",
                                                              "num", "number", "key"};
  core::Stemmer stemmer;
  std::size_t most = 0, first = question.size();
  std::string chosen;
  for (const data::ColumnProfile& column : profile.columns) {
    std::size_t named = 0, at = question.size();
    for (const std::string& word : stems_of(column_words(column.name), stemmer)) {
      const auto found = std::find(question.begin(), question.end(), word);
      if (kGeneric.contains(word) || found == question.end()) continue;
      ++named;
      at = std::min(at, static_cast<std::size_t>(found - question.begin()));
    }
    if (named > most || (named == most && named > 0 && at < first)) {
      most = named;
      first = at;
      chosen = column.name;
    }
  }
  return chosen;
}

// Whether the profile reads `column` as a measure (amounts, not codes or labels).
bool is_measure(const data::SchemaProfile& profile, const std::string& column) {
  const data::ColumnProfile* found = profile.find(column);
  return found != nullptr && found->role == data::ColumnRole::kMeasure;
}

// Whether some value of `column` stands in more than one row (a category, not a row label).
bool repeats(const data::SchemaProfile& profile, const std::string& column) {
  const data::ColumnProfile* found = profile.find(column);
  return found != nullptr && profile.repeats(*found);
}

// "the average", "the maximum": the aggregation as a question names it.
std::string func_name(const std::string& func) {
  if (func == "avg") return "the average";
  if (func == "min") return "the minimum";
  if (func == "max") return "the maximum";
  if (func == "stddev") return "the standard deviation";
  return "the " + func;
}

// The measure columns of `profile`, comma-separated; "(none)" when it has none.
std::string measure_names(const data::SchemaProfile& profile) {
  std::vector<std::string> names;
  for (const data::ColumnProfile& column : profile.columns) {
    if (column.role == data::ColumnRole::kMeasure) names.push_back(column.name);
  }
  return names.empty() ? std::string("(none)") : core::join(names);
}

// The stemmed words of the names of `columns` ("product_category" -> product, categori).
std::set<std::string> stems_of_columns(const std::vector<std::string>& columns) {
  core::Stemmer stemmer;
  std::set<std::string> stems;
  for (const std::string& column : columns) {
    const Stems words = stems_of(column_words(column), stemmer);
    stems.insert(words.begin(), words.end());
  }
  return stems;
}

// The question's stems without the words of the columns it names: a column called "total" asks
// for no sum, one called "line" for no line chart.
Stems words_beside_columns(Stems stems, const Requirements& r) {
  std::vector<std::string> columns = r.metrics;
  columns.insert(columns.end(), r.group_by.begin(), r.group_by.end());
  if (r.time.column) columns.push_back(*r.time.column);
  for (const Constraint& c : r.constraints) {
    if (!c.column.empty()) columns.push_back(c.column);
  }
  const std::set<std::string> named = stems_of_columns(columns);
  for (std::string& stem : stems) {
    if (named.count(stem)) stem.clear();
  }
  return stems;
}

// The filters that name the part a share with no key is of ("the percentage of revenue from the
// West region", "the percentage of orders that are Online"): values kept in a column of categories.
// The share is taken over all the column's values (the chart shows them all), and the filter keeps
// the part for the table. A value found in two columns ("Chardonnay" in grape and in name) names no
// one part: none.
std::vector<Constraint> share_parts(const Requirements& r, const data::SchemaProfile& profile) {
  std::vector<Constraint> parts;
  if (!has(r.analysis, "share") || !has(r.outputs, "table") || !r.group_by.empty() || r.time.column)
    return parts;
  for (const Constraint& c : r.constraints) {
    const data::ColumnProfile* column = c.type == "filter" && c.op == "=" ? profile.find(c.column) : nullptr;
    if (column == nullptr || column->role != data::ColumnRole::kCategorical || has(r.metrics, c.column))
      continue;
    if (std::any_of(parts.begin(), parts.end(),
                    [&](const Constraint& part) { return part.value == c.value; }))
      return {};
    parts.push_back(c);
  }
  return parts;
}

// Whether the requirements rank keys ("the region with the highest revenue") or rows ("the 10
// largest orders") by a sort, rather than ask each group's or one column's maximum.
bool ranks_keys_or_rows(const Requirements& r, const data::SchemaProfile& profile) {
  return has(r.analysis, "ranking") &&
         std::any_of(r.constraints.begin(), r.constraints.end(), [&](const Constraint& c) {
           return c.type == "sort" && (c.column == kCountColumn || is_measure(profile, c.column));
         });  // "the largest order by revenue": the orders, largest first
}

// `stems` with every phrase of `phrases` cleared.
Stems without(Stems stems, const Phrases& phrases) {
  for (std::size_t at = 0; at < stems.size(); ++at) {
    for (std::size_t n = phrase_starting_at(stems, at, phrases); n > 0; --n) stems[at + n - 1].clear();
  }
  return stems;
}

// The first label one of whose phrases stands right before a word of a metric the question names:
// "the total number of transaction amount" sums the amount.
std::string label_before_metric(const Stems& stems, const std::vector<std::string>& metrics,
                                const LabelledPhrases& labelled) {
  const std::set<std::string> metric_words = stems_of_columns(metrics);
  for (const auto& [label, phrases] : labelled) {
    for (std::size_t at = 1; at < stems.size(); ++at) {
      const std::size_t length = metric_words.count(stems[at]) ? phrase_ending_at(stems, at, phrases) : 0;
      const bool apart = std::none_of(stems.begin() + static_cast<std::ptrdiff_t>(at - length),
                                      stems.begin() + static_cast<std::ptrdiff_t>(at),
                                      [&](const std::string& stem) { return metric_words.count(stem) > 0; });
      if (length > 0 && apart) return label;  // "the total number of deaths" names the column number_deaths
    }
  }
  return "";
}

}  // namespace

core::Result<RulePlanAdapter> RulePlanAdapter::load(const core::AssetStore& assets) {
  core::Result<RuleRequirementExtractor> requirement_rules = RuleRequirementExtractor::load(assets);
  if (!requirement_rules) return requirement_rules.error();
  return load(assets, requirement_rules->sort_magnitudes());
}

core::Result<RulePlanAdapter> RulePlanAdapter::load(const core::AssetStore& assets, Phrases sort_magnitudes) {
  core::Result<core::RegistryYaml> yaml = core::RegistryYaml::load(assets, kPath);
  if (!yaml) return yaml.error();
  return yaml->guarded<RulePlanAdapter>([&]() -> core::Result<RulePlanAdapter> {
    RulePlanAdapter adapter;
    core::Result<LabelledPhrases> charts = labelled(*yaml, "charts");
    if (!charts) return charts.error();
    core::Result<LabelledPhrases> aggregations = labelled(*yaml, "aggregations");
    if (!aggregations) return aggregations.error();
    adapter.charts_ = std::move(*charts);
    adapter.aggregations_ = std::move(*aggregations);
    core::Result<LabelledPhrases> cyclic = labelled(*yaml, "cyclic_grains");
    if (!cyclic) return cyclic.error();
    adapter.cyclic_grains_ = std::move(*cyclic);
    core::Result<LabelledPhrases> changes = labelled(*yaml, "period_changes");
    if (!changes) return changes.error();
    adapter.period_changes_ = std::move(*changes);
    core::Result<LabelledPhrases> measure = labelled(*yaml, "measure_aggregations");
    if (!measure) return measure.error();
    adapter.measure_aggregations_ = std::move(*measure);
    core::Result<LabelledPhrases> amounts = labelled(*yaml, "amount_aggregations");
    if (!amounts) return amounts.error();
    adapter.amount_aggregations_ = std::move(*amounts);
    core::Result<LabelledPhrases> measure_counts = labelled(*yaml, "measure_counts");
    if (!measure_counts) return measure_counts.error();
    adapter.measure_counts_ = std::move(*measure_counts);
    core::Result<std::vector<std::string>> count_words =
        yaml->names(yaml->root(), "count_column_words", "plan rules");
    if (!count_words) return count_words.error();
    adapter.count_column_words_ = std::move(*count_words);
    for (auto [key, target] : {std::pair{"ranking_superlatives", &adapter.ranking_superlatives_},
                               std::pair{"row_superlatives", &adapter.row_superlatives_}}) {
      core::Result<std::vector<std::string>> words = yaml->names(yaml->root(), key, "plan rules");
      if (!words) return words.error();
      *target = phrases_of(*words);
    }
    adapter.sort_magnitudes_ = std::move(sort_magnitudes);
    return adapter;
  });
}

core::Result<AdaptedPlan> RulePlanAdapter::adapt(const PlanRequest& request) const {
  core::Result<Plan> planned =
      plan(request.question, request.requirements, request.profile, request.allowed_tools);
  std::vector<std::string> discovered;
  if (!planned && planned.error().code == core::ErrorCode::kFailedPrecondition) {
    discovered = split_names(planned.error().where);
    std::vector<std::string> allowed = request.allowed_tools;
    allowed.insert(allowed.end(), discovered.begin(), discovered.end());
    planned = plan(request.question, request.requirements, request.profile, allowed);
  }
  if (!planned) return planned.error();
  return AdaptedPlan{std::move(*planned), std::nullopt, StrategyRecord{}, std::move(discovered)};
}

// The filters on each group's aggregate ("count(*)", "avg(price)"), with what they aggregate; a
// column of the data spelled so is filtered as a column.
std::vector<std::pair<Constraint, GroupFilterColumn>> group_filters(const Requirements& r,
                                                                    const data::SchemaProfile& profile) {
  std::vector<std::pair<Constraint, GroupFilterColumn>> filters;
  for (const Constraint& c : r.constraints) {
    if (std::optional<GroupFilterColumn> aggregate = group_filter_of(c, profile))
      filters.emplace_back(c, *aggregate);
  }
  return filters;
}

// Steps keeping the groups whose aggregate the question compares, after the aggregation of `func`
// over `metrics` (as the aggregate writes them); kInvalidArgument for a filter on another aggregate
// (one aggregation per plan) or with no aggregation.
core::Result<void> add_group_filters(const std::vector<std::pair<Constraint, GroupFilterColumn>>& filters,
                                     bool aggregated, const std::string& func,
                                     const std::vector<std::string>& metrics, PlanBuilder& steps) {
  for (const auto& [c, aggregate] : filters) {
    if (!aggregated) {
      return core::invalid_argument(
          "the question keeps the groups whose " + c.column +
              " it compares, but names no groups: say what they are (\"per <column>\")",
          "constraints");
    }
    const std::string output = group_filter_output(aggregate);
    const bool same_func =
        counts_rows(aggregate.func, aggregate.metric) ? func == "count" : aggregate.func == func;
    if (!same_func || std::find(metrics.begin(), metrics.end(), output) == metrics.end()) {
      const std::string planned =
          func_name(func) + " of " +
          (func == "count" && metrics.front() == kCountColumn ? std::string("rows") : metrics.front());
      return core::invalid_argument("the question keeps the groups whose " + c.column +
                                        " it compares, and asks for " + planned +
                                        "; a plan takes one aggregate: ask for " + c.column + " and for " +
                                        planned + " in separate questions",
                                    "constraints");
    }
    steps.add("filter_rows", {{"column", text(output)}, {"op", text(c.op)}, {"value", c.value}},
              "keep the groups whose " + c.column + " the question compares", {"constraints:filter"});
  }
  return core::ok();
}

core::Result<Plan> RulePlanAdapter::plan(std::string_view question, const Requirements& r,
                                         const data::SchemaProfile& profile,
                                         const std::vector<std::string>& allowed_tools) const {
  const Stems question_stems = stems_of_text(question);
  const Stems stems = words_beside_columns(question_stems, r);
  PlanBuilder steps(allowed_tools);
  const std::vector<Constraint> parts = share_parts(r, profile);
  const std::vector<std::pair<Constraint, GroupFilterColumn>> having = group_filters(r, profile);
  const auto kept_after = [&](const Constraint& c) {
    return std::any_of(having.begin(), having.end(), [&](const auto& filter) { return filter.first == c; });
  };
  const std::string cyclic = r.time.column ? first_label(stems, cyclic_grains_) : "";
  const std::string change = r.time.column && cyclic.empty() ? first_label(stems, period_changes_) : "";
  const data::ColumnProfile* dated = change.empty() ? nullptr : profile.find(*r.time.column);
  std::vector<Constraint> widened;  // "year over year in 2024": read 2023 too, keep 2024 after comparing
  for (const Constraint& c : r.constraints) {
    if (c.type != "filter" || std::find(parts.begin(), parts.end(), c) != parts.end() || kept_after(c))
      continue;
    const bool from = dated != nullptr && c.column == dated->name && (c.op == ">=" || c.op == ">");
    const std::optional<std::string> earlier = from ? period_before(*dated, change, c.value) : std::nullopt;
    if (earlier) widened.push_back(c);
    steps.add("filter_rows",
              {{"column", text(c.column)},
               {"op", text(earlier ? ">=" : c.op)},
               {"value", earlier ? text(*earlier) : c.value}},
              earlier ? "from the " + change + " before the first one named, to compare it with"
                      : "keep only the rows the question names",
              {"constraints:filter"});
  }
  std::vector<std::string> keys;
  if (r.time.column) {
    const std::string& column = *r.time.column;
    steps.add("parse_datetime", {{"column", text(column)}}, "read " + column + " as dates",
              {"time:" + column});
    const std::string grain = !cyclic.empty() ? cyclic : (r.time.grain == "unknown" ? "auto" : r.time.grain);
    std::vector<std::string> cites = {"time:" + column};
    if (has(r.analysis, "trend")) cites.push_back("analysis:trend");
    steps.add("time_bucket", {{"column", text(column)}, {"grain", text(grain)}},
              "one point per " + (grain == "auto" ? std::string("period chosen by the data's span") : grain),
              cites);
    keys.push_back(column);
  }
  for (const std::string& column : r.group_by) keys.push_back(column);
  for (const Constraint& part : parts) keys.push_back(part.column);  // the share is of all its values

  // The aggregation the question's words name; without one, rows are summed per group, or drawn
  // as they are when there is no group (one column against another) or when a scatter of two
  // measures splits its points by the group (one series per group).
  std::string func = label_before_metric(question_stems, r.metrics, measure_aggregations_);
  const bool amounts = std::any_of(r.metrics.begin(), r.metrics.end(),
                                   [&](const std::string& m) { return is_measure(profile, m); });
  const Stems ordered = without(stems, sort_magnitudes_);  // "sorted from highest to lowest" takes no maximum
  if (func.empty())
    func = first_label(ranks_keys_or_rows(r, profile) ? without(ordered, ranking_superlatives_) : ordered,
                       aggregations_);
  const std::string amount = amounts ? first_label(question_stems, amount_aggregations_) : "";
  if (func == "count" && !amount.empty()) func = amount;  // "how many hours", unless "the average" is asked
  if (func == "count") {  // "the total number of passengers": Total_Passengers is summed, not counted
    std::vector<std::string> measures;
    std::copy_if(r.metrics.begin(), r.metrics.end(), std::back_inserter(measures), [&](const std::string& m) {
      const std::vector<std::string> words = column_words(m);
      return is_measure(profile, m) && std::any_of(words.begin(), words.end(), [&](const std::string& word) {
               return has(count_column_words_, word);
             });
    });
    const std::string counted = label_before_metric(question_stems, measures, measure_counts_);
    if (!counted.empty() && keys.empty() && ranks_keys_or_rows(r, profile)) {
      func.clear();  // "the top 5 departments by number of employees": the rows, ranked by Num_Employees
    } else if (!counted.empty()) {
      func = counted;
    }
  }
  if (func.empty() && keys.empty() && has(r.analysis, "total") && r.metrics.size() == 1 &&
      holds_numbers(profile, r.metrics.front()))
    func = "sum";  // "what was revenue year to date?": the requirements ask one total
  const bool asked = !func.empty();
  if (func.empty() && !keys.empty() &&
      r.metrics.size() == 1) {  // "the max temperature by zip code": max_temperature_f's max
    const std::string named = first_label(stems_of(column_words(r.metrics.front())), aggregations_);
    if (named == "avg" || named == "median" || named == "min" || named == "max" || named == "stddev")
      func = named;
  }
  const auto counts = [&](const Stems& text) {  // the question also counts ("... and count them")
    return std::any_of(aggregations_.begin(), aggregations_.end(), [&](const auto& entry) {
      return entry.first == "count" && contains_phrase(text, entry.second);
    });
  };
  std::vector<std::string> metrics = r.metrics;
  const bool compares = has(r.analysis, "compare");  // seed §6: a comparison needs an aggregate or segment
  if (keys.empty() && (!func.empty() || compares) &&
      metrics.size() >= 2) {  // "name and the average age": per name
    const auto numeric = [&](const std::string& m) { return holds_numbers(profile, m); };
    auto key =
        std::find_if_not(metrics.begin(), metrics.end(), numeric);  // "the average price from each code"
    const bool labelled = key != metrics.end();
    if (!labelled) key = metrics.begin();
    const bool measured = std::any_of(metrics.begin(), metrics.end(),
                                      [&](const std::string& m) { return m != *key && numeric(m); });
    if (!measured && !func.empty() && func != "count_distinct")
      func = "count";                               // "the total of labels" counts them
    if (!func.empty() || (measured && labelled)) {  // "compare revenue and cost": no label to group by
      keys.push_back(*key);
      metrics.erase(key);
    }
  }
  if (func == "count") {  // "the number of seasons by season": rows per key
    std::erase_if(metrics, [&](const std::string& m) { return has(keys, m); });
  }
  if (metrics.empty() && (func.empty() || func == "sum" || func == "count")) {
    func = "count";
    metrics.emplace_back(kCountRowsMetric);
  } else if (metrics.empty() && func != "count_distinct" &&
             counts(stems)) {  // "the dates with a mean pressure over 30, count them"
    func = "count";
    metrics.emplace_back(kCountRowsMetric);
  } else if (metrics.empty() && func != "count_distinct") {
    return core::invalid_argument(
        "the question asks for " + func_name(func) +
            " but names no column to take it of; name one of the measures: " + measure_names(profile),
        "metrics");
  } else if (metrics.empty()) {
    const std::string counted = counted_column(profile, question_stems);
    if (has(keys, counted)) {  // "the number of different colors" by color: the rows of each
      func = "count";
      metrics.emplace_back(kCountRowsMetric);
    } else if (counted.empty()) {
      std::vector<std::string> names;
      for (const data::ColumnProfile& column : profile.columns) names.push_back(column.name);
      return core::invalid_argument(
          "the question counts distinct values but names no column to count them in; name one of: " +
              core::join(names, ", "),
          "metrics");
    } else {
      metrics.push_back(counted);
    }
  }
  std::string chart = has(r.outputs, "chart") ? first_label(stems, charts_) : "";
  const data::ColumnProfile* key = keys.empty() ? nullptr : profile.find(keys.front());
  const bool numeric_key =
      key != nullptr && data::is_numeric(key->type);  // "the invoice number and its count"
  if (chart.empty() && has(r.analysis, "correlation") && (metrics.size() > 1 || numeric_key))
    chart = "plot_scatter";
  const bool series = func.empty() && !keys.empty() && metrics.size() > 1 && chart == "plot_scatter";
  std::vector<std::string> colors;  // columns that split a raw chart into series
  if (series) colors.swap(keys);
  if (func.empty() && keys.empty() &&
      chart == "plot_scatter") {  // "acc road, school id and percent": labels color
    std::vector<std::string> numbers;
    for (const std::string& m : metrics) {
      const bool filtered = std::any_of(r.constraints.begin(), r.constraints.end(), [&](const Constraint& c) {
        return c.type == "filter" && c.column == m;
      });
      if (may_hold_numbers(profile, m)) {
        numbers.push_back(m);
      } else if (!filtered) {  // "not in the range 'Aberdare Range'" keeps rows; it splits no series
        colors.push_back(m);
      }
    }
    if (numbers.size() >= 2 && !colors.empty()) {
      metrics = std::move(numbers);
    } else {
      colors.clear();
    }
  }
  if (func.empty() && keys.empty() && colors.empty() && metrics.size() == 2 && chart != "plot_scatter" &&
      repeats(profile, metrics[0]) && !holds_numbers(profile, metrics[0]) &&
      holds_numbers(profile, metrics[1]) && !contains_phrase(question_stems, row_superlatives_)) {
    keys.push_back(metrics[0]);  // "list the products sorted by revenue": each product's total, not each row
    metrics.erase(metrics.begin());
  }
  const bool raw = func.empty() && keys.empty();  // one column against another
  if (func.empty()) func = "sum";
  std::vector<std::string> satisfies;
  for (const std::string& m : r.metrics) satisfies.push_back("metrics:" + m);
  for (const std::string& g : r.group_by) satisfies.push_back("group_by:" + g);
  if (r.time.column) satisfies.push_back("time:" + *r.time.column);
  for (const char* label : {"total", "compare"}) {
    if (has(r.analysis, label)) satisfies.push_back(std::string("analysis:") + label);
  }
  if (!parts.empty()) satisfies.push_back("analysis:share");  // the amounts of every part
  const bool aggregated = !raw && (!keys.empty() || !r.metrics.empty() || asked || has(r.analysis, "total"));
  if (aggregated) {  // "how many dogs were abandoned?"
    steps.add("aggregate", {{"group_by", texts(keys)}, {"agg_func", text(func)}, {"metrics", texts(metrics)}},
              func + " of " + (metrics.front() == kCountRowsMetric ? std::string("rows") : metrics.front()) +
                  (keys.empty() ? "" : " per " + keys.front()),
              satisfies);
  }
  if (metrics.front() == kCountRowsMetric) metrics.front() = kCountColumn;
  if (core::Result<void> kept = add_group_filters(having, aggregated, func, metrics, steps); !kept)
    return kept.error();
  if (has(r.analysis, "share") && has(r.outputs, "table") && !keys.empty() && !raw) {
    steps.add("compute_share", {{"metric", text(metrics.front())}, {"group_by", texts(keys)}},
              "each " + keys.front() + "'s percent of the total", {"analysis:share"});
  }
  if (!change.empty() &&
      aggregated) {  // "revenue month over month": the chart and the table show each month's change
    steps.add("compare_periods",
              {{"date_column", text(*r.time.column)},
               {"metric", text(metrics.front())},
               {"grain", text(change)},
               {"group_by", texts(r.group_by)}},
              "each " + change + "'s " + metrics.front() + " against the " + change + " before",
              {"analysis:compare"});
    metrics.insert(metrics.begin(), std::string(kChangePercentColumn));
  }
  for (const Constraint& c : widened) {
    steps.add("filter_rows", {{"column", text(c.column)}, {"op", text(c.op)}, {"value", c.value}},
              "keep the " + change + "s the question names, each now compared with the one before",
              {"constraints:filter"});
  }
  const std::int64_t shown =
      dated == nullptr ? 0 : periods_spanned(*dated, change, r.constraints, 3).value_or(3);
  const bool one_change_each =  // "units by region year over year" on two years: one change per region
      aggregated && (widened.empty() ? shown == 2 : shown == 1);
  if (one_change_each && widened.empty()) {
    steps.add("filter_rows",
              {{"column", text(std::string(kChangePercentColumn))},
               {"op", text("!=")},
               {"value", ParamValue{{ParamScalar(nullptr)}, false}}},
              "the later " + change + " against the earlier: the first has nothing to compare with",
              {"analysis:compare"});
  }
  for (const Constraint& c : r.constraints) {
    if (c.type == "sort") {
      Params params{{"by", text(c.column)}, {"direction", text(c.direction)}};
      for (const Constraint& limit : r.constraints) {
        if (limit.type == "limit") params["limit"] = number(limit.n);
      }
      std::vector<std::string> cites = {"constraints:sort"};
      if (params.count("limit")) cites.push_back("constraints:limit");
      if (has(r.analysis, "ranking")) cites.push_back("analysis:ranking");
      steps.add("sort_limit", std::move(params), "order by " + c.column + " as asked", cites);
    }
  }
  const bool sorted = std::any_of(r.constraints.begin(), r.constraints.end(),
                                  [](const Constraint& c) { return c.type == "sort"; });
  if (has(r.analysis, "ranking") && !sorted) {
    steps.add("sort_limit", {{"by", text(metrics.front())}, {"direction", text("desc")}},
              "rank by " + metrics.front() + " as asked", {"analysis:ranking"});
  }
  if (has(r.outputs, "chart")) {
    const bool labelled_pair = raw && metrics.size() == 2 && !holds_numbers(profile, metrics[0]);
    if (chart.empty() && has(r.analysis, "share") && (!keys.empty() || labelled_pair))
      chart = "plot_pie";  // each group's part, or each row's ("the names and balances ... the proportion")
    const data::ColumnProfile* spread = metrics.size() == 1 ? profile.find(metrics.front()) : nullptr;
    if (chart.empty() && has(r.analysis, "distribution") && raw && spread != nullptr &&
        data::is_numeric(spread->type)) {
      chart = "plot_histogram";  // "the distribution of revenue": how one column's values spread
    }
    const bool by_value = std::any_of(r.constraints.begin(), r.constraints.end(), [&](const Constraint& c) {
      return c.type == "sort" && key != nullptr && c.column != key->name;
    });  // a line ordered by its values zigzags
    const bool dated_key =
        key != nullptr && key->role == data::ColumnRole::kTemporal && !r.time.column && !by_value;
    const bool timeline = (r.time.column && cyclic.empty()) || has(r.analysis, "trend") ||
                          dated_key;  // "in each year"; weekdays are no timeline
    if (chart.empty() && !timeline && numeric_key && key->role != data::ColumnRole::kTemporal && !raw &&
        !r.time.column)
      chart = "plot_scatter";  // "how many students for each age": counts along a number line
    if (chart.empty() && !timeline && raw && metrics.size() == 2 &&
        std::all_of(metrics.begin(), metrics.end(),
                    [&](const std::string& m) { return is_measure(profile, m); }))
      chart = "plot_scatter";  // "the lengths and heights of roller coasters": one number against another
    if (chart.empty() && one_change_each && !r.group_by.empty()) {
      chart = "plot_bar";  // a line through one point per group shows no change; bars of it do
      keys = r.group_by;
    }
    if (chart.empty()) chart = timeline ? "plot_line" : "plot_bar";
    if (chart == "plot_histogram" && (!keys.empty() || metrics.size() > 1))
      chart = "plot_bar";  // a histogram of groups, or of one column against another, is a bar chart
    const std::string x = keys.empty() ? metrics.front() : keys.front();
    const std::string y = keys.empty() && metrics.size() > 1 ? metrics[1] : metrics.front();
    Params params;
    std::vector<std::string> cites = {"outputs:chart"};
    if (raw)
      cites.insert(cites.end(), satisfies.begin(), satisfies.end());  // the chart draws them as they are
    if (chart == "plot_pie") {
      params = {{"category", text(x)}, {"value", text(y)}};
      if (has(r.analysis, "share")) cites.push_back("analysis:share");
    } else if (chart == "plot_histogram") {
      params = {{"column", text(y)}};
      if (has(r.analysis, "distribution")) cites.push_back("analysis:distribution");
    } else {
      params = {{"x", text(x)}, {"y", text(y)}};
      if (keys.size() > 1) params["color"] = text(keys.back());
      if (!colors.empty()) params["color"] = text(colors.front());
      if (keys.size() > 2 && chart == "plot_line") params["facet"] = text(keys[1]);
      if (chart == "plot_bar" && keys.size() == 1 && colors.empty() && metrics.size() > 1 &&
          change.empty()) {  // "cost and revenue by region"
        params["also"] = texts(std::vector<std::string>(metrics.begin() + 1, metrics.end()));
      }
      if (chart == "plot_line" && has(r.analysis, "trend")) cites.push_back("analysis:trend");
      if (chart == "plot_scatter" && has(r.analysis, "correlation")) cites.push_back("analysis:correlation");
    }
    steps.add(chart, std::move(params), "the chart the question asks for", cites);
  }
  for (const Constraint& part : parts) {  // after the chart, which shows every part
    steps.add("filter_rows", {{"column", text(part.column)}, {"op", text(part.op)}, {"value", part.value}},
              "keep the part the question asks the share of", {"constraints:filter"});
  }
  std::vector<std::string> measures;  // correlations are of numbers
  std::copy_if(metrics.begin(), metrics.end(), std::back_inserter(measures),
               [&](const std::string& m) { return may_hold_numbers(profile, m); });
  const bool correlated = has(r.analysis, "correlation") && measures.size() >= 2;
  if (correlated) {  // "is there a correlation": the coefficients and their n, beside the scatter
    steps.add("compute_correlations", {{"columns", texts(measures)}, {"method", text("both")}},
              "how the metrics move together: Pearson, Spearman and n", {"analysis:correlation"});
  }
  if (has(r.outputs, "table") && raw && has(steps.tools(), "plot_histogram")) {
    // "the distribution of revenue": the table is the histogram's bins, not every row drawn
    steps.add("compute_distributions", {{"columns", texts({metrics.front()})}}, "the histogram's bins",
              {"outputs:table"});
    steps.add("save_table", {{"name", text("result")}}, "the bins as a table", {"outputs:table"});
  } else if (has(r.outputs, "table") && raw && !correlated && !has(r.outputs, "chart") &&
             !r.metrics.empty()) {
    // "list the height and weight of people": those columns; "the orders with revenue above 5000": whole rows
    std::vector<std::string> columns = r.metrics;
    if (columns.size() < 2) {
      columns.clear();
      for (const data::ColumnProfile& column : profile.columns) columns.push_back(column.name);
    }
    std::vector<std::string> cites = {"outputs:table"};
    cites.insert(cites.end(), satisfies.begin(), satisfies.end());
    steps.add("save_table", {{"name", text("result")}, {"columns", texts(columns)}},
              "the columns asked for, as a table", cites);
  } else if (has(r.outputs, "table")) {
    steps.add("save_table", {{"name", text("result")}},
              correlated ? "the coefficients as a table" : "the result as a table", {"outputs:table"});
  }
  // Analysis the chart does not already show, each by the tool made for it (after the outputs,
  // so the chart and the table show the aggregated rows).
  if (has(r.analysis, "share") && !has(steps.tools(), "plot_pie") && !has(steps.tools(), "compute_share") &&
      !keys.empty()) {
    steps.add("compute_share", {{"metric", text(metrics.front())}, {"group_by", texts({keys.front()})}},
              "each group's percent of the total", {"analysis:share"});
  }
  if (has(r.analysis, "distribution") && !has(steps.tools(), "plot_histogram")) {
    const auto numeric = std::find_if(metrics.begin(), metrics.end(),
                                      [&](const std::string& m) { return holds_numbers(profile, m); });
    if (numeric != metrics.end()) {
      steps.add("compute_distributions", {{"columns", texts({*numeric})}}, "how the values spread",
                {"analysis:distribution"});
    } else {  // bins need numbers: the spread of labels is how often each occurs
      steps.add("compute_value_counts", {{"column", text(metrics.front())}}, "how often each value occurs",
                {"analysis:distribution"});
    }
  }
  if (has(r.analysis, "anomaly") && !metrics.empty()) {
    Params anomaly_params{{"column", text(metrics.front())}};
    if (r.time.column) anomaly_params.emplace("date_column", text(*r.time.column));
    steps.add("detect_anomalies", std::move(anomaly_params), "flag the unusual values asked about",
              {"analysis:anomaly"});
  }
  if (has(r.analysis, "summary")) {
    steps.add("compute_summary_stats", {{"columns", texts(metrics)}}, "summary statistics asked for",
              {"analysis:summary"});
  }
  return std::move(steps).finish();
}

}  // namespace planfirst::autoviz
