#include "sources/metric_catalog.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>

#include "core/registry_yaml.hpp"
#include "core/stems.hpp"

namespace planfirst::sources {
namespace {

constexpr std::array<std::string_view, 3> kKinds = {"metric", "summary", "list"};
constexpr std::array<std::string_view, 7> kParameters = {"sprint", "period",     "priority",      "component",
                                                         "person", "issue_type", "reference_date"};
constexpr std::array<std::string_view, 3> kHeadlines = {"first", "sum", "mean"};
constexpr std::array<std::string_view, 2> kStatistics = {"median", "average"};

template <std::size_t N>
bool one_of(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// `parent[key]` as text, "" when it is absent or null (RegistryYaml::optional_scalar); when
// `required`, kInvalidArgument at the parent for a missing key.
core::Result<std::string> text(const core::RegistryYaml& yaml, const YAML::Node& parent, const char* key,
                               std::string_view context, bool required = true) {
  const YAML::Node node = core::yaml_child(parent, key);
  if (required && (!node.IsDefined() || node.IsNull())) {
    return yaml.fault(parent, context, std::string("'") + key + "' is missing");
  }
  return yaml.optional_scalar(parent, key, context);
}

// The highest $N placeholder in `sql` outside quoted text.
std::size_t highest_placeholder(std::string_view sql) {
  std::size_t highest = 0;
  bool quoted = false;
  for (std::size_t i = 0; i < sql.size(); ++i) {
    if (sql[i] == '\'') quoted = !quoted;
    if (quoted || sql[i] != '$') continue;
    std::size_t n = 0;
    std::size_t j = i + 1;
    while (j < sql.size() && std::isdigit(static_cast<unsigned char>(sql[j]))) n = n * 10 + (sql[j++] - '0');
    highest = std::max(highest, n);
  }
  return highest;
}

core::Result<MetricParameter> read_parameter(const core::RegistryYaml& yaml, const std::string& name,
                                             const YAML::Node& node) {
  if (!one_of(kParameters, name)) return yaml.fault(node, "unknown parameter '" + name + "'");
  MetricParameter parameter{name, {}, false};
  if (node.IsDefined() && node.IsMap()) {
    const std::string context = "parameter " + name;
    core::Result<std::string> default_value = text(yaml, node, "default", context, false);
    if (!default_value) return default_value.error();
    core::Result<std::string> required = text(yaml, node, "required", context, false);
    if (!required) return required.error();
    parameter.default_value = std::move(*default_value);
    parameter.required = *required == "true";
  }
  if (!parameter.required && parameter.default_value.empty()) {
    return yaml.fault(node, "parameter '" + name + "' needs a default or required: true");
  }
  return parameter;
}

core::Result<MetricQuery> read_query(const core::RegistryYaml& yaml, const YAML::Node& node,
                                     const MetricEntry& entry) {
  MetricQuery query;
  core::Result<std::string> id = text(yaml, node, "id", "query of " + entry.name);
  if (!id) return id.error();
  query.id = std::move(*id);
  const std::string context = "query " + entry.name + "/" + query.id;
  core::Result<std::vector<std::string>> params =
      yaml.texts(core::yaml_child(node, "params"), context + " 'params'");
  if (!params) return params.error();
  query.params = std::move(*params);
  for (auto [field, key] :
       {std::pair{&query.sql, "sql"}, std::pair{&query.sql_duckdb, "sql_duckdb"},
        std::pair{&query.sql_postgresql, "sql_postgresql"}, std::pair{&query.value_column, "value"},
        std::pair{&query.label_column, "label"}}) {
    core::Result<std::string> value = text(yaml, node, key, context, false);
    if (!value) return value.error();
    *field = std::move(*value);
  }
  const YAML::Node statistics = core::yaml_child(node, "statistics");
  if (statistics.IsDefined()) {
    core::Result<std::vector<std::pair<std::string, std::string>>> pairs =
        yaml.pairs(statistics, context + " 'statistics'");
    if (!pairs) return pairs.error();
    for (const auto& [statistic, column] : *pairs) {
      if (!one_of(kStatistics, statistic)) {
        return yaml.fault(statistics, context + ": unknown statistic '" + statistic + "' (median, average)");
      }
    }
    if (pairs->empty() || pairs->front().second != query.value_column) {
      return yaml.fault(statistics, context + ": the first statistic must name the 'value' column");
    }
    query.statistics = std::move(*pairs);
  }
  for (const std::string& param : query.params) {
    const bool from_period = (param == "period_start" || param == "period_end") && entry.parameter("period");
    const bool always =
        param == "row_limit" || param == "reference_date";  // the plan's limit, the clock's day
    if (entry.parameter(param) == nullptr && !from_period && !always) {
      return yaml.fault(node, context + " binds '" + param + "', which the entry does not declare");
    }
  }
  for (const std::string* sql : {&query.sql, &query.sql_duckdb, &query.sql_postgresql}) {
    if (sql->empty()) continue;
    if (highest_placeholder(*sql) != query.params.size()) {
      return yaml.fault(node, context + " lists " + std::to_string(query.params.size()) +
                                  " params but its SQL uses $1..$" +
                                  std::to_string(highest_placeholder(*sql)));
    }
  }
  if (query.sql.empty() && (query.sql_duckdb.empty() || query.sql_postgresql.empty())) {
    return yaml.fault(node, context + " needs 'sql', or both 'sql_duckdb' and 'sql_postgresql'");
  }
  return query;
}

core::Result<MetricEntry> read_entry(const core::RegistryYaml& yaml, const YAML::Node& node,
                                     core::Stemmer& stemmer) {
  MetricEntry entry;
  for (auto [field, key] : {std::pair{&entry.name, "name"}, std::pair{&entry.kind, "kind"},
                            std::pair{&entry.description, "description"}, std::pair{&entry.unit, "unit"}}) {
    core::Result<std::string> value =
        text(yaml, node, key, entry.name.empty() ? "entry" : "entry " + entry.name);
    if (!value) return value.error();
    *field = std::move(*value);
  }
  if (!one_of(kKinds, entry.kind)) return yaml.fault(node, "kind must be metric, summary or list");
  core::Result<std::vector<std::string>> phrases =
      yaml.texts(core::yaml_child(node, "phrases"), "entry " + entry.name + " 'phrases'");
  if (!phrases) return phrases.error();
  entry.phrases = std::move(*phrases);
  if (entry.phrases.empty()) return yaml.fault(node, "entry " + entry.name + " has no phrases");
  for (const std::string& phrase : entry.phrases)
    entry.phrase_stems.push_back(core::stems_of_text(phrase, stemmer));
  for (auto [field, key] :
       {std::pair{&entry.headline, "headline"}, std::pair{&entry.headline_unit, "headline_unit"}}) {
    core::Result<std::string> value = text(yaml, node, key, "entry " + entry.name, false);
    if (!value) return value.error();
    if (!value->empty()) *field = std::move(*value);
  }
  if (!one_of(kHeadlines, entry.headline)) {
    return yaml.fault(node, "entry " + entry.name + ": headline must be first, sum or mean");
  }
  const YAML::Node parameters = core::yaml_child(node, "parameters");
  if (parameters.IsMap()) {
    for (const auto& item : parameters) {
      core::Result<MetricParameter> parameter = read_parameter(yaml, item.first.Scalar(), item.second);
      if (!parameter) return parameter.error();
      entry.parameters.push_back(std::move(*parameter));
    }
  }
  const YAML::Node queries = core::yaml_child(node, "queries");
  if (!queries.IsSequence() || queries.size() == 0)
    return yaml.fault(node, "entry " + entry.name + " has no queries");
  for (const YAML::Node& item : queries) {
    core::Result<MetricQuery> query = read_query(yaml, item, entry);
    if (!query) return query.error();
    entry.queries.push_back(std::move(*query));
  }
  return entry;
}

}  // namespace

const std::string& MetricQuery::sql_for(std::string_view engine) const {
  if (engine == "duckdb" && !sql_duckdb.empty()) return sql_duckdb;
  if (engine == "postgresql" && !sql_postgresql.empty()) return sql_postgresql;
  return sql.empty() ? (engine == "duckdb" ? sql_duckdb : sql_postgresql) : sql;
}

const MetricParameter* MetricEntry::parameter(std::string_view name) const {
  for (const MetricParameter& parameter : parameters) {
    if (parameter.name == name) return &parameter;
  }
  return nullptr;
}

core::Result<MetricCatalog> MetricCatalog::load(const core::AssetStore& assets, std::string_view path) {
  core::Result<core::RegistryYaml> yaml = core::RegistryYaml::load(assets, path);
  if (!yaml) return yaml.error();
  return yaml->guarded<MetricCatalog>([&] { return read(*yaml); });
}

core::Result<MetricCatalog> MetricCatalog::parse(std::string_view yaml, std::string origin) {
  core::Result<core::RegistryYaml> parsed = core::RegistryYaml::parse(yaml, std::move(origin));
  if (!parsed) return parsed.error();
  return parsed->guarded<MetricCatalog>([&] { return read(*parsed); });
}

core::Result<MetricCatalog> MetricCatalog::read(const core::RegistryYaml& yaml) {
  const YAML::Node entries = core::yaml_child(yaml.root(), "entries");
  if (!entries.IsSequence()) return core::invalid_argument("'entries' must be a list", yaml.origin());
  MetricCatalog catalog;
  catalog.origin_ = yaml.origin();
  std::set<std::string, std::less<>> seen;
  core::Stemmer stemmer;
  for (const YAML::Node& node : entries) {
    core::Result<MetricEntry> entry = read_entry(yaml, node, stemmer);
    if (!entry) return entry.error();
    if (!seen.insert(entry->name).second)
      return yaml.fault(node, "entry '" + entry->name + "' is listed twice");
    catalog.entries_.push_back(std::move(*entry));
  }
  if (catalog.entries_.empty()) return core::invalid_argument("the catalog has no entries", yaml.origin());
  return catalog;
}

const MetricEntry* MetricCatalog::find(std::string_view name) const {
  for (const MetricEntry& entry : entries_) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

std::vector<std::string> MetricCatalog::names() const {
  std::vector<std::string> names;
  for (const MetricEntry& entry : entries_) names.push_back(entry.name);
  return names;
}

}  // namespace planfirst::sources
