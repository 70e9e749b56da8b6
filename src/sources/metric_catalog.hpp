// MetricCatalog is the `db` source's list of status metrics, summaries and lists
// (assets/sources/metrics.yaml): per entry its phrases, the parameters it takes with their
// defaults, the parameterized SQL that answers it, and how its rows make the one figure a question
// asks for (the headline). Checked at load: known kinds, parameters and headlines, and every query
// binds exactly the placeholders its SQL uses. A value; threads may share const ones.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/asset_store.hpp"
#include "core/result.hpp"

namespace planfirst::core {
class RegistryYaml;
}

namespace planfirst::sources {

inline constexpr std::string_view kMetricCatalogPath = "sources/metrics.yaml";

struct MetricParameter {
  std::string name;           // sprint, period, priority, component, person, issue_type, reference_date
  std::string default_value;  // "current", "last_closed", "none", "last_30_days", "today"; "" when required
  bool required = false;      // the question must name it, or the entry is not a candidate
};

struct MetricQuery {
  std::string id;
  std::vector<std::string> params;  // bound in order to $1, $2, ...; parameter names or period_start,
                                    // period_end, row_limit
  std::string sql;                  // for every engine ...
  std::string sql_duckdb;           // ... unless the engine's own variant is set
  std::string sql_postgresql;
  std::string value_column;  // the column holding a row's value; may be empty (lists)
  std::string label_column;  // the column naming a row
  // Other statistics a question may ask for instead of value_column's ("average" -> a mean column);
  // the first pair names value_column's own statistic ("median").
  std::vector<std::pair<std::string, std::string>> statistics;

  const std::string& sql_for(std::string_view engine) const;  // "duckdb" or "postgresql"
};

struct MetricEntry {
  std::string name;  // "sprint_completion_rate"
  std::string kind;  // "metric", "summary" or "list"
  std::string description;
  std::string unit;
  std::vector<std::string> phrases;
  std::vector<std::vector<std::string>> phrase_stems;  // each phrase's core::stems_of_text, made at load
  std::vector<MetricParameter> parameters;
  std::vector<MetricQuery> queries;
  std::string headline = "first";  // the first query's rows as one figure: first, sum or mean
  std::string headline_unit;       // the figure's unit when it differs from `unit` (a sum of rates)

  const MetricParameter* parameter(std::string_view name) const;  // nullptr when it takes none
};

class MetricCatalog {
 public:
  // kNotFound when the asset is missing; kInvalidArgument at "<origin>:<line>" for a malformed entry.
  static core::Result<MetricCatalog> load(const core::AssetStore& assets,
                                          std::string_view path = kMetricCatalogPath);
  // The same from YAML text; `origin` names it in errors.
  static core::Result<MetricCatalog> parse(std::string_view yaml, std::string origin);

  const std::vector<MetricEntry>& entries() const { return entries_; }
  const MetricEntry* find(std::string_view name) const;  // nullptr when absent
  std::vector<std::string> names() const;                // in catalog order
  const std::string& origin() const { return origin_; }

 private:
  static core::Result<MetricCatalog> read(const core::RegistryYaml& yaml);

  std::vector<MetricEntry> entries_;
  std::string origin_;
};

}  // namespace planfirst::sources
