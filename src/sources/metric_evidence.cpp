#include "sources/metric_evidence.hpp"

#include <cmath>
#include <cstdio>

namespace planfirst::sources {
namespace {

std::string cell(const data::Value& value) {
  if (value.is_null()) return "";
  if (value.kind() == data::Value::Kind::kDouble && std::isfinite(value.as_double())) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f", value.as_double());
    std::string text = buffer;
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
    return text;
  }
  return value.to_string();
}

Provenance provenance_of(const MetricRun& run) {
  Provenance provenance;
  provenance.source = "db";
  provenance.locator = run.catalog + "#" + run.entry.name + "/" + run.query.id;
  provenance.query = run.sql;
  const std::string bound = run.binding.describe(run.query);
  if (!bound.empty())
    provenance.query += (run.sql.ends_with('\n') ? "" : "\n") + std::string("-- bound: ") + bound;
  provenance.fetched_at = run.fetched_at;
  return provenance;
}

std::vector<std::pair<std::string, std::string>> common_fields(const MetricRun& run) {
  return {{"metric", run.entry.name}, {"kind", run.entry.kind},       {"query", run.query.id},
          {"unit", run.entry.unit},   {"period", run.binding.period}, {"database", run.database}};
}

}  // namespace

std::vector<EvidenceItem> metric_evidence(const MetricRun& run, const data::QueryResult& rows) {
  std::vector<EvidenceItem> items;
  const std::string prefix = "db:" + run.entry.name + "/" + run.query.id + "/";
  const data::Column* label = rows.find_column(run.query.label_column);
  const data::Column* value = rows.find_column(run.query.value_column);
  const data::Column* title = rows.find_column("title");
  for (std::size_t row = 0; row < rows.row_count(); ++row) {
    EvidenceItem item;
    item.source = "db";
    const std::string name = label != nullptr ? cell(label->values[row]) : std::to_string(row + 1);
    item.id = prefix + name;
    item.fields = common_fields(run);
    std::string columns;
    for (const data::Column& column : rows.columns()) {
      item.fields.emplace_back(column.name, cell(column.values[row]));
      columns += (columns.empty() ? "" : ", ") + column.name + "=" + cell(column.values[row]);
    }
    if (value != nullptr) {
      const std::string shown = cell(value->values[row]);
      item.fields.emplace_back("value", shown);
      item.title =
          run.entry.name + ": " + name + " = " + (shown.empty() ? "n/a" : shown + " " + run.entry.unit);
    } else {
      item.title = title != nullptr ? name + ": " + cell(title->values[row]) : run.entry.name + ": " + name;
    }
    item.snippet = run.entry.name + " (" + run.binding.period + "): " + columns;
    item.provenance = provenance_of(run);
    items.push_back(std::move(item));
  }
  if (items.empty()) {
    EvidenceItem none;
    none.source = "db";
    none.id = prefix + "none";
    none.title = run.entry.name + ": no rows";
    none.snippet = run.entry.name + " (" + run.binding.period + "): no rows matched";
    none.fields = common_fields(run);
    none.provenance = provenance_of(run);
    items.push_back(std::move(none));
  }
  return items;
}

}  // namespace planfirst::sources
