#include "sources/metric_catalog.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>

#include <yaml-cpp/yaml.h>

#include "core/stems.hpp"

namespace planfirst::sources {
namespace {

constexpr std::array<std::string_view, 3> kKinds = {"metric", "summary", "list"};
constexpr std::array<std::string_view, 6> kParameters = {"sprint", "period", "priority",
                                                         "component", "person", "reference_date"};

template <std::size_t N>
bool one_of(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Thrown inside the walk and turned into an Error at its line; never leaves this file.
struct Fault {
  YAML::Mark mark;
  std::string message;
};

std::string text(const YAML::Node& parent, const char* key, bool required = true) {
  const YAML::Node node = parent[key];
  if (!node.IsDefined() || node.IsNull()) {
    if (required) throw Fault{parent.Mark(), std::string("'") + key + "' is missing"};
    return {};
  }
  if (!node.IsScalar()) throw Fault{node.Mark(), std::string("'") + key + "' must be text"};
  return node.Scalar();
}

std::vector<std::string> texts(const YAML::Node& parent, const char* key) {
  std::vector<std::string> values;
  const YAML::Node node = parent[key];
  if (!node.IsDefined() || node.IsNull()) return values;
  if (!node.IsSequence()) throw Fault{node.Mark(), std::string("'") + key + "' must be a list"};
  for (const YAML::Node& item : node) {
    if (!item.IsScalar() || item.Scalar().empty()) throw Fault{item.Mark(), std::string("'") + key + "' lists text"};
    values.push_back(item.Scalar());
  }
  return values;
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

MetricParameter read_parameter(const std::string& name, const YAML::Node& node) {
  if (!one_of(kParameters, name)) throw Fault{node.Mark(), "unknown parameter '" + name + "'"};
  MetricParameter parameter{name, {}, false};
  if (node.IsDefined() && node.IsMap()) {
    parameter.default_value = text(node, "default", false);
    const std::string required = text(node, "required", false);
    parameter.required = required == "true";
  }
  if (!parameter.required && parameter.default_value.empty()) {
    throw Fault{node.Mark(), "parameter '" + name + "' needs a default or required: true"};
  }
  return parameter;
}

MetricQuery read_query(const YAML::Node& node, const MetricEntry& entry) {
  MetricQuery query;
  query.id = text(node, "id");
  query.params = texts(node, "params");
  query.sql = text(node, "sql", false);
  query.sql_duckdb = text(node, "sql_duckdb", false);
  query.sql_postgresql = text(node, "sql_postgresql", false);
  query.value_column = text(node, "value", false);
  query.label_column = text(node, "label", false);
  const std::string context = "query " + entry.name + "/" + query.id;
  for (const std::string& param : query.params) {
    const bool from_period = (param == "period_start" || param == "period_end") && entry.parameter("period");
    const bool always = param == "row_limit" || param == "reference_date";  // the plan's limit, the clock's day
    if (entry.parameter(param) == nullptr && !from_period && !always) {
      throw Fault{node.Mark(), context + " binds '" + param + "', which the entry does not declare"};
    }
  }
  for (const std::string* sql : {&query.sql, &query.sql_duckdb, &query.sql_postgresql}) {
    if (sql->empty()) continue;
    if (highest_placeholder(*sql) != query.params.size()) {
      throw Fault{node.Mark(), context + " lists " + std::to_string(query.params.size()) +
                                   " params but its SQL uses $1..$" + std::to_string(highest_placeholder(*sql))};
    }
  }
  if (query.sql.empty() && (query.sql_duckdb.empty() || query.sql_postgresql.empty())) {
    throw Fault{node.Mark(), context + " needs 'sql', or both 'sql_duckdb' and 'sql_postgresql'"};
  }
  return query;
}

MetricEntry read_entry(const YAML::Node& node, core::Stemmer& stemmer) {
  MetricEntry entry;
  entry.name = text(node, "name");
  entry.kind = text(node, "kind");
  if (!one_of(kKinds, entry.kind)) throw Fault{node.Mark(), "kind must be metric, summary or list"};
  entry.description = text(node, "description");
  entry.unit = text(node, "unit");
  entry.phrases = texts(node, "phrases");
  if (entry.phrases.empty()) throw Fault{node.Mark(), "entry " + entry.name + " has no phrases"};
  for (const std::string& phrase : entry.phrases) entry.phrase_stems.push_back(core::stems_of_text(phrase, stemmer));
  const YAML::Node parameters = node["parameters"];
  if (parameters.IsDefined() && parameters.IsMap()) {
    for (const auto& item : parameters) entry.parameters.push_back(read_parameter(item.first.Scalar(), item.second));
  }
  const YAML::Node queries = node["queries"];
  if (!queries.IsDefined() || !queries.IsSequence() || queries.size() == 0) throw Fault{node.Mark(), "entry " + entry.name + " has no queries"};
  for (const YAML::Node& item : queries) entry.queries.push_back(read_query(item, entry));
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
  core::Result<std::string> yaml = assets.read(path);
  if (!yaml) return yaml.error();
  return parse(*yaml, assets.origin(path));
}

core::Result<MetricCatalog> MetricCatalog::parse(std::string_view yaml, std::string origin) {
  auto at = [&origin](const YAML::Mark& mark) {
    return mark.is_null() ? origin : origin + ":" + std::to_string(mark.line + 1);
  };
  MetricCatalog catalog;
  catalog.origin_ = origin;
  try {
    const YAML::Node root = YAML::Load(std::string(yaml));
    const YAML::Node entries = root["entries"];
    if (!entries.IsDefined() || !entries.IsSequence()) return core::invalid_argument("'entries' must be a list", origin);
    std::set<std::string, std::less<>> seen;
    core::Stemmer stemmer;
    for (const YAML::Node& node : entries) {
      MetricEntry entry = read_entry(node, stemmer);
      if (!seen.insert(entry.name).second) {
        return core::invalid_argument("entry '" + entry.name + "' is listed twice", at(node.Mark()));
      }
      catalog.entries_.push_back(std::move(entry));
    }
  } catch (const Fault& fault) {
    return core::invalid_argument(fault.message, at(fault.mark));
  } catch (const YAML::Exception& e) {
    return core::invalid_argument("not YAML: " + e.msg, at(e.mark));
  }
  if (catalog.entries_.empty()) return core::invalid_argument("the catalog has no entries", origin);
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
